// Object operations over HTTP (docs/API.md §7.5, §7.7–§7.9) in both variants and every body
// encoding: create*, getObject/getProperties (filter), getChildren (paging, orderBy),
// getParent/getObjectParents, content (Range), setContent, deleteContent,
// updateProperties, delete, deleteTree, move, types, checkOut/checkIn wiring.
#include <algorithm>

#include "folio/fsck.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

struct VariantCase {
  std::string repo;
  std::string prefix;  // "" in variant A, "cmis:" in variant B
  bool default_succinct;
};

const VariantCase kVariants[] = {{"alpha", "", true}, {"beta", "cmis:", false}};
const Encoding kEncodings[] = {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded};

// The object id of the object at URL path `path`, in `v`'s spelling.
std::string IdOf(httplib::Client& c, const VariantCase& v, const std::string& path) {
  return Prop(BodyJson(c.Get((path + "?cmisselector=object").c_str())), v.prefix + "objectId").get<std::string>();
}

TEST_CASE("Http objects: createFolder/createDocument/createItem in both variants and encodings") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    for (Encoding enc : kEncodings) {
      CAPTURE(v.repo);
      CAPTURE(EncodingName(enc));
      const std::string base = "/demo/" + v.repo;
      const std::string folder = std::string("f-") + EncodingName(enc);
      // Input accepts both spellings in both variants.
      auto made = PostAs(c, base, enc, {{"operation", "createFolder"}},
                         Json{{"name", folder}, {"cmis:objectTypeId", "cmis:folder"}});
      REQUIRE(made);
      CHECK(made->status == 201);
      Json j = BodyJson(made);
      CHECK(j.contains(v.default_succinct ? "succinctProperties" : "properties"));
      CHECK(Prop(j, v.prefix + "name") == folder);
      CHECK(Prop(j, v.prefix + "baseTypeId") == v.prefix + "folder");
      CHECK(!made->get_header_value("Location").empty());

      const std::string parent = base + "/" + folder;
      Json props = {{"cmis:name", "a.txt"}, {"objectTypeId", "document"}, {"description", "first"}};
      Upload up{"alpha text", "a.txt", "text/plain"};
      auto doc = PostAs(c, parent, enc, {{"operation", "createDocument"}, {"succinct", "true"}}, props,
                        enc == Encoding::kMultipart ? &up : nullptr);
      REQUIRE(doc);
      CHECK(doc->status == 201);
      Json d = BodyJson(doc);
      CHECK(d["succinctProperties"][v.prefix + "versionLabel"] == "1.0");
      CHECK(d["succinctProperties"][v.prefix + "description"] == "first");
      CHECK(d["succinctProperties"][v.prefix + "objectTypeId"] == v.prefix + "document");
      if (enc == Encoding::kMultipart) {
        CHECK(d["succinctProperties"][v.prefix + "contentStreamLength"] == 10);
        CHECK(c.Get((parent + "/a.txt").c_str())->body == "alpha text");
      }
      // createObject (the service's generic name) takes the type from the properties.
      auto minor = PostAs(c, parent, enc, {{"operation", "createObject"}, {"versioningState", "minor"}},
                          Json{{v.prefix + "name", "b.txt"}, {v.prefix + "objectTypeId", v.prefix + "document"}});
      CHECK(minor->status == 201);
      CHECK(Prop(BodyJson(minor), v.prefix + "versionLabel") == "0.1");
      auto item = PostAs(c, parent, enc, {{"cmisaction", "createItem"}}, Json{{"cmis:name", "thing"}});
      CHECK(item->status == 201);
      CHECK(Prop(BodyJson(item), v.prefix + "baseTypeId") == v.prefix + "item");
      // Parent by objectId / folderId at the repository URL.
      const std::string folder_id = Prop(j, v.prefix + "objectId");
      auto by_folder_id = PostAs(c, base, enc, {{"operation", "createFolder"}, {"folderId", folder_id}},
                                 Json{{"cmis:name", "sub"}});
      CHECK(by_folder_id->status == 201);
      CHECK(Prop(BodyJson(by_folder_id), v.prefix + "parentId") == folder_id);
    }
  }
}

