// query over HTTP (docs/API.md §12, §7.5): GET with q and POST with
// statement by every operation synonym, in both variants; result keys, aliases, the
// detailed form, paging, searchAllVersions, dateTimeFormat, allowable actions; changes
// seen by the next query; repositoryInfo and type definitions; errors; a second server
// process on the same data directory; files added by hand.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "http/server_fixture.h"
#include "support/child_process.h"
#include "support/http_client.h"

namespace folio::testing {
namespace {

struct VariantCase {
  std::string repo;
  std::string prefix;  // "" in variant A, "cmis:" in variant B
};
const VariantCase kVariants[] = {{"alpha", ""}, {"beta", "cmis:"}};

void WriteFileForTest(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string Url(const std::string& path, const httplib::Params& params) {
  return path + "?" + httplib::detail::params_to_query_str(params);
}

// GET query with `q`; the parsed answer (status checked).
Json GetQuery(httplib::Client& c, const std::string& repo, const std::string& q, httplib::Params extra = {},
              int status = 200) {
  extra.emplace("cmisselector", "query");
  extra.emplace("q", q);
  auto r = c.Get(Url("/demo/" + repo, extra).c_str());
  REQUIRE(r);
  CHECK_MESSAGE(r->status == status, r->body);
  return BodyJson(r);
}

// The values of `key` in the succinct results, in order.
std::vector<Json> Column(const Json& answer, const std::string& key) {
  std::vector<Json> out;
  for (const Json& r : answer["results"]) out.push_back(r["succinctProperties"].value(key, Json("<missing>")));
  return out;
}

std::vector<std::string> Names(const Json& answer, const std::string& key) {
  std::vector<std::string> out;
  for (const Json& v : Column(answer, key)) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  std::sort(out.begin(), out.end());
  return out;
}

std::string FolderId(httplib::Client& c, const VariantCase& v, const std::string& path) {
  return Prop(BodyJson(c.Get(("/demo/" + v.repo + path + "?cmisselector=object").c_str())), v.prefix + "objectId")
      .get<std::string>();
}

TEST_CASE("Http query: GET q and POST statement, by every operation synonym, in both variants") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    const std::string stmt = "SELECT cmis:name FROM cmis:document WHERE name = 'readme.txt'";
    for (const char* selector : {"cmisselector", "operation", "cmisaction"}) {
      for (const char* param : {"q", "statement"}) {
        CAPTURE(selector);
        CAPTURE(param);
        auto r = c.Get(Url(base, {{selector, "query"}, {param, stmt}, {"succinct", "true"}}).c_str());
        REQUIRE(r);
        CHECK(r->status == 200);
        const Json j = BodyJson(r);
        CHECK(j["numItems"] == 1);
        CHECK(j["hasMoreItems"] == false);
        CHECK(j["results"][0]["succinctProperties"] == Json{{v.prefix + "name", "readme.txt"}});
      }
    }
    for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
      CAPTURE(EncodingName(enc));
      for (const char* param : {"statement", "q"}) {
        auto r = PostAs(c, base, enc, {{"cmisaction", "query"}, {param, stmt}, {"succinct", "true"}});
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(BodyJson(r)["results"][0]["succinctProperties"][v.prefix + "name"] == "readme.txt");
      }
    }
    // The method-style name too, and the body's operation.
    auto r = c.Post(base.c_str(), Json{{"operation", "QUERY"}, {"statement", stmt}}.dump(), "application/json");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
}

TEST_CASE("Http query: result keys in the variant's spelling unless aliased; detailed form; SELECT *") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    Json j = GetQuery(c, v.repo,
                      "SELECT d.cmis:name AS title, objectId, cmis:contentStreamLength FROM document d "
                      "WHERE d.name = 'readme.txt'",
                      {{"succinct", "true"}});
    REQUIRE(j["results"].size() == 1);
    const Json& p = j["results"][0]["succinctProperties"];
    CHECK(p.size() == 3);
    CHECK(p["title"] == "readme.txt");
    CHECK(p[v.prefix + "objectId"].is_string());
    CHECK(p[v.prefix + "contentStreamLength"] == 5);
    // Detailed: queryName carries the alias, id the property.
    j = GetQuery(c, v.repo, "SELECT cmis:name AS title, cmis:creationDate FROM cmis:document", {{"succinct", "false"}});
    const Json& d = j["results"][0]["properties"];
    CHECK(d["title"]["id"] == v.prefix + "name");
    CHECK(d["title"]["queryName"] == "title");
    CHECK(d["title"]["value"] == "readme.txt");
    CHECK(d["title"]["type"] == "string");
    CHECK(d[v.prefix + "creationDate"]["queryName"] == v.prefix + "creationDate");
    CHECK(d[v.prefix + "creationDate"]["type"] == "datetime");
    CHECK(d[v.prefix + "creationDate"]["value"].is_number_integer());
    // The variant's default form, extended dates, allowable actions.
    j = GetQuery(c, v.repo, "SELECT * FROM cmis:document",
                 {{"dateTimeFormat", "extended"}, {"includeAllowableActions", "true"}});
    const Json& r = j["results"][0];
    CHECK(r.contains(v.prefix.empty() ? "succinctProperties" : "properties"));
    CHECK(Prop(r, v.prefix + "creationDate").get<std::string>().ends_with("Z"));
    CHECK(Prop(r, v.prefix + "baseTypeId") == v.prefix + "document");
    CHECK(Prop(r, v.prefix + "isLatestVersion") == true);
    CHECK(r["allowableActions"]["canGetContentStream"] == true);
    // SELECT * has the FROM type's properties, not a subtype's.
    CHECK_FALSE(Prop(r, v.prefix + "path").is_string());
  }
}

