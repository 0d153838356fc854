// updateType and deleteType over HTTP (docs/API.md §7.4) in both variants: display
// attributes and new optional properties change, anything that could invalidate stored
// objects is `constraint`; deleteType answers {} and is refused exactly while objects of
// the type exist (markers, stale markers of objects removed by hand, types made before
// markers existed).
#include <filesystem>
#include <fstream>

#include "http/server_fixture.h"

namespace folio::testing {
namespace {


httplib::Result PostType(httplib::Client& c, const std::string& repo, const std::string& op, const Json& type,
                         Encoding enc = Encoding::kJson) {
  const std::string path = "/demo/" + repo;
  if (enc == Encoding::kJson) {
    return c.Post(path.c_str(), Json{{"operation", op}, {"type", type}}.dump(), "application/json");
  }
  return PostAs(c, path, enc, {{"cmisaction", op}, {"type", type.dump()}});
}

std::string Message(const httplib::Result& r) { return BodyJson(r).value("message", ""); }

void CreateContractType(httplib::Client& c, const std::string& repo) {
  auto made = PostType(c, repo, "createType",
                       Json{{"id", "acme:contract"},
                            {"parentId", "cmis:document"},
                            {"displayName", "Contract"},
                            {"propertyDefinitions", {{"acme:amount", {{"propertyType", "decimal"}}}}}});
  REQUIRE(made);
  REQUIRE(made->status == 201);
}

// CmisJS's own test suite (test/cmis.spec.ts of the CmisJS repository) creates this type,
// then sends it back whole to updateType.
const Json kCmisJsSpecType = Json::parse(R"({
  "id": "test:testDoc", "baseId": "cmis:document", "parentId": "cmis:document",
  "displayName": "Test Document", "description": "Test Document Type", "localNamespace": "local",
  "localName": "test:testDoc", "queryName": "test:testDoc", "fileable": true,
  "includedInSupertypeQuery": true, "creatable": true, "fulltextIndexed": false, "queryable": false,
  "controllableACL": true, "controllablePolicy": false,
  "propertyDefinitions": {"test:aString": {
    "id": "test:aString", "localNamespace": "local", "localName": "test:aString", "queryName": "test:aString",
    "displayName": "A String", "description": "This is a String.", "propertyType": "string",
    "updatability": "readwrite", "inherited": false, "openChoice": false, "required": false,
    "cardinality": "single", "queryable": true, "orderable": true}}})");

TEST_CASE("Http types: createType stores the attributes given and updateType takes them back") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    auto made = PostType(c, v.repo, "createType", kCmisJsSpecType);
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    const Json t = BodyJson(made);
    for (const char* key : {"fulltextIndexed", "queryable", "includedInSupertypeQuery", "controllableACL",
                            "controllablePolicy", "fileable", "creatable", "localName", "queryName",
                            "localNamespace", "displayName", "description"}) {
      CAPTURE(key);
      CHECK(t[key] == kCmisJsSpecType[key]);
    }
    const Json& given = kCmisJsSpecType["propertyDefinitions"]["test:aString"];
    const Json& stored = t["propertyDefinitions"]["test:aString"];
    for (auto it = given.begin(); it != given.end(); ++it) {
      CAPTURE(it.key());
      CHECK(stored[it.key()] == *it);
    }
    // What the upstream test "should update a type" sends: the definition it created.
    auto updated = PostType(c, v.repo, "updateType", kCmisJsSpecType);
    REQUIRE(updated);
    CHECK_MESSAGE(updated->status == 200, updated->body);
    CHECK(BodyJson(updated) == t);
    // And the definition as the server answered it, in each encoding.
    for (Encoding enc : {Encoding::kJson, Encoding::kUrlencoded, Encoding::kMultipart}) {
      CAPTURE(EncodingName(enc));
      auto again = PostType(c, v.repo, "updateType", t, enc);
      REQUIRE(again);
      CHECK_MESSAGE(again->status == 200, again->body);
      CHECK(BodyJson(again) == t);
    }
    // A type read back after a restart of the registry's cache says the same.
    CHECK(GetJson(c, "/demo/" + v.repo + "?cmisselector=typeDefinition&typeId=test:testDoc") == t);
    REQUIRE(PostAs(c, "/demo/" + v.repo, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "test:testDoc"}})
                ->status == 200);
  }
}