TEST_CASE("Http objects: getObject, getProperties, filter, succinct, detailed form") {
  ServerFixture f;
  auto c = f.Client();
  auto detailed = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=object"));
  REQUIRE(detailed.contains("properties"));
  const Json name = detailed["properties"]["cmis:name"];
  CHECK(name["id"] == "cmis:name");
  CHECK(name["localName"] == "name");
  CHECK(name["queryName"] == "cmis:name");
  CHECK(name["type"] == "string");
  CHECK(name["cardinality"] == "single");
  CHECK(name["value"] == "readme.txt");
  CHECK(detailed["properties"]["cmis:creationDate"]["type"] == "datetime");
  CHECK(detailed["properties"]["cmis:creationDate"]["value"].is_number_integer());
  auto a = BodyJson(c.Get("/demo/alpha/docs/readme.txt?cmisselector=object&succinct=false"));
  CHECK(a["properties"]["name"]["id"] == "name");
  auto filtered = BodyJson(c.Get("/demo/alpha/docs/readme.txt?cmisselector=object&filter=name,cmis:versionLabel"));
  CHECK(filtered["succinctProperties"].size() == 2);
  CHECK(filtered["succinctProperties"]["versionLabel"] == "1.0");
  auto props = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=properties&succinct=true"));
  CHECK(props["cmis:name"] == "readme.txt");
  auto ext = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=properties&succinct=true&dateTimeFormat=extended"));
  CHECK(ext["cmis:creationDate"].is_string());
  auto actions = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=object&includeAllowableActions=true"));
  CHECK(actions["allowableActions"]["canCheckOut"] == true);
  auto bad = c.Get("/demo/beta/docs/readme.txt?cmisselector=object&filter=a(b");
  CHECK(bad->status == 400);
  CHECK(BodyJson(bad)["exception"] == "filterNotValid");
}

TEST_CASE("Http objects: getChildren paging and orderBy") {
  ServerFixture f;
  auto c = f.Client();
  for (const char* n : {"c.txt", "a.txt", "b.txt"}) {
    REQUIRE(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}}, Json{{"cmis:name", n}})
                ->status == 201);
  }
  auto page = BodyJson(c.Get("/demo/beta/docs?cmisselector=children&maxItems=2&skipCount=1&succinct=true"));
  CHECK(page["numItems"] == 4);
  CHECK(page["hasMoreItems"] == true);
  REQUIRE(page["objects"].size() == 2);
  CHECK(page["objects"][0]["pathSegment"] == "b.txt");
  auto desc = BodyJson(c.Get("/demo/beta/docs?cmisselector=children&orderBy=cmis:name%20DESC&succinct=true"));
  CHECK(desc["objects"][0]["pathSegment"] == "readme.txt");
  auto by_date = BodyJson(c.Get("/demo/alpha/docs?cmisselector=children&orderBy=creationDate%20ASC"));
  CHECK(by_date["objects"].size() == 1);
  auto by_mod = c.Get("/demo/beta/docs?cmisselector=children&orderBy=cmis:lastModificationDate");
  CHECK(by_mod->status == 200);
  auto bad = c.Get("/demo/beta/docs?cmisselector=children&orderBy=cmis:objectId");
  CHECK(bad->status == 400);
  CHECK(BodyJson(bad)["message"].get<std::string>().find("orderBy") != std::string::npos);
  auto bad_max = c.Get("/demo/beta/docs?cmisselector=children&maxItems=abc");
  CHECK(bad_max->status == 400);
  CHECK(BodyJson(bad_max)["message"].get<std::string>().find("maxItems") != std::string::npos);
  CHECK(c.Get("/demo/beta/docs?cmisselector=children&maxItems=10001")->status == 400);
}

TEST_CASE("Http objects: getParent and getObjectParents") {
  ServerFixture f;
  auto c = f.Client();
  auto parent = BodyJson(c.Get("/demo/beta/docs?cmisselector=parent&succinct=true"));
  CHECK(parent["succinctProperties"]["cmis:path"] == "/");
  auto parents = BodyJson(c.Get("/demo/alpha/docs/readme.txt?cmisselector=parents"));
  REQUIRE(parents.size() == 1);
  CHECK(parents[0]["relativePathSegment"] == "readme.txt");
  CHECK(parents[0]["object"]["succinctProperties"]["path"] == "/docs");
  auto root = c.Get("/demo/beta?cmisselector=parent&succinct=true&objectId=" +
                    BodyJson(c.Get("/demo/beta"))["beta"]["rootFolderId"].get<std::string>());
  CHECK(root->status == 400);
}