TEST_CASE("Http query: maxItems, skipCount, numItems, hasMoreItems, searchAllVersions") {
  ServerFixture f;
  auto c = f.Client();
  const std::string base = "/demo/beta/docs";
  for (int i = 0; i < 5; ++i) {
    auto r = PostAs(c, base, Encoding::kJson, {{"operation", "createDocument"}},
                    Json{{"cmis:name", "p" + std::to_string(i) + ".txt"}});
    REQUIRE(r);
    REQUIRE(r->status == 201);
  }
  const std::string q = "SELECT cmis:name FROM cmis:document WHERE cmis:name LIKE 'p%' ORDER BY cmis:name DESC";
  Json j = GetQuery(c, "beta", q, {{"maxItems", "2"}, {"skipCount", "1"}, {"succinct", "true"}});
  CHECK(Column(j, "cmis:name") == std::vector<Json>{"p3.txt", "p2.txt"});
  CHECK(j["numItems"] == 5);
  CHECK(j["hasMoreItems"] == true);
  j = GetQuery(c, "beta", q, {{"maxItems", "2"}, {"skipCount", "3"}, {"succinct", "true"}});
  CHECK(Column(j, "cmis:name") == std::vector<Json>{"p1.txt", "p0.txt"});
  CHECK(j["hasMoreItems"] == false);
  j = GetQuery(c, "beta", q, {{"maxItems", "10001"}}, 400);
  CHECK(j["exception"] == "invalidArgument");
  CHECK(j["message"].get<std::string>().find("maxItems") != std::string::npos);

  // A second version: only the latest without searchAllVersions.
  const std::string id = FolderId(c, kVariants[1], "/docs/p0.txt");
  auto pwc = PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "checkOut"}, {"objectId", id}});
  REQUIRE(pwc);
  const std::string pwc_id = Prop(BodyJson(pwc), "cmis:objectId").get<std::string>();
  auto in = PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}});
  REQUIRE(in);
  REQUIRE(in->status == 201);
  const std::string v =
      "SELECT cmis:versionLabel FROM cmis:document WHERE cmis:name = 'p0.txt' ORDER BY cmis:versionLabel";
  CHECK(Column(GetQuery(c, "beta", v, {{"succinct", "true"}}), "cmis:versionLabel") == std::vector<Json>{"2.0"});
  CHECK(Column(GetQuery(c, "beta", v, {{"succinct", "true"}, {"searchAllVersions", "true"}}), "cmis:versionLabel") ==
        std::vector<Json>{"1.0", "2.0"});
}

