// Secondary types over HTTP (docs/API.md §6.6) in both variants: createType under
// cmis:secondary, typeChildren and typeDescendants, adding and removing them on objects
// through cmis:secondaryObjectTypeIds (createDocument, createFolder, update, checkIn,
// bulkUpdate's addSecondaryTypeId[N]/removeSecondaryTypeId[N]) in every body encoding,
// their properties validated, stored in the sidecar and shown, queries FROM them, and
// deleteType refused while an object has one.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include "http/server_fixture.h"

namespace folio::testing {
namespace {

httplib::Result PostType(httplib::Client& c, const std::string& repo, const Json& type) {
  const std::string path = "/demo/" + repo;
  return c.Post(path.c_str(), Json{{"operation", "createType"}, {"type", type}}.dump(), "application/json");
}

std::string Message(const httplib::Result& r) { return BodyJson(r).value("message", ""); }

// acme:tagged (a label, a count, a due date) and acme:reviewed (a required reviewer).
void CreateSecondaryTypes(httplib::Client& c, const FixtureVariant& v) {
  auto tagged = PostType(c, v.repo,
                         Json{{"id", "acme:tagged"},
                              {"parentId", v.prefix + "secondary"},
                              {"displayName", "Tagged"},
                              {"propertyDefinitions",
                               {{"acme:label", {{"propertyType", "string"}}},
                                {"acme:count", {{"propertyType", "integer"}}},
                                {"acme:due", {{"propertyType", "datetime"}}}}}});
  REQUIRE(tagged);
  REQUIRE_MESSAGE(tagged->status == 201, tagged->body);
  auto reviewed = PostType(c, v.repo,
                           Json{{"id", "acme:reviewed"},
                                {"parentId", "cmis:secondary"},
                                {"propertyDefinitions",
                                 {{"acme:reviewer", {{"propertyType", "string"}, {"required", true}}}}}});
  REQUIRE(reviewed);
  REQUIRE_MESSAGE(reviewed->status == 201, reviewed->body);
}

// Runs `body` on server `f` for each variant, after CreateSecondaryTypes: `base` is the
// repository URL, `ids` the spelling of cmis:secondaryObjectTypeIds there.
void ForEachVariant(ServerFixture& f, const std::function<void(httplib::Client& c, const FixtureVariant& v,
                                                               const std::string& base, const std::string& ids)>& body) {
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    CreateSecondaryTypes(c, v);
    body(c, v, "/demo/" + v.repo, v.prefix + "secondaryObjectTypeIds");
  }
}

Json GetObject(httplib::Client& c, const std::string& repo, const std::string& id, bool succinct = true) {
  return GetJson(c, "/demo/" + repo + "?cmisselector=object&succinct=" + (succinct ? "true" : "false") +
                        "&objectId=" + id);
}

// The files under `dir` whose text holds `needle`.
std::vector<std::string> FilesHolding(const std::string& dir, const std::string& needle) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(needle) != std::string::npos) out.push_back(e.path().string());
  }
  return out;
}

TEST_CASE("Http secondary types: createType under cmis:secondary, listed by typeChildren and typeDescendants") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string&) {
    const Json t = GetJson(c, base + "?cmisselector=typeDefinition&typeId=acme:tagged");
    CHECK(t["baseId"] == v.prefix + "secondary");
    CHECK(t["parentId"] == v.prefix + "secondary");
    CHECK(t["creatable"] == false);
    CHECK(t["fileable"] == false);
    CHECK(t["controllableACL"] == false);
    CHECK(t["queryable"] == true);
    CHECK(t["propertyDefinitions"]["acme:label"]["propertyType"] == "string");
    const Json secondary = GetJson(c, base + "?cmisselector=typeDefinition&typeId=" + v.prefix + "secondary");
    CHECK(secondary["fileable"] == false);
    CHECK(secondary["creatable"] == false);

    const Json kids = GetJson(c, base + "?cmisselector=typeChildren&typeId=" + v.prefix + "secondary");
    REQUIRE(kids["types"].size() == 2);
    CHECK(kids["types"][0]["id"] == "acme:reviewed");
    CHECK(kids["types"][1]["id"] == "acme:tagged");
    const Json tree = GetJson(c, base + "?cmisselector=typeDescendants&typeId=cmis:secondary");
    REQUIRE(tree.is_array());
    CHECK(tree.size() == 2);

    // A secondary type is never an object's type, and says so when asked to be.
    auto creatable = PostType(c, v.repo, Json{{"id", "acme:made"}, {"parentId", "cmis:secondary"}, {"creatable", true}});
    REQUIRE(creatable);
    CHECK(creatable->status == 409);
    CHECK(BodyJson(creatable)["exception"] == "constraint");
    CHECK(Message(creatable).find("creatable") != std::string::npos);
    auto doc = PostAs(c, base, Encoding::kJson, {{"operation", "createDocument"}},
                      Json{{"cmis:name", "as-tagged.txt"}, {"cmis:objectTypeId", "acme:tagged"}});
    REQUIRE(doc);
    CHECK(doc->status == 409);
    CHECK(BodyJson(doc)["exception"] == "constraint");
    CHECK(Message(doc).find("acme:tagged") != std::string::npos);
  });
}