TEST_CASE("Http types: queryName and localName default to the id, a property's own queryName is kept") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    auto made = PostType(c, v.repo, "createType",
                         Json{{"id", "acme:memo"},
                              {"parentId", v.prefix + "document"},
                              {"propertyDefinitions",
                               {{"acme:topic", {{"propertyType", "string"}}},
                                {"acme:due", {{"propertyType", "datetime"}, {"queryName", "due_date"}}}}}});
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    for (const Json& t : {BodyJson(made),
                          GetJson(c, "/demo/" + v.repo + "?cmisselector=typeDefinition&typeId=acme:memo")}) {
      CHECK(t["queryName"] == "acme:memo");
      CHECK(t["localName"] == "acme:memo");
      CHECK(t["propertyDefinitions"]["acme:topic"]["queryName"] == "acme:topic");
      CHECK(t["propertyDefinitions"]["acme:topic"]["localName"] == "acme:topic");
      CHECK(t["propertyDefinitions"]["acme:due"]["queryName"] == "due_date");
      CHECK(t["propertyDefinitions"]["acme:due"]["localName"] == "acme:due");
    }
    // The query language names the property by its queryName.
    auto doc = PostAs(c, "/demo/" + v.repo, Encoding::kJson, {{"operation", "createDocument"}, {"succinct", "true"}},
                      Json{{"cmis:name", "memo.txt"}, {"cmis:objectTypeId", "acme:memo"},
                           {"acme:due", "2026-12-01T00:00:00.000Z"}});
    REQUIRE(doc->status == 201);
    const Json found = GetJson(c, "/demo/" + v.repo + "?cmisselector=query&succinct=true&q=" +
                                      httplib::detail::encode_query_param(
                                          "SELECT * FROM acme:memo WHERE due_date > TIMESTAMP '2026-11-01T00:00:00.000Z'"));
    CHECK(found["results"].size() == 1);
  }
}