TEST_CASE("Http query: every kind of change is seen by the next query") {
  ServerFixture f;
  auto c = f.Client();
  for (const VariantCase& v : kVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    const std::string name = v.prefix + "name";
    const std::string docs = FolderId(c, v, "/docs");
    const std::string in_docs = "SELECT cmis:name FROM cmis:document WHERE IN_FOLDER('" + docs + "')";
    auto names = [&](const std::string& q) { return Names(GetQuery(c, v.repo, q, {{"succinct", "true"}}), name); };
    CHECK(names(in_docs) == std::vector<std::string>{"readme.txt"});
    // create (multipart, with content)
    Upload up{"a shiny new needle", "n.txt", "text/plain"};
    auto made = PostAs(c, base + "/docs", Encoding::kMultipart, {{"operation", "createDocument"}},
                       Json{{"cmis:name", "n.txt"}}, &up);
    REQUIRE(made);
    REQUIRE(made->status == 201);
    const std::string id = Prop(BodyJson(made), v.prefix + "objectId").get<std::string>();
    CHECK(names(in_docs) == std::vector<std::string>{"n.txt", "readme.txt"});
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE CONTAINS('needle')") == std::vector<std::string>{"n.txt"});
    // rename
    auto upd = PostAs(c, base, Encoding::kUrlencoded, {{"operation", "update"}, {"objectId", id}},
                      Json{{"cmis:name", "m.txt"}});
    REQUIRE(upd);
    REQUIRE(upd->status == 200);
    CHECK(names(in_docs) == std::vector<std::string>{"m.txt", "readme.txt"});
    // setContent
    Upload other{"a rusty old nail", "m.txt", "text/plain"};
    auto set =
        PostAs(c, base, Encoding::kMultipart,
               {{"operation", "setContent"}, {"objectId", id}, {"overwriteFlag", "true"}}, Json::object(), &other);
    REQUIRE(set);
    REQUIRE(set->status == 201);
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE CONTAINS('needle')").empty());
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE CONTAINS('nail')") == std::vector<std::string>{"m.txt"});
    // checkOut / checkIn
    auto pwc = PostAs(c, base, Encoding::kJson, {{"operation", "checkOut"}, {"objectId", id}});
    REQUIRE(pwc);
    REQUIRE(pwc->status == 201);
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE cmis:isVersionSeriesCheckedOut = TRUE") ==
          std::vector<std::string>{"m.txt"});
    const std::string pwc_id = Prop(BodyJson(pwc), v.prefix + "objectId").get<std::string>();
    Upload third{"a third text", "m.txt", "text/plain"};
    auto in = PostAs(c, base, Encoding::kMultipart,
                     {{"operation", "checkIn"}, {"objectId", pwc_id}, {"major", "false"}}, Json::object(), &third);
    REQUIRE(in);
    REQUIRE(in->status == 201);
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE cmis:isVersionSeriesCheckedOut = TRUE").empty());
    CHECK(Names(GetQuery(c, v.repo, "SELECT cmis:versionLabel FROM cmis:document WHERE CONTAINS('third')",
                         {{"succinct", "true"}}),
                v.prefix + "versionLabel") == std::vector<std::string>{"1.1"});
    // move into a new folder, then IN_TREE
    auto sub = PostAs(c, base + "/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"cmis:name", "sub"}});
    REQUIRE(sub);
    const std::string sub_id = Prop(BodyJson(sub), v.prefix + "objectId").get<std::string>();
    auto mv = PostAs(c, base, Encoding::kJson, {{"operation", "move"}, {"objectId", id}, {"targetFolderId", sub_id}});
    REQUIRE(mv);
    REQUIRE(mv->status == 201);
    CHECK(names(in_docs) == std::vector<std::string>{"readme.txt"});
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE IN_TREE('" + docs + "')") ==
          std::vector<std::string>{"m.txt", "readme.txt"});
    // delete
    auto del = PostAs(c, base, Encoding::kJson, {{"operation", "delete"}, {"objectId", id}});
    REQUIRE(del);
    REQUIRE(del->status == 200);
    CHECK(names("SELECT cmis:name FROM cmis:document WHERE IN_TREE('" + docs + "')") ==
          std::vector<std::string>{"readme.txt"});
    // deleteTree
    auto tree = PostAs(c, base, Encoding::kJson, {{"operation", "deleteTree"}, {"objectId", sub_id}});
    REQUIRE(tree);
    CHECK(names("SELECT cmis:name FROM cmis:folder WHERE IN_TREE('" + docs + "')").empty());
  }
}