TEST_CASE("Http secondary types: added, validated, stored, shown and removed through the property") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    int n = 0;
    for (Encoding enc : {Encoding::kJson, Encoding::kUrlencoded, Encoding::kMultipart}) {
      CAPTURE(EncodingName(enc));
      const std::string name = "tagged-" + std::to_string(n++) + ".txt";
      auto made = PostAs(c, base, enc, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                         Json{{v.prefix + "name", name},
                              {ids, Json::array({"acme:tagged"})},
                              {"acme:label", "urgent"},
                              {"acme:count", "3"},
                              {"acme:due", "2026-12-24T10:00:00.000Z"}});
      REQUIRE(made);
      REQUIRE_MESSAGE(made->status == 201, made->body);
      const std::string id = BodyJson(made)["succinctProperties"][v.prefix + "objectId"];
      const Json o = GetObject(c, v.repo, id);
      CHECK(o["succinctProperties"][ids] == Json::array({"acme:tagged"}));
      CHECK(o["succinctProperties"]["acme:label"] == "urgent");
      CHECK(o["succinctProperties"]["acme:count"] == 3);
      // The full form names the secondary type's definitions: a datetime is a datetime.
      const Json full = GetObject(c, v.repo, id, false);
      CHECK(full["properties"]["acme:due"]["type"] == "datetime");
      CHECK(full["properties"]["acme:count"]["type"] == "integer");
      CHECK(full["properties"][ids]["cardinality"] == "multi");
    }
    // In the sidecar, beside the type's own properties (docs/STORAGE.md §4).
    const auto sidecars = FilesHolding(f.dir(), "\"urgent\"");
    CHECK(sidecars.size() >= 3);
    for (const std::string& path : sidecars) {
      CAPTURE(path);
      CHECK(FilesHolding(std::filesystem::path(path).parent_path().string(), "acme:tagged").size() >= 1);
    }

    // A property of a secondary type the object does not have, a bad value, an unknown
    // or non-secondary type id: each refused, naming the culprit, nothing made.
    struct Bad {
      Json props;
      std::string exception, named;
    };
    const Bad bad[] = {
        {{{v.prefix + "name", "b1.txt"}, {"acme:label", "x"}}, "invalidArgument", "acme:label"},
        {{{v.prefix + "name", "b2.txt"}, {ids, "acme:tagged"}, {"acme:count", "many"}}, "invalidArgument",
         "acme:count"},
        {{{v.prefix + "name", "b3.txt"}, {ids, "acme:nothing"}}, "invalidArgument", "acme:nothing"},
        {{{v.prefix + "name", "b4.txt"}, {ids, v.prefix + "document"}}, "invalidArgument", "document"},
        {{{v.prefix + "name", "b5.txt"}, {ids, v.prefix + "secondary"}}, "invalidArgument", "secondary"},
        {{{v.prefix + "name", "b6.txt"}, {ids, "acme:reviewed"}}, "constraint", "required by type 'acme:reviewed'"},
    };
    for (const Bad& b : bad) {
      CAPTURE(b.props.dump());
      auto r = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}}, b.props);
      REQUIRE(r);
      CHECK(r->status == (b.exception == "constraint" ? 409 : 400));
      CHECK(BodyJson(r)["exception"] == b.exception);
      CHECK(Message(r).find(b.named) != std::string::npos);
      CHECK(GetJson(c, base + "/" + b.props[v.prefix + "name"].get<std::string>() + "?succinct=true", 404)
                ["exception"] == "objectNotFound");
    }

    // update: add a second one, set its property; then take the first away, and its
    // properties go with it.
    const Json plain = BodyJson(PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                                       Json{{v.prefix + "name", "plain.txt"}}));
    const std::string id = plain["succinctProperties"][v.prefix + "objectId"];
    auto added = PostAs(c, base, Encoding::kUrlencoded, {{"cmisaction", "update"}, {"objectId", id}, {"succinct", "true"}},
                        Json{{ids, Json::array({"acme:tagged", "acme:reviewed"})},
                             {"acme:label", "draft"},
                             {"acme:reviewer", "bob"}});
    REQUIRE(added);
    REQUIRE_MESSAGE(added->status == 200, added->body);
    Json o = GetObject(c, v.repo, id);
    CHECK(o["succinctProperties"][ids] == Json::array({"acme:tagged", "acme:reviewed"}));
    CHECK(o["succinctProperties"]["acme:reviewer"] == "bob");
    // Required stays required while the type is on the object.
    auto unset = PostAs(c, base, Encoding::kJson, {{"cmisaction", "update"}, {"objectId", id}},
                        Json{{"acme:reviewer", nullptr}});
    REQUIRE(unset);
    CHECK(unset->status == 409);
    CHECK(Message(unset).find("acme:reviewer") != std::string::npos);
    auto removed = PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "update"}, {"objectId", id}},
                          Json{{ids, Json::array({"acme:reviewed"})}});
    REQUIRE(removed);
    REQUIRE_MESSAGE(removed->status == 200, removed->body);
    o = GetObject(c, v.repo, id);
    CHECK(o["succinctProperties"][ids] == Json::array({"acme:reviewed"}));
    CHECK_FALSE(o["succinctProperties"].contains("acme:label"));
    CHECK(o["succinctProperties"]["acme:reviewer"] == "bob");
    // All of them: the property is not set any more.
    auto none = PostAs(c, base, Encoding::kJson, {{"cmisaction", "update"}, {"objectId", id}}, Json{{ids, nullptr}});
    REQUIRE(none);
    REQUIRE_MESSAGE(none->status == 200, none->body);
    o = GetObject(c, v.repo, id);
    CHECK(o["succinctProperties"][ids].is_null());
    CHECK_FALSE(o["succinctProperties"].contains("acme:reviewer"));

    // A folder takes them too, and children lists what it has.
    auto folder = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createFolder"}, {"succinct", "true"}},
                         Json{{v.prefix + "name", "tagged-folder"}, {ids, "acme:tagged"}, {"acme:label", "box"}});
    REQUIRE(folder);
    REQUIRE_MESSAGE(folder->status == 201, folder->body);
    const Json children = GetJson(c, base + "?cmisselector=children&succinct=true");
    bool seen = false;
    for (const Json& child : children["objects"]) {
      const Json& p = child["object"]["succinctProperties"];
      if (p[v.prefix + "name"] != "tagged-folder") continue;
      seen = true;
      CHECK(p[ids] == Json::array({"acme:tagged"}));
      CHECK(p["acme:label"] == "box");
    }
    CHECK(seen);
  });
}