TEST_CASE("Http types: createType honours queryable and fulltextIndexed, and refuses what it cannot honour") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    auto made = PostType(c, v.repo, "createType",
                         Json{{"id", "acme:hidden"}, {"parentId", "cmis:document"}, {"queryable", false},
                              {"fulltextIndexed", false}});
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    CHECK(BodyJson(made)["queryable"] == false);
    CHECK(BodyJson(made)["fulltextIndexed"] == false);
    const Upload text{"zebracorn appears here", "z.txt"};
    REQUIRE(PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "createDocument"}},
                   Json{{"cmis:name", "hidden.txt"}, {"cmis:objectTypeId", "acme:hidden"}}, &text)
                ->status == 201);
    REQUIRE(PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "createDocument"}},
                   Json{{"cmis:name", "plain.txt"}}, &text)
                ->status == 201);
    const auto query = [&](const std::string& q, int status) {
      return GetJson(c, base + "?cmisselector=query&succinct=true&q=" + httplib::detail::encode_query_param(q),
                     status);
    };
    // Not queryable: FROM it is refused; its objects are still in their supertype's.
    const Json refused = query("SELECT * FROM acme:hidden", 400);
    CHECK(refused["exception"] == "invalidArgument");
    CHECK(refused["message"].get<std::string>().find("not queryable") != std::string::npos);
    CHECK(query("SELECT * FROM cmis:document WHERE cmis:name = 'hidden.txt'", 200)["results"].size() == 1);
    // Not full-text indexed: CONTAINS never matches its objects.
    const Json contains = query("SELECT cmis:name FROM cmis:document WHERE CONTAINS('zebracorn')", 200);
    REQUIRE(contains["results"].size() == 1);
    CHECK(contains["results"][0]["succinctProperties"][v.prefix + "name"] == "plain.txt");
    const Json negated =
        query("SELECT cmis:name FROM cmis:document WHERE NOT CONTAINS('zebracorn') AND cmis:name = 'hidden.txt'", 200);
    CHECK(negated["results"].size() == 1);

    struct Bad {
      Json type;
      std::string exception, named;
    };
    const Bad bad[] = {
        {{{"id", "acme:b1"}, {"parentId", "cmis:document"}, {"controllableACL", false}}, "constraint",
         "controllableACL"},
        {{{"id", "acme:b2"}, {"parentId", "cmis:document"}, {"controllablePolicy", true}}, "constraint",
         "controllablePolicy"},
        {{{"id", "acme:b3"}, {"parentId", "cmis:document"}, {"fileable", false}}, "constraint", "fileable"},
        {{{"id", "acme:b4"}, {"parentId", "cmis:folder"}, {"fulltextIndexed", true}}, "constraint",
         "fulltextIndexed"},
        {{{"id", "acme:b5"}, {"parentId", "cmis:document"}, {"baseId", "cmis:folder"}}, "constraint", "baseId"},
        {{{"id", "acme:b6"}, {"parentId", "cmis:folder"}, {"versionable", true}}, "constraint", "versionable"},
        {{{"id", "acme:b7"}, {"parentId", "cmis:document"}, {"queryable", "no"}}, "invalidArgument", "queryable"},
        {{{"id", "acme:b8"},
          {"parentId", "cmis:document"},
          {"propertyDefinitions", {{"acme:tags", {{"propertyType", "string"}, {"cardinality", "multi"},
                                                  {"orderable", true}}}}}},
         "constraint", "orderable"},
        {{{"id", "acme:b9"},
          {"parentId", "cmis:document"},
          {"propertyDefinitions",
           {{"acme:size", {{"propertyType", "string"}, {"choices", Json::array({{{"value", "S"}}})}}}}}},
         "constraint", "choices"},
        {{{"id", "acme:b10"},
          {"parentId", "cmis:document"},
          {"propertyDefinitions", {{"acme:n", {{"propertyType", "integer"}, {"maxValue", 10}}}}}},
         "constraint", "maxValue"},
    };
    for (const Bad& b : bad) {
      CAPTURE(b.type.dump());
      auto r = PostType(c, v.repo, "createType", b.type);
      REQUIRE(r);
      CHECK(r->status == (b.exception == "constraint" ? 409 : 400));
      CHECK(BodyJson(r)["exception"] == b.exception);
      CHECK(Message(r).find(b.named) != std::string::npos);
      CHECK(GetJson(c, base + "?cmisselector=typeDefinition&typeId=" + b.type["id"].get<std::string>(), 404)
                ["exception"] == "objectNotFound");
    }
  }
}

TEST_CASE("Http types: updateType changes display attributes and adds optional properties") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    for (Encoding enc : {Encoding::kJson, Encoding::kUrlencoded, Encoding::kMultipart}) {
      CAPTURE(v.repo);
      CAPTURE(EncodingName(enc));
      CreateContractType(c, v.repo);
      auto changed = PostType(c, v.repo, "updateType",
                              Json{{"id", "acme:contract"},
                                   {"displayName", "Signed contract"},
                                   {"description", "A contract with a signature"},
                                   {"propertyDefinitions",
                                    {{"acme:amount", {{"displayName", "Net amount"}}},
                                     {"acme:signer", {{"propertyType", "string"}, {"required", false}}}}}},
                              enc);
      REQUIRE(changed);
      CHECK(changed->status == 200);
      Json t = BodyJson(changed);
      CHECK(t["displayName"] == "Signed contract");
      CHECK(t["description"] == "A contract with a signature");
      CHECK(t["propertyDefinitions"]["acme:amount"]["displayName"] == "Net amount");
      CHECK(t["propertyDefinitions"]["acme:amount"]["propertyType"] == "decimal");
      CHECK(t["propertyDefinitions"]["acme:signer"]["propertyType"] == "string");
      CHECK(t["propertyDefinitions"]["acme:signer"]["inherited"] == false);
      CHECK(t["propertyDefinitions"].contains(v.prefix + "name"));  // inherited ones stay
      // Stored: typeDefinition says the same, and the new property can be set.
      Json read = BodyJson(c.Get(("/demo/" + v.repo + "?cmisselector=typeDefinition&typeId=acme:contract").c_str()));
      CHECK(read["displayName"] == "Signed contract");
      CHECK(read["propertyDefinitions"].contains("acme:signer"));
      auto doc = PostAs(c, "/demo/" + v.repo, Encoding::kJson, {{"operation", "createDocument"}, {"succinct", "true"}},
                        Json{{"cmis:name", "c.txt"}, {"cmis:objectTypeId", "acme:contract"}, {"acme:signer", "bob"}});
      REQUIRE(doc);
      CHECK(doc->status == 201);
      CHECK(BodyJson(doc)["succinctProperties"]["acme:signer"] == "bob");
      // A type read back and sent again as it is changes nothing.
      auto again = PostType(c, v.repo, "updateType", read, enc);
      REQUIRE(again);
      CHECK(again->status == 200);
      CHECK(BodyJson(again) == read);
      // Clean up for the next encoding.
      const std::string id = BodyJson(doc)["succinctProperties"][v.prefix + "objectId"];
      REQUIRE(PostAs(c, "/demo/" + v.repo, Encoding::kJson, {{"operation", "delete"}, {"objectId", id}})->status == 200);
      REQUIRE(PostAs(c, "/demo/" + v.repo, enc, {{"cmisaction", "deleteType"}, {"typeId", "acme:contract"}})->status ==
              200);
    }
  }
}