TEST_CASE("Http objects: getObjectRelationships by direction, type and page") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    auto id_of = [&](const std::string& path) { return IdOf(c, v, base + path); };
    const std::string readme = id_of("/docs/readme.txt"), docs = id_of("/docs");
    auto rel = PostAs(c, base, Encoding::kUrlencoded, {{"cmisaction", "createRelationship"}},
                      Json{{"cmis:objectTypeId", "cmis:relationship"}, {"cmis:sourceId", readme},
                           {"cmis:targetId", docs}, {"cmis:name", "filed-in"}});
    REQUIRE(rel);
    REQUIRE(rel->status == 201);
    const std::string rel_id = Prop(BodyJson(rel), v.prefix + "objectId");
    auto list = [&](const std::string& path, const std::string& query) {
      return BodyJson(c.Get((base + path + "?cmisselector=relationships&succinct=true" + query).c_str()));
    };
    Json from_readme = list("/docs/readme.txt", "");
    REQUIRE(from_readme["objects"].size() == 1);
    CHECK(from_readme["objects"][0]["succinctProperties"][v.prefix + "objectId"] == rel_id);
    CHECK(from_readme["objects"][0]["succinctProperties"][v.prefix + "targetId"] == docs);
    CHECK(from_readme["numItems"] == 1);
    CHECK(from_readme["hasMoreItems"] == false);
    CHECK(list("/docs", "")["objects"].empty());  // source by default
    CHECK(list("/docs", "&relationshipDirection=target")["objects"].size() == 1);
    CHECK(list("/docs", "&relationshipDirection=EITHER")["objects"].size() == 1);
    CHECK(list("/docs/readme.txt", "&typeId=" + v.prefix + "relationship")["numItems"] == 1);
    Json paged = list("/docs/readme.txt", "&maxItems=0");
    CHECK(paged["objects"].empty());
    CHECK(paged["hasMoreItems"] == true);
    auto bad = c.Get((base + "/docs?cmisselector=relationships&relationshipDirection=up").c_str());
    CHECK(bad->status == 400);
    CHECK(BodyJson(bad)["message"].get<std::string>().find("relationshipDirection") != std::string::npos);
    auto unknown_type = c.Get((base + "/docs?cmisselector=relationships&typeId=acme:nope").c_str());
    CHECK(unknown_type->status == 404);
    auto missing = c.Get((base + "?cmisselector=relationships&objectId=dnosuch").c_str());
    CHECK(missing->status == 404);
  }
}

TEST_CASE("Http objects: renditions and applied policies are empty lists; of a missing object, objectNotFound") {
  ServerFixture f;
  auto c = f.Client();
  for (const char* selector : {"renditions", "getRenditions", "policies", "getAppliedPolicies"}) {
    CAPTURE(selector);
    auto none = c.Get((std::string("/demo/beta/docs/readme.txt?cmisselector=") + selector).c_str());
    REQUIRE(none);
    CHECK(none->status == 200);
    CHECK(BodyJson(none) == Json::array());
    auto missing = c.Get((std::string("/demo/alpha/no-such.txt?cmisselector=") + selector).c_str());
    REQUIRE(missing);
    CHECK(missing->status == 404);
    CHECK(BodyJson(missing)["exception"] == "objectNotFound");
  }
}

TEST_CASE("Http objects: content stream, Range, Content-Disposition with non-ASCII names") {
  ServerFixture f;
  auto c = f.Client();
  auto part = c.Get("/demo/beta/docs/readme.txt", {{"Range", "bytes=1-3"}});
  CHECK(part->status == 206);
  CHECK(part->body == "ell");
  CHECK(part->get_header_value("Content-Range") == "bytes 1-3/5");
  auto tail = c.Get("/demo/beta/docs/readme.txt?cmisselector=content", {{"Range", "bytes=-2"}});
  CHECK(tail->body == "lo");
  auto beyond = c.Get("/demo/beta/docs/readme.txt", {{"Range", "bytes=10-"}});
  CHECK(beyond->status == 416);
  CHECK(BodyJson(beyond)["exception"] == "invalidArgument");
  Upload up{"grüße", "grüße.txt", "text/plain; charset=utf-8"};
  auto made = PostAs(c, "/demo/beta/docs", Encoding::kMultipart, {{"operation", "createDocument"}},
                     Json{{"cmis:name", "grüße.txt"}}, &up);
  REQUIRE(made->status == 201);
  auto get = c.Get("/demo/beta/docs/gr%C3%BC%C3%9Fe.txt?download=attachment");
  CHECK(get->body == "grüße");
  // cpp-httplib's client percent-decodes header values, so the RFC 5987 value arrives
  // decoded here; on the wire it is filename*=UTF-8''gr%C3%BC%C3%9Fe.txt.
  CHECK(get->get_header_value("Content-Disposition") == "attachment; filename=\"gr__e.txt\"; filename*=UTF-8''grüße.txt");
  auto folder_content = c.Get("/demo/beta/docs?cmisselector=content");
  CHECK(folder_content->status == 409);
}

