// URL levels and dispatch (docs/API.md §3.1, §3.2–§3.3): server, domain, repository, object by path
// and by id, operation synonyms, defaults of a GET without operation.
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

TEST_CASE("Http levels: GET / lists domains; createDomain and deleteDomain") {
  ServerFixture f;
  auto c = f.Client();
  auto r = c.Get("/");
  REQUIRE(r);
  CHECK(r->status == 200);
  Json j = BodyJson(r);
  REQUIRE(j["domains"].size() == 1);
  CHECK(j["domains"][0]["domainId"] == "demo");
  CHECK(j["domains"][0]["description"] == "test domain");

  for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
    CAPTURE(EncodingName(enc));
    const std::string id = std::string("dom_") + EncodingName(enc);
    auto made = PostAs(c, "/", enc, {{"operation", "createDomain"}, {"domainId", id}, {"description", "d"}});
    REQUIRE(made);
    CHECK(made->status == 201);
    CHECK(BodyJson(made)["domainId"] == id);
    auto again = PostAs(c, "/", enc, {{"operation", "createDomain"}, {"domainId", id}});
    CHECK(again->status == 409);
    CHECK(BodyJson(again)["exception"] == "contentAlreadyExists");
    auto del = PostAs(c, "/", enc, {{"cmisaction", "deleteDomain"}, {"domainId", id}});
    CHECK(del->status == 200);
  }
  auto bad = PostAs(c, "/", Encoding::kJson, {{"operation", "createDomain"}, {"domainId", "a-b"}});
  CHECK(bad->status == 400);
  CHECK(BodyJson(bad)["exception"] == "invalidArgument");
  CHECK(BodyJson(bad)["message"].get<std::string>().find("^\\w{3,}$") != std::string::npos);
  auto missing = PostAs(c, "/", Encoding::kJson, {{"operation", "createDomain"}});
  CHECK(missing->status == 400);
  CHECK(BodyJson(missing)["message"].get<std::string>().find("domainId") != std::string::npos);
}

TEST_CASE("Http levels: the domain URL is a CMIS service document") {
  ServerFixture f;
  auto c = f.Client();
  auto r = c.Get("/demo");
  REQUIRE(r);
  CHECK(r->status == 200);
  Json j = BodyJson(r);
  REQUIRE(j.size() == 2);
  CHECK(j.begin().key() == "alpha");  // CmisJS takes the first key
  const std::string url = f.base() + "/demo/alpha";
  CHECK(j["alpha"]["repositoryId"] == "alpha");
  CHECK(j["alpha"]["repositoryUrl"] == url);
  CHECK(j["alpha"]["rootFolderUrl"] == url);
  CHECK(j["alpha"]["cmisVersionSupported"] == "1.1");
  CHECK(j["alpha"]["capabilities"].is_object());
  CHECK(j["beta"]["rootFolderId"].is_string());

  auto info = c.Get("/demo/beta?cmisselector=repositoryInfo");
  CHECK(info->status == 200);
  CHECK(BodyJson(info)["beta"]["repositoryUrl"] == f.base() + "/demo/beta");
  auto bare = c.Get("/demo/beta");
  CHECK(BodyJson(bare)["beta"]["repositoryId"] == "beta");
  CHECK(c.Get("/nodomain")->status == 404);
  CHECK(c.Get("/demo/norepo")->status == 404);
}