TEST_CASE("Http secondary types: checkIn and bulkUpdate add and remove them") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    const auto create = [&](const std::string& name) -> std::string {
      auto r = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                      Json{{v.prefix + "name", name}});
      REQUIRE(r);
      REQUIRE(r->status == 201);
      return BodyJson(r)["succinctProperties"][v.prefix + "objectId"];
    };
    const std::string a = create("bulk-a.txt");
    const std::string b = create("bulk-b.txt");
    auto bulk = PostAs(c, base, Encoding::kUrlencoded,
                       {{"cmisaction", "bulkUpdate"}, {"objectId[0]", a}, {"objectId[1]", b},
                        {"addSecondaryTypeId[0]", "acme:tagged"}, {"propertyId[0]", "acme:label"},
                        {"propertyValue[0]", "batch"}});
    REQUIRE(bulk);
    REQUIRE_MESSAGE(bulk->status == 200, bulk->body);
    REQUIRE(BodyJson(bulk).size() == 2);
    for (const std::string& id : {a, b}) {
      const Json o = GetObject(c, v.repo, id);
      CHECK(o["succinctProperties"][ids] == Json::array({"acme:tagged"}));
      CHECK(o["succinctProperties"]["acme:label"] == "batch");
    }
    auto taken = PostAs(c, base, Encoding::kUrlencoded,
                        {{"cmisaction", "bulkUpdate"}, {"objectIds", a}, {"removeSecondaryTypeId[0]", "acme:tagged"}});
    REQUIRE(taken);
    REQUIRE_MESSAGE(taken->status == 200, taken->body);
    Json o = GetObject(c, v.repo, a);
    CHECK(o["succinctProperties"][ids].is_null());
    CHECK_FALSE(o["succinctProperties"].contains("acme:label"));
    auto both = PostAs(c, base, Encoding::kUrlencoded,
                       {{"cmisaction", "bulkUpdate"}, {"objectIds", b}, {"addSecondaryTypeId[0]", "acme:reviewed"},
                        {"propertyId[0]", ids}, {"propertyValue[0]", "acme:reviewed"}});
    REQUIRE(both);
    CHECK(both->status == 400);
    CHECK(Message(both).find("addSecondaryTypeId") != std::string::npos);

    // checkIn: the working copy's secondary types and properties become the version's.
    auto out = PostAs(c, base, Encoding::kJson, {{"cmisaction", "checkOut"}, {"objectId", a}, {"succinct", "true"}});
    REQUIRE(out);
    REQUIRE_MESSAGE(out->status == 201, out->body);
    const std::string pwc = BodyJson(out)["succinctProperties"][v.prefix + "objectId"];
    auto in = PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "checkIn"}, {"objectId", pwc}, {"succinct", "true"}},
                     Json{{ids, Json::array({"acme:reviewed"})}, {"acme:reviewer", "carol"}});
    REQUIRE(in);
    REQUIRE_MESSAGE(in->status == 201, in->body);
    const std::string version = BodyJson(in)["succinctProperties"][v.prefix + "objectId"];
    o = GetObject(c, v.repo, version);
    CHECK(o["succinctProperties"][ids] == Json::array({"acme:reviewed"}));
    CHECK(o["succinctProperties"]["acme:reviewer"] == "carol");
  });
}