TEST_CASE("Http query: repositoryInfo and type definitions say what can be queried") {
  ServerFixture f;
  auto c = f.Client();
  const Json info = BodyJson(c.Get("/demo/beta?cmisselector=repositoryInfo"))["beta"]["capabilities"];
  CHECK(info["capabilityQuery"] == "bothcombined");
  CHECK(info["capabilityJoin"] == "none");
  CHECK(info["capabilityAllVersionsSearchable"] == true);
  CHECK(info["capabilityPWCSearchable"] == false);
  const Json doc = BodyJson(c.Get("/demo/beta?cmisselector=typeDefinition&typeId=cmis:document"));
  CHECK(doc["queryable"] == true);
  CHECK(doc["fulltextIndexed"] == true);
  CHECK(doc["propertyDefinitions"]["cmis:name"]["queryable"] == true);
  CHECK(doc["propertyDefinitions"]["cmis:name"]["orderable"] == true);
  CHECK(doc["propertyDefinitions"]["cmis:secondaryObjectTypeIds"]["orderable"] == false);
  const Json folder = BodyJson(c.Get("/demo/beta?cmisselector=typeDefinition&typeId=cmis:folder"));
  CHECK(folder["fulltextIndexed"] == false);
  const Json secondary = BodyJson(c.Get("/demo/beta?cmisselector=typeDefinition&typeId=cmis:secondary"));
  CHECK(secondary["queryable"] == true);  // FROM it: the objects with a secondary type (docs/API.md §6.6)
  // A custom type: what its definition leaves out is its parent's (queryable, full-text
  // indexed); it is queried by its query names (types_test.cc: the values it gives).
  Json type = {{"id", "acme:memo"},
               {"parentId", "cmis:document"},
               {"propertyDefinitions",
                {{"acme:tags", {{"propertyType", "string"}, {"cardinality", "multi"}}},
                 {"acme:rank", {{"propertyType", "integer"}, {"cardinality", "single"}, {"queryName", "acme:r"}}}}}};
  auto made =
      c.Post("/demo/beta", Json{{"cmisaction", "createType"}, {"type", type.dump()}}.dump(), "application/json");
  REQUIRE(made);
  REQUIRE(made->status == 201);
  const Json memo = BodyJson(c.Get("/demo/beta?cmisselector=typeDefinition&typeId=acme:memo"));
  CHECK(memo["queryable"] == true);
  CHECK(memo["fulltextIndexed"] == true);
  CHECK(memo["propertyDefinitions"]["acme:tags"]["orderable"] == false);
  CHECK(memo["propertyDefinitions"]["acme:rank"]["orderable"] == true);
  auto doc_made = PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}},
                         Json{{"cmis:name", "memo.txt"},
                              {"cmis:objectTypeId", "acme:memo"},
                              {"acme:rank", 3},
                              {"acme:tags", Json::array({"x", "y"})}});
  REQUIRE(doc_made);
  REQUIRE(doc_made->status == 201);
  Json j = GetQuery(c, "beta", "SELECT cmis:name, acme:r FROM acme:memo WHERE acme:r > 2 AND 'y' = ANY acme:tags",
                    {{"succinct", "true"}});
  CHECK(Column(j, "cmis:name") == std::vector<Json>{"memo.txt"});
  CHECK(Column(j, "acme:rank") == std::vector<Json>{3});
}