TEST_CASE("Http objects: setContentStream (overwriteFlag) and deleteContentStream") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string doc = "/demo/" + v.repo + "/docs/readme.txt";
    Upload up{"new bytes", "n.bin", "application/octet-stream"};
    auto refused = PostAs(c, doc, Encoding::kMultipart, {{"operation", "setContentStream"}, {"overwriteFlag", "false"}},
                          Json::object(), &up);
    CHECK(refused->status == 409);
    CHECK(BodyJson(refused)["exception"] == "contentAlreadyExists");
    auto set = PostAs(c, doc, Encoding::kMultipart, {{"cmisaction", "setContent"}}, Json::object(), &up);
    CHECK(set->status == 201);
    CHECK(Prop(BodyJson(set), v.prefix + "versionLabel") == "1.0");  // no new version
    CHECK(c.Get(doc.c_str())->body == "new bytes");
    auto missing = PostAs(c, doc, Encoding::kJson, {{"operation", "setContentStream"}});
    CHECK(missing->status == 400);
    CHECK(BodyJson(missing)["message"].get<std::string>().find("content") != std::string::npos);
    auto del = PostAs(c, doc, Encoding::kUrlencoded, {{"operation", "deleteContentStream"}});
    CHECK(del->status == 200);
    CHECK(Prop(BodyJson(del), v.prefix + "contentStreamLength").is_null());
    auto again = PostAs(c, doc, Encoding::kMultipart, {{"operation", "setContent"}, {"overwriteFlag", "false"}},
                        Json::object(), &up);
    CHECK(again->status == 201);
  }
}

TEST_CASE("Http objects: appendContent adds the part to the end of the content, without a new version") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo, doc = base + "/docs/readme.txt";
    Upload part{" world", "part.bin", "application/octet-stream"};
    auto appended = PostAs(c, doc, Encoding::kMultipart, {{"cmisaction", "appendContent"}, {"isLastChunk", "true"}},
                           Json::object(), &part);
    REQUIRE(appended);
    CHECK(appended->status == 201);
    Json o = BodyJson(appended);
    CHECK(Prop(o, v.prefix + "versionLabel") == "1.0");
    CHECK(Prop(o, v.prefix + "contentStreamLength") == 11);
    CHECK(Prop(o, v.prefix + "contentStreamMimeType") == "text/plain");  // kept, not the part's
    auto content = c.Get(doc.c_str());
    CHECK(content->body == "hello world");
    CHECK(content->get_header_value("Content-Type").find("text/plain") == 0);
    // A document without content gets the part as its content.
    auto empty = PostAs(c, base + "/docs", Encoding::kJson, {{"operation", "createDocument"}},
                        Json{{"name", "empty.txt"}});
    REQUIRE(empty->status == 201);
    Upload first{"abc", "first.txt", "text/plain"};
    auto into_empty = PostAs(c, base + "/docs/empty.txt", Encoding::kMultipart, {{"cmisaction", "appendContentStream"}},
                             Json::object(), &first);
    CHECK(into_empty->status == 201);
    CHECK(c.Get((base + "/docs/empty.txt").c_str())->body == "abc");
    auto folder = PostAs(c, base + "/docs", Encoding::kMultipart, {{"cmisaction", "appendContent"}}, Json::object(),
                         &first);
    CHECK(folder->status == 409);
    CHECK(BodyJson(folder)["exception"] == "constraint");
    auto no_part = PostAs(c, doc, Encoding::kUrlencoded, {{"cmisaction", "appendContent"}});
    CHECK(no_part->status == 400);
    auto stale = PostAs(c, doc, Encoding::kMultipart, {{"cmisaction", "appendContent"}, {"changeToken", "0"}},
                        Json::object(), &part);
    CHECK(stale->status == 409);
    CHECK(BodyJson(stale)["exception"] == "updateConflict");
    CHECK(c.Get(doc.c_str())->body == "hello world");
  }
  // No upload is left behind, refused requests' included.
  auto report = RunFsck(f.dir(), FsckOptions{});
  REQUIRE(report.ok());
  std::string findings;
  for (const Finding& finding : report->findings) findings += finding.id + " " + finding.path + "\n";
  CAPTURE(findings);
  CHECK(report->findings.empty());
}