TEST_CASE("Http secondary types: a query FROM one finds the objects that have it") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    for (const auto& [name, label] : {std::pair{"q-one.txt", "red"}, std::pair{"q-two.txt", "blue"}}) {
      REQUIRE(PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}},
                     Json{{v.prefix + "name", name}, {ids, "acme:tagged"}, {"acme:label", label}})
                  ->status == 201);
    }
    REQUIRE(PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}}, Json{{v.prefix + "name", "q-no.txt"}})
                ->status == 201);
    const auto query = [&](const std::string& q, int status = 200) {
      return GetJson(c, base + "?cmisselector=query&succinct=true&q=" + httplib::detail::encode_query_param(q),
                     status);
    };
    const Json all = query("SELECT cmis:name, acme:label FROM acme:tagged ORDER BY cmis:name");
    REQUIRE(all["results"].size() == 2);
    CHECK(all["results"][0]["succinctProperties"][v.prefix + "name"] == "q-one.txt");
    CHECK(all["results"][0]["succinctProperties"]["acme:label"] == "red");
    CHECK(all["results"][1]["succinctProperties"][v.prefix + "name"] == "q-two.txt");
    const Json blue = query("SELECT * FROM acme:tagged WHERE acme:label = 'blue'");
    REQUIRE(blue["results"].size() == 1);
    CHECK(blue["results"][0]["succinctProperties"]["acme:label"] == "blue");
    CHECK(blue["results"][0]["succinctProperties"][v.prefix + "name"] == "q-two.txt");
    // The secondary type's properties are not the document type's.
    const Json refused = query("SELECT * FROM cmis:document WHERE acme:label = 'blue'", 400);
    CHECK(refused["exception"] == "invalidArgument");
    CHECK(refused["message"].get<std::string>().find("acme:label") != std::string::npos);
  });
}