TEST_CASE("Http types: updateType refuses what could invalidate stored objects, naming it") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    CreateContractType(c, v.repo);
    struct Bad {
      Json type;
      int status;
      std::string exception, named;
    };
    const Bad bad[] = {
        {{{"id", "acme:contract"}, {"propertyDefinitions", {{"acme:due", {{"propertyType", "datetime"},
                                                                         {"required", true}}}}}},
         409, "constraint", "acme:due"},
        {{{"id", "acme:contract"}, {"propertyDefinitions", {{"acme:amount", {{"propertyType", "string"}}}}}},
         409, "constraint", "propertyType"},
        {{{"id", "acme:contract"}, {"propertyDefinitions", {{"acme:amount", {{"cardinality", "multi"}}}}}},
         409, "constraint", "cardinality"},
        {{{"id", "acme:contract"}, {"versionable", false}}, 409, "constraint", "versionable"},
        {{{"id", "acme:contract"}, {"parentId", "cmis:folder"}}, 409, "constraint", "parentId"},
        {{{"id", "acme:contract"}, {"propertyDefinitions", {{"cmis:name", {{"displayName", "Title"}}}}}},
         409, "constraint", "inherited"},
        {{{"id", "cmis:document"}, {"displayName", "Doc"}}, 409, "constraint", "built-in"},
        {{{"id", "document"}, {"displayName", "Doc"}}, 409, "constraint", "built-in"},
        {{{"id", "acme:nothing"}, {"displayName", "x"}}, 404, "objectNotFound", "acme:nothing"},
        {{{"displayName", "x"}}, 400, "invalidArgument", "id"},
        {{{"id", "acme:contract"}, {"propertyDefinitions", {{"acme:x", {{"propertyType", "money"}}}}}},
         400, "invalidArgument", "acme:x"},
    };
    for (const Bad& b : bad) {
      CAPTURE(b.type.dump());
      auto r = PostType(c, v.repo, "updateType", b.type);
      REQUIRE(r);
      CHECK(r->status == b.status);
      CHECK(BodyJson(r)["exception"] == b.exception);
      CHECK(Message(r).find(b.named) != std::string::npos);
    }
    auto missing = c.Post(("/demo/" + v.repo).c_str(), R"({"operation": "updateType"})", "application/json");
    CHECK(missing->status == 400);
    CHECK(Message(missing).find("type") != std::string::npos);
    auto garbled = PostAs(c, "/demo/" + v.repo, Encoding::kUrlencoded, {{"cmisaction", "updateType"}, {"type", "{"}});
    CHECK(garbled->status == 400);
    CHECK(BodyJson(garbled)["exception"] == "invalidArgument");
    // Nothing changed.
    Json read = BodyJson(c.Get(("/demo/" + v.repo + "?cmisselector=typeDefinition&typeId=acme:contract").c_str()));
    CHECK(read["displayName"] == "Contract");
    CHECK(!read["propertyDefinitions"].contains("acme:due"));
  }
}