TEST_CASE("Http levels: createRepository with variant, deleteRepository") {
  ServerFixture f;
  auto c = f.Client();
  for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
    CAPTURE(EncodingName(enc));
    const std::string id = std::string("r-") + EncodingName(enc);
    auto made = PostAs(c, "/demo", enc,
                       {{"operation", "createRepository"}, {"repositoryId", id}, {"variant", "A"},
                        {"repositoryName", "R"}, {"description", "d"}});
    REQUIRE(made);
    CHECK(made->status == 201);
    Json j = BodyJson(made);
    CHECK(j[id]["variant"] == "A");
    CHECK(j[id]["repositoryName"] == "R");
    // Variant A: unprefixed ids in responses.
    auto root = c.Get(("/demo/" + id + "?cmisselector=object&objectId=" + j[id]["rootFolderId"].get<std::string>())
                          .c_str());
    CHECK(BodyJson(root)["succinctProperties"]["baseTypeId"] == "folder");
    CHECK(PostAs(c, "/demo", enc, {{"operation", "createRepository"}, {"repositoryId", id}})->status == 409);
    CHECK(PostAs(c, "/demo", enc, {{"operation", "deleteRepository"}, {"repositoryId", id}})->status == 200);
    CHECK(c.Get(("/demo/" + id).c_str())->status == 404);
  }
  auto bad = PostAs(c, "/demo", Encoding::kJson, {{"operation", "createRepository"}, {"repositoryId", "a_b"}});
  CHECK(bad->status == 400);
  CHECK(BodyJson(bad)["message"].get<std::string>().find("^[a-zA-Z0-9-]{3,}$") != std::string::npos);
  auto bad_variant = PostAs(c, "/demo", Encoding::kJson,
                            {{"operation", "createRepository"}, {"repositoryId", "abc"}, {"variant", "C"}});
  CHECK(bad_variant->status == 400);
  // Default variant: B (--variant).
  auto def = PostAs(c, "/demo", Encoding::kJson, {{"operation", "createRepository"}, {"repositoryId", "dflt"}});
  CHECK(BodyJson(def)["dflt"]["variant"] == "B");
}

TEST_CASE("Http levels: operation, cmisselector and cmisaction are synonyms, any case") {
  ServerFixture f;
  auto c = f.Client();
  for (const char* q : {"operation=getObject", "cmisselector=object", "OPERATION=OBJECT", "cmisSelector=getobject"}) {
    CAPTURE(q);
    auto r = c.Get((std::string("/demo/beta/docs/readme.txt?") + q).c_str());
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(Prop(BodyJson(r), "cmis:name") == "readme.txt");
  }
  auto unknown = c.Get("/demo/beta?operation=frobnicate");
  CHECK(unknown->status == 405);
  CHECK(BodyJson(unknown)["exception"] == "notSupported");
  CHECK(BodyJson(unknown)["message"].get<std::string>().find("frobnicate") != std::string::npos);
}

TEST_CASE("Http levels: GET without operation: folder lists children, document returns content") {
  ServerFixture f;
  auto c = f.Client();
  auto folder = c.Get("/demo/alpha/docs");
  REQUIRE(folder);
  Json j = BodyJson(folder);
  REQUIRE(j["objects"].size() == 1);
  CHECK(j["objects"][0]["pathSegment"] == "readme.txt");
  auto doc = c.Get("/demo/alpha/docs/readme.txt");
  CHECK(doc->status == 200);
  CHECK(doc->body == "hello");
  CHECK(doc->get_header_value("Content-Type") == "text/plain");
  CHECK(doc->get_header_value("Content-Length") == "5");
  CHECK(doc->get_header_value("Content-Disposition") == "inline; filename=\"readme.txt\"");
  // By objectId at the repository URL: the same defaults.
  const std::string id = Prop(j["objects"][0]["object"], "versionSeriesId");
  auto by_id = c.Get(("/demo/alpha?objectId=" + id).c_str());
  CHECK(by_id->body == "hello");
}

TEST_CASE("Http levels: objectId wins over the path; {document}/versions is getAllVersions") {
  ServerFixture f;
  auto c = f.Client();
  auto doc = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=object&succinct=true"));
  const std::string id = doc["succinctProperties"]["cmis:objectId"];
  auto r = c.Get(("/demo/beta/docs?cmisselector=object&succinct=true&objectId=" + id).c_str());
  CHECK(BodyJson(r)["succinctProperties"]["cmis:objectId"] == id);
  auto versions = c.Get("/demo/beta/docs/readme.txt/versions?succinct=true");
  REQUIRE(versions);
  CHECK(versions->status == 200);
  Json v = BodyJson(versions);
  REQUIRE(v.is_array());
  REQUIRE(v.size() == 1);
  CHECK(v[0]["succinctProperties"]["cmis:versionLabel"] == "1.0");
  // A folder may hold a child named "versions".
  auto made = PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}},
                     Json{{"cmis:name", "versions"}});
  CHECK(made->status == 201);
  auto listing = c.Get("/demo/beta/docs/versions");
  CHECK(BodyJson(listing)["objects"].is_array());
}

}  // namespace
}  // namespace folio::testing