TEST_CASE("Http objects: createDocumentFromSource copies content and settable properties") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    for (Encoding enc : kEncodings) {
      CAPTURE(v.repo);
      CAPTURE(std::string(EncodingName(enc)));
      const std::string base = "/demo/" + v.repo;
      auto source = BodyJson(PostAs(c, base + "/docs/readme.txt", Encoding::kJson, {{"operation", "update"}},
                                    Json{{"description", "the source"}}));
      const std::string source_id = Prop(source, v.prefix + "objectId");
      const std::string name = std::string("copy-") + EncodingName(enc) + ".txt";
      auto copy = PostAs(c, base, enc,
                         {{"cmisaction", "createDocumentFromSource"}, {"sourceId", source_id},
                          {"versioningState", "minor"}, {"succinct", "true"}},
                         Json{{"name", name}});
      REQUIRE(copy);
      CHECK(copy->status == 201);
      Json p = BodyJson(copy)["succinctProperties"];
      CHECK(p[v.prefix + "name"] == name);
      CHECK(p[v.prefix + "description"] == "the source");
      CHECK(p[v.prefix + "versionLabel"] == "0.1");
      CHECK(p[v.prefix + "objectId"] != source_id);
      CHECK(p[v.prefix + "contentStreamMimeType"] == "text/plain");
      CHECK(c.Get((base + "/" + name).c_str())->body == "hello");
      auto taken = PostAs(c, base, enc, {{"cmisaction", "createDocumentFromSource"}, {"sourceId", source_id}},
                          Json{{"name", name}});
      CHECK(taken->status == 409);
      CHECK(BodyJson(taken)["exception"] == "nameConstraintViolation");
      auto no_source = PostAs(c, base, enc, {{"cmisaction", "createDocumentFromSource"}}, Json{{"name", "x"}});
      CHECK(no_source->status == 400);
      CHECK(BodyJson(no_source)["message"].get<std::string>().find("sourceId") != std::string::npos);
      const std::string folder_id = IdOf(c, v, base + "/docs");
      auto from_folder = PostAs(c, base, enc, {{"cmisaction", "createDocumentFromSource"}, {"sourceId", folder_id}},
                                Json{{"name", "y"}});
      CHECK(from_folder->status == 400);
    }
  }
  // The copies' content files are in place and no upload is left behind (the refused
  // name-taken copy's included).
  auto report = RunFsck(f.dir(), FsckOptions{});
  REQUIRE(report.ok());
  CHECK(report->findings.empty());
}

TEST_CASE("Http objects: updateProperties, read-only refused naming the property") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    for (Encoding enc : kEncodings) {
      CAPTURE(v.repo);
      CAPTURE(EncodingName(enc));
      const std::string doc = "/demo/" + v.repo + "/docs/readme.txt";
      auto up = PostAs(c, doc, enc, {{"operation", "updateProperties"}, {"succinct", "true"}},
                       Json{{"description", std::string("d-") + EncodingName(enc)}});
      REQUIRE(up);
      CHECK(up->status == 200);
      CHECK(BodyJson(up)["succinctProperties"][v.prefix + "description"] == std::string("d-") + EncodingName(enc));
      auto ro = PostAs(c, doc, enc, {{"operation", "update"}}, Json{{"versionLabel", "9.9"}});
      CHECK(ro->status == 409);
      CHECK(BodyJson(ro)["exception"] == "constraint");
      CHECK(BodyJson(ro)["message"].get<std::string>().find("versionLabel") != std::string::npos);
      auto unknown = PostAs(c, doc, enc, {{"operation", "update"}}, Json{{"nosuch", "x"}});
      CHECK(unknown->status == 400);
      CHECK(BodyJson(unknown)["message"].get<std::string>().find("nosuch") != std::string::npos);
    }
  }
  // Rename through cmis:name moves the file on disk.
  auto renamed = PostAs(c, "/demo/beta/docs/readme.txt", Encoding::kJson, {{"operation", "update"}},
                        Json{{"cmis:name", "renamed.txt"}});
  CHECK(renamed->status == 200);
  CHECK(c.Get("/demo/beta/docs/renamed.txt")->body == "hello");
  CHECK(c.Get("/demo/beta/docs/readme.txt")->status == 404);
}