TEST_CASE("Http query: errors are invalidArgument naming the culprit") {
  ServerFixture f;
  auto c = f.Client();
  struct Case {
    httplib::Params params;
    int status;
    const char* exception;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{{"cmisselector", "query"}}, 400, "invalidArgument", "missing required parameter 'statement'"},
      {{{"cmisselector", "query"}, {"q", ""}}, 400, "invalidArgument", "missing required parameter 'statement'"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM"}},
       400,
       "invalidArgument",
       "syntax error at line 1, column 14: expected a type name after FROM"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM nope"}}, 400, "invalidArgument", "unknown type 'nope'"},
      {{{"cmisselector", "query"}, {"q", "SELECT nope FROM cmis:document"}},
       400,
       "invalidArgument",
       "unknown property 'nope'"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM cmis:folder WHERE cmis:versionLabel = '1.0'"}},
       400,
       "invalidArgument",
       "type 'cmis:folder' has no property 'cmis:versionLabel'"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM cmis:document WHERE cmis:contentStreamLength = 'x'"}},
       400,
       "invalidArgument",
       "cannot compare integer property"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM cmis:document"}, {"searchAllVersions", "maybe"}},
       400,
       "invalidArgument",
       "searchAllVersions"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM cmis:document"}, {"dateTimeFormat", "weird"}},
       400,
       "invalidArgument",
       "dateTimeFormat"},
      {{{"cmisselector", "query"}, {"q", "SELECT * FROM cmis:document"}, {"skipCount", "-1"}},
       400,
       "invalidArgument",
       "skipCount"},
  };
  for (const Case& k : cases) {
    CAPTURE(httplib::detail::params_to_query_str(k.params));
    auto r = c.Get(Url("/demo/beta", k.params).c_str());
    REQUIRE(r);
    CHECK(r->status == k.status);
    const Json j = BodyJson(r);
    CHECK(j["exception"] == k.exception);
    CHECK_MESSAGE(j["message"].get<std::string>().find(k.message) != std::string::npos, j["message"]);
  }
  // Not at the domain or server level.
  auto r = c.Get("/demo?cmisselector=query&q=SELECT%20*%20FROM%20cmis:document");
  REQUIRE(r);
  CHECK(r->status == 405);
  // A huge, deeply nested statement is refused without harm, and the server answers after.
  std::string deep = "SELECT * FROM cmis:document WHERE " + std::string(5000, '(');
  r = c.Post("/demo/beta", Json{{"cmisaction", "query"}, {"statement", deep}}.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(BodyJson(r)["message"].get<std::string>().find("nested more than 32 levels") != std::string::npos);
  CHECK(GetQuery(c, "beta", "SELECT * FROM cmis:document")["numItems"] == 1);
}

TEST_CASE("Http query: a write made by a second folio serve process is seen by the next query") {
  ServerFixture f;
  auto c = f.Client();
  const std::string q = "SELECT cmis:name FROM cmis:document WHERE cmis:name = 'other.txt'";
  CHECK(GetQuery(c, "beta", q)["numItems"] == 0);
  Child other =
      Spawn({FOLIO_BINARY, "serve", "--data", f.dir(), "--port", "0", "--log-level", "warn", "--threads", "2"});
  const int port = folio::testing::PortOfReadyLine(other.ReadLine());
  REQUIRE(port > 0);
  auto c2 = TestClient("127.0.0.1", port);
  auto made = PostAs(c2, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}},
                     Json{{"cmis:name", "other.txt"}});
  REQUIRE(made);
  CHECK(made->status == 201);
  CHECK(GetQuery(c, "beta", q)["numItems"] == 1);
  // And the other way round.
  auto mine =
      PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}}, Json{{"cmis:name", "mine.txt"}});
  REQUIRE(mine);
  auto theirs = c2.Get(Url("/demo/beta", {{"cmisselector", "query"},
                                          {"q", "SELECT cmis:name FROM cmis:document WHERE cmis:name = 'mine.txt'"}})
                           .c_str());
  REQUIRE(theirs);
  CHECK(BodyJson(theirs)["numItems"] == 1);
  ::kill(other.pid, SIGTERM);
  CHECK(WaitExit(other.pid) == 0);
  std::fclose(other.out);
}

TEST_CASE("Http query: a file added, edited or removed by hand is seen by the next query") {
  ServerFixture f;
  auto c = f.Client();
  CHECK(GetQuery(c, "beta", "SELECT * FROM cmis:document")["numItems"] == 1);
  WriteFileForTest(f.dir() + "/demo/beta/docs/by-hand.txt", "written by a person");
  // inotify queues an event as the file is closed: the next query reads it.
  auto found = [&](const std::string& q) { return GetQuery(c, "beta", q)["numItems"] == 1; };
  CHECK(found("SELECT * FROM cmis:document WHERE cmis:name = 'by-hand.txt'"));
  WriteFileForTest(f.dir() + "/demo/beta/docs/readme.txt", "edited by hand: platypus");
  CHECK(found("SELECT * FROM cmis:document WHERE CONTAINS('platypus')"));
  // A folder made by hand with a file in it, then a file removed by hand.
  std::filesystem::create_directories(f.dir() + "/demo/beta/docs/made/deeper");
  WriteFileForTest(f.dir() + "/demo/beta/docs/made/deeper/inner.txt", "wombat");
  CHECK(found("SELECT * FROM cmis:document WHERE CONTAINS('wombat')"));
  CHECK(found("SELECT * FROM cmis:folder WHERE cmis:name = 'deeper'"));
  std::filesystem::remove(f.dir() + "/demo/beta/docs/by-hand.txt");
  CHECK(GetQuery(c, "beta", "SELECT * FROM cmis:document WHERE cmis:name = 'by-hand.txt'")["numItems"] == 0);
}

}  // namespace
}  // namespace folio::testing