TEST_CASE("Http secondary types: deleteType is refused while an object has the type") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    auto made = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createFolder"}, {"succinct", "true"}},
                       Json{{v.prefix + "name", "keeps-it"}});
    REQUIRE(made);
    REQUIRE(made->status == 201);
    const std::string id = BodyJson(made)["succinctProperties"][v.prefix + "objectId"];
    // Added by an update (not at creation): the update leaves the marker deleteType reads.
    REQUIRE(PostAs(c, base, Encoding::kJson, {{"cmisaction", "update"}, {"objectId", id}},
                   Json{{ids, "acme:tagged"}})
                ->status == 200);
    auto refused = PostAs(c, base, Encoding::kJson, {{"cmisaction", "deleteType"}, {"typeId", "acme:tagged"}});
    REQUIRE(refused);
    CHECK(refused->status == 409);
    CHECK(BodyJson(refused)["exception"] == "constraint");
    CHECK(Message(refused).find(id) != std::string::npos);
    // Unused: acme:reviewed goes at once.
    CHECK(PostAs(c, base, Encoding::kJson, {{"cmisaction", "deleteType"}, {"typeId", "acme:reviewed"}})->status ==
          200);
    REQUIRE(PostAs(c, base, Encoding::kJson, {{"cmisaction", "update"}, {"objectId", id}}, Json{{ids, nullptr}})
                ->status == 200);
    CHECK(PostAs(c, base, Encoding::kJson, {{"cmisaction", "deleteType"}, {"typeId", "acme:tagged"}})->status == 200);
    GetJson(c, base + "?cmisselector=typeDefinition&typeId=acme:tagged", 404);
  });
}

TEST_CASE("Http secondary types: a property may come from one type only") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    // acme:labelled defines acme:label as acme:tagged does; acme:memo, a document type,
    // defines acme:reviewer as acme:reviewed does.
    auto labelled = PostType(c, v.repo,
                             Json{{"id", "acme:labelled"},
                                  {"parentId", v.prefix + "secondary"},
                                  {"propertyDefinitions", {{"acme:label", {{"propertyType", "string"}}}}}});
    REQUIRE(labelled);
    REQUIRE_MESSAGE(labelled->status == 201, labelled->body);
    auto memo = PostType(c, v.repo,
                         Json{{"id", "acme:memo"},
                              {"parentId", v.prefix + "document"},
                              {"propertyDefinitions", {{"acme:reviewer", {{"propertyType", "string"}}}}}});
    REQUIRE(memo);
    REQUIRE_MESSAGE(memo->status == 201, memo->body);
    const auto refused = [&](const httplib::Result& r, const std::vector<std::string>& named) {
      REQUIRE(r);
      CHECK(r->status == 409);
      CHECK(BodyJson(r)["exception"] == "constraint");
      for (const std::string& n : named) CHECK_MESSAGE(Message(r).find("'" + n + "'") != std::string::npos, Message(r));
    };
    refused(PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}},
                   Json{{v.prefix + "name", "two.txt"}, {ids, Json::array({"acme:tagged", "acme:labelled"})}}),
            {"acme:label", "acme:tagged", "acme:labelled"});
    refused(PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}},
                   Json{{v.prefix + "name", "memo.txt"},
                        {v.prefix + "objectTypeId", "acme:memo"},
                        {ids, "acme:reviewed"},
                        {"acme:reviewer", "bob"}}),
            {"acme:reviewer", "acme:memo", "acme:reviewed"});
    GetJson(c, base + "/two.txt?succinct=true", 404);
    GetJson(c, base + "/memo.txt?succinct=true", 404);
    // Added by an update: refused, the object as it was.
    auto made = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                       Json{{v.prefix + "name", "one.txt"}, {ids, "acme:tagged"}, {"acme:label", "kept"}});
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    const std::string id = BodyJson(made)["succinctProperties"][v.prefix + "objectId"];
    refused(PostAs(c, base, Encoding::kUrlencoded, {{"cmisaction", "update"}, {"objectId", id}},
                   Json{{ids, Json::array({"acme:tagged", "acme:labelled"})}}),
            {"acme:label", "acme:tagged", "acme:labelled"});
    const Json o = GetObject(c, v.repo, id);
    CHECK(o["succinctProperties"][ids] == Json::array({"acme:tagged"}));
    CHECK(o["succinctProperties"]["acme:label"] == "kept");
  });
}