TEST_CASE("Http objects: bulkUpdate sets properties on several objects, leaving out those it cannot update") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    for (Encoding enc : kEncodings) {
      CAPTURE(v.repo);
      CAPTURE(std::string(EncodingName(enc)));
      const std::string base = "/demo/" + v.repo;
      auto id_of = [&](const std::string& path) { return IdOf(c, v, base + path); };
      const std::string readme = id_of("/docs/readme.txt"), docs = id_of("/docs");
      const std::string value = std::string("bulk-") + EncodingName(enc);
      auto both = PostAs(c, base, enc,
                         {{"cmisaction", "bulkUpdate"}, {"objectId[0]", readme}, {"objectId[1]", docs},
                          {"changeToken[1]", "stale"}},
                         Json{{"description", value}});
      REQUIRE(both);
      CHECK(both->status == 200);
      CAPTURE(both->body);
      Json list = BodyJson(both);
      REQUIRE(list.size() == 1);  // docs: stale change token, left out
      CHECK(list[0]["id"] == readme);
      CHECK(list[0]["newId"] == readme);
      CHECK(list[0]["changeToken"].is_string());
      CHECK(Prop(BodyJson(c.Get((base + "/docs/readme.txt?cmisselector=object").c_str())), v.prefix + "description") ==
            value);
      // CmisJS names the objects twice, as objectId[N] and objectIds: each is updated once.
      auto listed = PostAs(c, base, enc,
                           {{"cmisaction", "bulkUpdateProperties"}, {"objectId[0]", readme},
                            {"objectIds", readme + ", " + docs}},
                           Json{{"description", value + "-2"}});
      CHECK(BodyJson(listed).size() == 2);
      CHECK(Prop(BodyJson(c.Get((base + "/docs?cmisselector=object").c_str())), v.prefix + "description") ==
            value + "-2");
      // When no object can be updated, the first reason is the answer.
      auto none = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectId[0]", "f-no-such"}},
                         Json{{"description", "x"}});
      CHECK(none->status == 404);
      auto read_only = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectId[0]", readme}},
                              Json{{"versionLabel", "9.9"}});
      CHECK(read_only->status == 409);
      CHECK(BodyJson(read_only)["exception"] == "constraint");
      auto no_ids = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}}, Json{{"description", "x"}});
      CHECK(no_ids->status == 400);
      auto gap = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectId[1]", readme}},
                        Json{{"description", "x"}});
      CHECK(gap->status == 400);
      CHECK(BodyJson(gap)["message"].get<std::string>().find("objectId[0]") != std::string::npos);
      // An unknown secondary type (secondary_types_test.cc: those that exist).
      auto secondary = PostAs(c, base, enc,
                              {{"cmisaction", "bulkUpdate"}, {"objectId[0]", readme}, {"addSecondaryTypeId[0]", "s"}},
                              Json{{"description", "x"}});
      CHECK(secondary->status == 400);
      CHECK(BodyJson(secondary)["message"].get<std::string>().find("'s'") != std::string::npos);
    }
  }
}

TEST_CASE("Http objects: bulkUpdate takes objectIds alone or beside objectId[N], as a list or a JSON array") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    for (Encoding enc : kEncodings) {
      CAPTURE(v.repo);
      CAPTURE(std::string(EncodingName(enc)));
      const std::string base = "/demo/" + v.repo;
      auto id_of = [&](const std::string& path) { return IdOf(c, v, base + path); };
      const std::string readme = id_of("/docs/readme.txt"), docs = id_of("/docs");
      const auto description = [&](const std::string& path) {
        return Prop(BodyJson(c.Get((base + path + "?cmisselector=object").c_str())), v.prefix + "description");
      };
      const auto updated_ids = [](const Json& answer) {
        std::vector<std::string> out;
        for (const Json& o : answer) out.push_back(o["id"]);
        std::sort(out.begin(), out.end());
        return out;
      };
      std::vector<std::string> both_ids = {readme, docs};
      std::sort(both_ids.begin(), both_ids.end());
      const std::string tag = EncodingName(enc);
      // Alone: a comma-separated list, and a JSON array (as text in a form, or a JSON
      // value in a JSON body).
      for (const std::string& list : {readme + "," + docs, " " + readme + " , " + docs + " ",
                                      Json::array({readme, docs}).dump()}) {
        CAPTURE(list);
        const std::string value = "ids-" + tag + "-" + std::to_string(list.size());
        auto r = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectIds", list}},
                        Json{{"description", value}});
        REQUIRE(r);
        CHECK_MESSAGE(r->status == 200, r->body);
        CHECK(updated_ids(BodyJson(r)) == both_ids);
        CHECK(description("/docs/readme.txt") == value);
        CHECK(description("/docs") == value);
      }
      if (enc == Encoding::kJson) {
        auto r = c.Post(base.c_str(),
                        Json{{"cmisaction", "bulkUpdate"}, {"objectIds", Json::array({readme, docs})},
                             {"properties", {{"cmis:description", "array"}}}}
                            .dump(),
                        "application/json");
        REQUIRE(r);
        CHECK_MESSAGE(r->status == 200, r->body);
        CHECK(updated_ids(BodyJson(r)) == both_ids);
      }
      // Beside objectId[N]: the union, each object once.
      auto u = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectId[0]", readme}, {"objectIds", docs}},
                      Json{{"description", "union-" + tag}});
      REQUIRE(u);
      CHECK(updated_ids(BodyJson(u)) == both_ids);
      CHECK(description("/docs") == "union-" + tag);
      // Malformed lists are refused before anything changes, naming the parameter.
      for (const std::string& bad : {readme + ",," + docs, readme + ",", std::string("[\"") + readme + "\", 5]",
                                     std::string("[\"") + readme}) {
        CAPTURE(bad);
        auto r = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectIds", bad}},
                        Json{{"description", "never"}});
        REQUIRE(r);
        CHECK(r->status == 400);
        CHECK(BodyJson(r)["exception"] == "invalidArgument");
        CHECK(BodyJson(r)["message"].get<std::string>().find("objectIds") != std::string::npos);
        CHECK(description("/docs/readme.txt") != "never");
      }
      // An id that names nothing is left out of the answer (the binding's form lists what
      // was updated); when none can be updated, the answer is the error naming it.
      auto partial = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectIds", readme + ",f-no-such"}},
                            Json{{"description", "partial-" + tag}});
      REQUIRE(partial);
      CHECK(partial->status == 200);
      CHECK(updated_ids(BodyJson(partial)) == std::vector<std::string>{readme});
      auto none = PostAs(c, base, enc, {{"cmisaction", "bulkUpdate"}, {"objectIds", "f-no-such"}},
                         Json{{"description", "x"}});
      REQUIRE(none);
      CHECK(none->status == 404);
      CHECK(BodyJson(none)["message"].get<std::string>().find("f-no-such") != std::string::npos);
    }
  }
}