TEST_CASE("Http types: deleteType answers {} and is refused exactly while objects of the type exist") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    CreateContractType(c, v.repo);
    auto folder_type = PostType(c, v.repo, "createType", Json{{"id", "acme:box"}, {"parentId", "cmis:folder"}});
    REQUIRE(folder_type->status == 201);
    auto doc = PostAs(c, base + "/docs", Encoding::kJson, {{"operation", "createDocument"}, {"succinct", "true"}},
                      Json{{"cmis:name", "deal.txt"}, {"cmis:objectTypeId", "acme:contract"}});
    REQUIRE(doc->status == 201);
    const std::string doc_id = BodyJson(doc)["succinctProperties"][v.prefix + "objectId"];
    auto box = PostAs(c, base, Encoding::kJson, {{"operation", "createFolder"}, {"succinct", "true"}},
                      Json{{"cmis:name", "box"}, {"cmis:objectTypeId", "acme:box"}});
    REQUIRE(box->status == 201);
    // Refused, naming an object of the type; CmisJS sends the id in JSON quotes.
    auto refused = PostAs(c, base, Encoding::kUrlencoded, {{"cmisaction", "deleteType"}, {"typeId", "\"acme:contract\""}});
    CHECK(refused->status == 409);
    CHECK(BodyJson(refused)["exception"] == "constraint");
    CHECK(Message(refused).find("acme:contract") != std::string::npos);
    CHECK(Message(refused).find("docs/deal.txt") != std::string::npos);
    auto refused_box = PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:box"}});
    CHECK(refused_box->status == 409);
    CHECK(Message(refused_box).find("/box") != std::string::npos);
    // Once the document is gone (all versions), the type can go: {} as JSON.
    auto checked_out = PostAs(c, base, Encoding::kJson, {{"operation", "checkOut"}, {"objectId", doc_id}});
    REQUIRE(checked_out->status == 201);
    CHECK(PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:contract"}})->status ==
          409);  // the working copy is of the type too
    REQUIRE(PostAs(c, base, Encoding::kJson, {{"operation", "delete"}, {"objectId", doc_id}, {"allVersions", "true"}})
                ->status == 200);
    auto deleted = PostAs(c, base, Encoding::kMultipart, {{"cmisaction", "deleteType"}, {"typeId", "acme:contract"}});
    CHECK(deleted->status == 200);
    CHECK(deleted->get_header_value("Content-Type").find("application/json") == 0);
    CHECK(BodyJson(deleted) == Json::object());
    auto again = PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:contract"}});
    CHECK(again->status == 404);
    CHECK(BodyJson(again)["exception"] == "objectNotFound");
    CHECK(Message(again).find("acme:contract") != std::string::npos);
    // A folder of the type removed by hand leaves only a stale marker: not an object.
    std::filesystem::remove_all(std::filesystem::path(f.dir()) / "demo" / v.repo / "box");
    CHECK(BodyJson(PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:box"}})) ==
          Json::object());
    // Built-in types, missing ids.
    auto builtin = PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}, {"typeId", v.prefix + "document"}});
    CHECK(builtin->status == 409);
    CHECK(Message(builtin).find("built-in") != std::string::npos);
    auto no_id = PostAs(c, base, Encoding::kJson, {{"operation", "deleteType"}});
    CHECK(no_id->status == 400);
    CHECK(Message(no_id).find("typeId") != std::string::npos);
  }
}