TEST_CASE("Http secondary types: deleteType is refused while an earlier version has the type") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    auto made = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                       Json{{v.prefix + "name", "was-tagged.txt"}, {ids, "acme:tagged"}, {"acme:label", "then"}});
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    const std::string series = BodyJson(made)["succinctProperties"][v.prefix + "versionSeriesId"];
    auto pwc = PostAs(c, base, Encoding::kJson, {{"cmisaction", "checkOut"}, {"objectId", series}, {"succinct", "true"}},
                      Json::object());
    REQUIRE(pwc);
    REQUIRE_MESSAGE(pwc->status == 201, pwc->body);
    // The new version drops it; version 1.0 keeps it.
    auto in = PostAs(c, base, Encoding::kJson,
                     {{"cmisaction", "checkIn"},
                      {"objectId", BodyJson(pwc)["succinctProperties"][v.prefix + "objectId"].get<std::string>()},
                      {"succinct", "true"}},
                     Json{{ids, nullptr}});
    REQUIRE(in);
    REQUIRE_MESSAGE(in->status == 201, in->body);
    CHECK(BodyJson(in)["succinctProperties"][ids].is_null());
    CHECK(GetObject(c, v.repo, series + ";1.0")["succinctProperties"]["acme:label"] == "then");
    auto refused = PostAs(c, base, Encoding::kJson, {{"cmisaction", "deleteType"}, {"typeId", "acme:tagged"}});
    REQUIRE(refused);
    CHECK(refused->status == 409);
    CHECK(BodyJson(refused)["exception"] == "constraint");
    CHECK_MESSAGE(Message(refused).find(series + ";1.0") != std::string::npos, Message(refused));
    // The version still reads with its type's definitions.
    CHECK(GetObject(c, v.repo, series + ";1.0", false)["properties"]["acme:label"]["type"] == "string");
    // The document gone, the type may go.
    REQUIRE(PostAs(c, base, Encoding::kJson, {{"cmisaction", "delete"}, {"objectId", series}}, Json::object())->status ==
            200);
    CHECK(PostAs(c, base, Encoding::kJson, {{"cmisaction", "deleteType"}, {"typeId", "acme:tagged"}})->status == 200);
  });
}

TEST_CASE("Http secondary types: createDocumentFromSource keeps the source's, or takes those the request lists") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    Upload up{"source text", "src.txt", "text/plain"};
    auto src = PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "createDocument"}, {"succinct", "true"}},
                      Json{{v.prefix + "name", "src.txt"},
                           {ids, "acme:tagged"},
                           {"acme:label", "red"},
                           {"acme:count", "3"},
                           {"acme:due", "2026-12-24T10:00:00.000Z"}},
                      &up);
    REQUIRE(src);
    REQUIRE_MESSAGE(src->status == 201, src->body);
    const Json source = BodyJson(src)["succinctProperties"];
    const auto copy = [&](const Json& props, int status = 201) {
      auto r = PostAs(c, base, Encoding::kJson,
                      {{"cmisaction", "createDocumentFromSource"},
                       {"sourceId", source[v.prefix + "objectId"].get<std::string>()},
                       {"succinct", "true"}},
                      props);
      REQUIRE(r);
      CHECK_MESSAGE(r->status == status, r->body);
      return BodyJson(r);
    };
    // Nothing said: the copy has the source's secondary types and their values.
    Json same = copy(Json{{v.prefix + "name", "copy-same.txt"}})["succinctProperties"];
    CHECK(same[ids] == Json::array({"acme:tagged"}));
    CHECK(same["acme:label"] == "red");
    CHECK(same["acme:count"] == 3);
    CHECK(same["acme:due"] == source["acme:due"]);
    // A value of one of them changed by the request.
    Json relabelled = copy(Json{{v.prefix + "name", "copy-blue.txt"}, {"acme:label", "blue"}})["succinctProperties"];
    CHECK(relabelled[ids] == Json::array({"acme:tagged"}));
    CHECK(relabelled["acme:label"] == "blue");
    CHECK(relabelled["acme:count"] == 3);
    // Others listed: those replace the source's, whose values are not copied.
    Json other = copy(Json{{v.prefix + "name", "copy-reviewed.txt"}, {ids, Json::array({"acme:reviewed"})},
                           {"acme:reviewer", "bob"}})["succinctProperties"];
    CHECK(other[ids] == Json::array({"acme:reviewed"}));
    CHECK(other["acme:reviewer"] == "bob");
    CHECK_FALSE(other.contains("acme:label"));
    CHECK_FALSE(other.contains("acme:count"));
    // None: a copy without secondary types.
    Json none = copy(Json{{v.prefix + "name", "copy-none.txt"}, {ids, nullptr}})["succinctProperties"];
    CHECK(none[ids].is_null());
    CHECK_FALSE(none.contains("acme:label"));
    // Validated as createDocument: a required property missing, a bad value.
    Json missing = copy(Json{{v.prefix + "name", "copy-bad.txt"}, {ids, "acme:reviewed"}}, 409);
    CHECK(missing["exception"] == "constraint");
    CHECK(missing["message"].get<std::string>().find("acme:reviewer") != std::string::npos);
    Json bad = copy(Json{{v.prefix + "name", "copy-bad.txt"}, {"acme:count", "many"}}, 400);
    CHECK(bad["exception"] == "invalidArgument");
    CHECK(bad["message"].get<std::string>().find("acme:count") != std::string::npos);
    GetJson(c, base + "/copy-bad.txt?succinct=true", 404);
    // The copy's content is the source's.
    auto content = c.Get((base + "/copy-reviewed.txt").c_str());
    REQUIRE(content);
    CHECK(content->body == "source text");
  });
}