TEST_CASE("Http objects: custom types, typeChildren, typeDefinition, datetimes in any format") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    auto kids = BodyJson(c.Get((base + "?cmisselector=typeChildren").c_str()));
    CHECK(kids["numItems"] == 6);
    CHECK(kids["types"][0]["id"] == v.prefix + "document");
    CHECK(!kids["types"][0].contains("propertyDefinitions"));
    auto def = BodyJson(c.Get((base + "?cmisselector=typeDefinition&typeId=%22cmis:document%22").c_str()));
    CHECK(def["id"] == v.prefix + "document");
    CHECK(def["propertyDefinitions"][v.prefix + "name"]["propertyType"] == "string");
    Json type = {{"id", "acme:contract"},
                 {"parentId", v.prefix + "document"},
                 {"displayName", "Contract"},
                 {"propertyDefinitions",
                  {{"acme:signed", {{"propertyType", "datetime"}, {"cardinality", "single"}}},
                   {"acme:tags", {{"propertyType", "string"}, {"cardinality", "multi"}}}}}};
    auto made = PostAs(c, base, Encoding::kUrlencoded, {{"cmisaction", "createType"}, {"type", type.dump()}});
    REQUIRE(made);
    CHECK(made->status == 201);
    auto subs = BodyJson(c.Get((base + "?cmisselector=typeChildren&typeId=" + v.prefix + "document").c_str()));
    CHECK(subs["types"][0]["id"] == "acme:contract");
    for (Encoding enc : kEncodings) {
      CAPTURE(EncodingName(enc));
      const std::string name = std::string("c-") + EncodingName(enc);
      auto doc = PostAs(c, base + "/docs", enc, {{"operation", "createDocument"}, {"succinct", "true"}},
                        Json{{"cmis:name", name},
                             {"cmis:objectTypeId", "acme:contract"},
                             {"acme:signed", "Fri Mar 01 2024 10:00:00 GMT+0000 (Coordinated Universal Time)"},
                             {"acme:tags", Json::array({"red", "blue"})}});
      REQUIRE(doc);
      CHECK(doc->status == 201);
      Json p = BodyJson(doc)["succinctProperties"];
      CHECK(p["acme:signed"] == 1709287200000);
      CHECK(p["acme:tags"] == Json::array({"red", "blue"}));
      CHECK(p[v.prefix + "objectTypeId"] == "acme:contract");
    }
    auto desc = BodyJson(c.Get((base + "?cmisselector=typeDescendants&depth=2").c_str()));
    CHECK(desc.is_array());
    // Ids that requests would read as built-in ones ("folder", "name") are refused.
    for (const Json& bad : {Json{{"id", "folder"}, {"parentId", "cmis:folder"}},
                            Json{{"id", "acme:shadow"},
                                 {"parentId", "cmis:document"},
                                 {"propertyDefinitions", {{"name", {{"propertyType", "string"}}}}}}}) {
      auto refused = PostAs(c, base, Encoding::kJson, {{"cmisaction", "createType"}, {"type", bad.dump()}});
      REQUIRE(refused);
      CHECK(refused->status == 400);
      CHECK(BodyJson(refused)["message"].get<std::string>().find("without its prefix") != std::string::npos);
    }
  }
}