TEST_CASE("Http types: a type made before usage markers is checked by a scan of the tree") {
  ServerFixture f;
  auto c = f.Client();
  CreateContractType(c, "beta");
  auto item_type = PostType(c, "beta", "createType", Json{{"id", "acme:card"}, {"parentId", "cmis:item"}});
  REQUIRE(item_type->status == 201);
  // As a data directory written before markers existed: no marker directories.
  std::filesystem::remove_all(std::filesystem::path(f.dir()) / "demo" / "beta" / ".folio" / "typed");
  auto doc = PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}, {"succinct", "true"}},
                    Json{{"cmis:name", "old.txt"}, {"cmis:objectTypeId", "acme:contract"}});
  REQUIRE(doc->status == 201);
  auto item = PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createItem"}, {"succinct", "true"}},
                     Json{{"cmis:name", "card"}, {"cmis:objectTypeId", "acme:card"}});
  REQUIRE(item->status == 201);
  auto refused = PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:contract"}});
  CHECK(refused->status == 409);
  CHECK(Message(refused).find("docs/old.txt") != std::string::npos);
  auto refused_item = PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:card"}});
  CHECK(refused_item->status == 409);
  CHECK(Message(refused_item).find("docs/card") != std::string::npos);
  const std::string id = BodyJson(doc)["succinctProperties"]["cmis:objectId"];
  REQUIRE(PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "delete"}, {"objectId", id}})->status == 200);
  CHECK(PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "deleteType"}, {"typeId", "acme:contract"}})->status ==
        200);
}

// A type file is plain JSON anyone may edit: attributes of another type or value are
// read as the engine reads them (the defaults), and served so; no request fails for them.
TEST_CASE("Http types: a type file edited by hand with attributes of other types is served as the engine reads it") {
  ServerFixture f;
  auto c = f.Client();
  CreateContractType(c, "beta");
  namespace fs = std::filesystem;
  const fs::path types = fs::path(f.dir()) / "demo" / "beta" / ".folio" / "types";
  fs::path file;
  for (const auto& e : fs::directory_iterator(types)) {
    if (e.path().filename().string().find("contract") != std::string::npos) file = e.path();
  }
  REQUIRE_MESSAGE(!file.empty(), "no type file of acme:contract in " << types);
  Json def = Json::parse(std::ifstream(file));
  def["propertyDefinitions"]["acme:amount"] =
      Json{{"propertyType", 5}, {"cardinality", Json::object()}, {"updatability", Json::array()}, {"required", "yes"}};
  def["propertyDefinitions"]["acme:when"] = Json{{"propertyType", "datetime"}, {"updatability", 7}};
  std::ofstream(file, std::ios::trunc) << def.dump(2);

  auto got = c.Get("/demo/beta?cmisselector=typeDefinition&typeId=acme:contract");
  REQUIRE(got);
  REQUIRE(got->status == 200);
  const Json amount = BodyJson(got)["propertyDefinitions"]["acme:amount"];
  CHECK(amount["propertyType"] == "string");
  CHECK(amount["cardinality"] == "single");
  CHECK(amount["updatability"] == "readwrite");
  CHECK(amount["required"] == false);
  CHECK(amount["inherited"] == false);
  CHECK(BodyJson(got)["propertyDefinitions"]["acme:when"]["propertyType"] == "datetime");
  CHECK(BodyJson(got)["propertyDefinitions"]["acme:when"]["updatability"] == "readwrite");

  // Creating, copying and describing objects of the type read those definitions.
  auto doc = PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}, {"succinct", "true"}},
                    Json{{"cmis:name", "edited.txt"},
                         {"cmis:objectTypeId", "acme:contract"},
                         {"acme:amount", "12"},
                         {"acme:when", "2026-11-29T06:00:00Z"}});
  REQUIRE(doc);
  CHECK_MESSAGE(doc->status == 201, doc->body);
  const Json props = BodyJson(doc)["succinctProperties"];
  CHECK(props["acme:amount"] == "12");
  CHECK(props["acme:when"].is_number_integer());
  const std::string id = props["cmis:objectId"];
  auto copy = PostAs(c, "/demo/beta/docs", Encoding::kJson,
                     {{"operation", "createDocumentFromSource"}, {"sourceId", id}, {"succinct", "true"}},
                     Json{{"cmis:name", "edited-copy.txt"}});
  REQUIRE(copy);
  CHECK_MESSAGE(copy->status == 201, copy->body);
  CHECK(BodyJson(copy)["succinctProperties"]["acme:amount"] == "12");
  auto read = c.Get("/demo/beta/docs/edited.txt?cmisselector=object&succinct=true");
  REQUIRE(read);
  CHECK(read->status == 200);
}

}  // namespace
}  // namespace folio::testing