TEST_CASE("Http secondary types: CONTAINS in a query FROM one searches the text of the objects that have it") {
  ServerFixture f;
  ForEachVariant(f, [&](httplib::Client& c, const FixtureVariant& v, const std::string& base, const std::string& ids) {
    for (const auto& [name, tagged, text] : {std::tuple{"fox-tagged.txt", true, "the quick brown fox"},
                                             std::tuple{"fox-plain.txt", false, "the quick brown fox"},
                                             std::tuple{"dog-tagged.txt", true, "a lazy dog"}}) {
      Upload up{text, name, "text/plain"};
      Json props{{v.prefix + "name", name}};
      if (tagged) {
        props[ids] = "acme:tagged";
        props["acme:label"] = "animal";
      }
      auto r = PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "createDocument"}}, props, &up);
      REQUIRE(r);
      REQUIRE_MESSAGE(r->status == 201, r->body);
    }
    const auto names = [&](const std::string& q) {
      const Json all = GetJson(c, base + "?cmisselector=query&succinct=true&q=" + httplib::detail::encode_query_param(q));
      std::vector<std::string> out;
      for (const Json& r : all["results"]) out.push_back(r["succinctProperties"][v.prefix + "name"]);
      std::sort(out.begin(), out.end());
      return out;
    };
    CHECK(names("SELECT cmis:name FROM acme:tagged WHERE CONTAINS('fox')") == std::vector<std::string>{"fox-tagged.txt"});
    CHECK(names("SELECT cmis:name FROM acme:tagged WHERE CONTAINS('quick OR lazy')") ==
          std::vector<std::string>{"dog-tagged.txt", "fox-tagged.txt"});
    CHECK(names("SELECT cmis:name FROM acme:tagged WHERE CONTAINS('fox') AND acme:label = 'animal'") ==
          std::vector<std::string>{"fox-tagged.txt"});
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE CONTAINS('fox')") ==
          std::vector<std::string>{"fox-plain.txt", "fox-tagged.txt"});
    // SCORE() as in any full-text query.
    const Json scored = GetJson(
        c, base + "?cmisselector=query&succinct=true&q=" +
               httplib::detail::encode_query_param("SELECT cmis:name, SCORE() AS s FROM acme:tagged WHERE CONTAINS('fox')"));
    REQUIRE(scored["results"].size() == 1);
    CHECK(scored["results"][0]["succinctProperties"]["s"].is_number());
  });
}

}  // namespace
}  // namespace folio::testing