TEST_CASE("Http objects: deleteObject, deleteTree and move") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    auto target = BodyJson(PostAs(c, base, Encoding::kJson, {{"operation", "createFolder"}}, Json{{"name", "target"}}));
    const std::string target_id = Prop(target, v.prefix + "objectId");
    auto docs = BodyJson(c.Get((base + "/docs?cmisselector=object").c_str()));
    const std::string docs_id = Prop(docs, v.prefix + "objectId");
    auto moved = PostAs(c, base + "/docs/readme.txt", Encoding::kUrlencoded,
                        {{"cmisaction", "move"}, {"targetFolderId", target_id}, {"sourceFolderId", docs_id}});
    REQUIRE(moved);
    CHECK(moved->status == 201);
    auto parents = BodyJson(c.Get((base + "/target/readme.txt?cmisselector=parents").c_str()));
    CHECK(Prop(parents[0]["object"], v.prefix + "objectId") == target_id);
    CHECK(c.Get((base + "/target/readme.txt").c_str())->body == "hello");
    auto no_target = PostAs(c, base + "/target/readme.txt", Encoding::kJson, {{"operation", "move"}});
    CHECK(no_target->status == 400);
    CHECK(BodyJson(no_target)["message"].get<std::string>().find("targetFolderId") != std::string::npos);
    auto not_empty = PostAs(c, base + "/target", Encoding::kJson, {{"operation", "delete"}});
    CHECK(not_empty->status == 409);
    auto del_doc = PostAs(c, base + "/target/readme.txt", Encoding::kMultipart, {{"operation", "deleteObject"}});
    CHECK(del_doc->status == 200);
    CHECK(c.Get((base + "/target/readme.txt").c_str())->status == 404);
    PostAs(c, base + "/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"name", "deep"}});
    PostAs(c, base + "/docs/deep", Encoding::kJson, {{"operation", "createDocument"}}, Json{{"name", "x"}});
    auto tree = PostAs(c, base + "/docs", Encoding::kUrlencoded, {{"cmisaction", "deleteTree"}});
    CHECK(tree->status == 200);
    CHECK(c.Get((base + "/docs").c_str())->status == 404);
  }
}

TEST_CASE("Http objects: checkOut, checkIn, cancelCheckOut, checkedout are wired") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    auto pwc = PostAs(c, base + "/docs/readme.txt", Encoding::kJson, {{"operation", "checkOut"}});
    REQUIRE(pwc);
    CHECK(pwc->status == 201);
    Json p = BodyJson(pwc);
    CHECK(Prop(p, v.prefix + "isPrivateWorkingCopy") == true);
    const std::string pwc_id = Prop(p, v.prefix + "objectId");
    auto out = BodyJson(c.Get((base + "?cmisselector=checkedout").c_str()));
    CHECK(out["numItems"] == 1);
    auto twice = PostAs(c, base + "/docs/readme.txt", Encoding::kJson, {{"operation", "checkOut"}});
    CHECK(twice->status == 409);
    CHECK(BodyJson(twice)["exception"] == "versioning");
    Upload up{"v2", "readme.txt", "text/plain"};
    auto in = PostAs(c, base, Encoding::kMultipart,
                     {{"operation", "checkIn"}, {"objectId", pwc_id}, {"major", "false"}, {"checkinComment", "c"}},
                     Json::object(), &up);
    REQUIRE(in);
    CHECK(in->status == 201);
    CHECK(Prop(BodyJson(in), v.prefix + "versionLabel") == "1.1");
    CHECK(c.Get((base + "/docs/readme.txt").c_str())->body == "v2");
    auto again = PostAs(c, base, Encoding::kUrlencoded, {{"operation", "checkIn"}, {"objectId", pwc_id}});
    CHECK(again->status == 404);
    auto pwc2 = BodyJson(PostAs(c, base + "/docs/readme.txt", Encoding::kUrlencoded, {{"cmisaction", "checkOut"}}));
    auto cancel = PostAs(c, base, Encoding::kUrlencoded,
                         {{"cmisaction", "cancelCheckOut"}, {"objectId", Prop(pwc2, v.prefix + "objectId")}});
    CHECK(cancel->status == 200);
    auto versions = BodyJson(c.Get((base + "/docs/readme.txt/versions").c_str()));
    CHECK(versions.size() == 2);
  }
}

}  // namespace
}  // namespace folio::testing
