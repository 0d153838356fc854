// Replays the request examples of the published service description (docs/API.md §6.1, §7.10) in both variants, and the
// README's three curl lines (list repositories, get a document, check one out).
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

TEST_CASE("Http seed: createObject with properties at the parent folder path, both variants") {
  ServerFixture f;
  auto c = f.Client();
  // Variant A: unprefixed names; succinct by default.
  auto a = c.Post("/demo/alpha/docs",
                  R"({"operation": "createObject", "properties": {"name": "spec.txt", "objectTypeId": "document"}})",
                  "application/json");
  REQUIRE(a);
  CHECK(a->status == 201);
  Json ja = BodyJson(a);
  CHECK(ja["succinctProperties"]["name"] == "spec.txt");
  CHECK(ja["succinctProperties"]["versionLabel"] == "1.0");
  CHECK(ja["succinctProperties"]["isLatestVersion"] == true);
  // Variant B: prefixed names and type ids; detailed by default.
  auto b = c.Post("/demo/beta/docs?operation=createObject",
                  R"({"properties": {"cmis:name": "spec.txt", "cmis:objectTypeId": "cmis:document"}})",
                  "application/json");
  REQUIRE(b);
  CHECK(b->status == 201);
  Json jb = BodyJson(b);
  CHECK(jb["properties"]["cmis:name"]["value"] == "spec.txt");
  CHECK(jb["properties"]["cmis:objectTypeId"]["value"] == "cmis:document");
  CHECK(jb["properties"]["cmis:versionLabel"]["value"] == "1.0");
  // versioningState minor gives 0.1 (docs/API.md §6.4).
  auto m = c.Post("/demo/beta/docs",
                  R"({"operation": "createObject", "versioningState": "minor",
                      "properties": {"cmis:name": "draft.txt", "cmis:objectTypeId": "cmis:document"}})",
                  "application/json");
  CHECK(BodyJson(m)["properties"]["cmis:versionLabel"]["value"] == "0.1");
  CHECK(BodyJson(m)["properties"]["cmis:isMajorVersion"]["value"] == false);
}

TEST_CASE("Http seed: checkOut by path and by objectId, checkIn major and minor, cancelCheckOut, versions") {
  ServerFixture f;
  auto c = f.Client();
  struct V {
    std::string repo, p;
  };
  for (const V& v : {V{"alpha", ""}, V{"beta", "cmis:"}}) {
    CAPTURE(v.repo);
    const std::string repo = "/demo/" + v.repo;
    const std::string doc = repo + "/docs/readme.txt";
    for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
      CAPTURE(EncodingName(enc));
      // checkOut by path: the latest version; succinct=true gives succinctProperties.
      auto out = PostAs(c, doc, enc, {{"operation", "checkOut"}, {"succinct", "true"}});
      REQUIRE(out);
      CHECK(out->status == 201);
      Json pwc = BodyJson(out)["succinctProperties"];
      CHECK(pwc[v.p + "isPrivateWorkingCopy"] == true);
      // checkIn with major omitted: a new major version.
      auto in = PostAs(c, repo, enc,
                       {{"operation", "checkIn"}, {"objectId", pwc[v.p + "objectId"]}, {"checkinComment", "next"},
                        {"succinct", "true"}});
      REQUIRE(in);
      CHECK(in->status == 201);
      Json ver = BodyJson(in)["succinctProperties"];
      CHECK(ver[v.p + "isMajorVersion"] == true);
      CHECK(ver[v.p + "versionLabel"].get<std::string>().back() == '0');
      // checkIn with major=false: minor part increments.
      auto out2 = BodyJson(PostAs(c, doc, enc, {{"operation", "checkOut"}, {"succinct", "true"}}));
      auto in2 = PostAs(c, repo, enc,
                        {{"operation", "checkIn"},
                         {"objectId", out2["succinctProperties"][v.p + "objectId"]},
                         {"major", "false"},
                         {"succinct", "true"}});
      CHECK(BodyJson(in2)["succinctProperties"][v.p + "versionLabel"].get<std::string>().back() == '1');
      // cancelCheckOut discards the copy.
      auto out3 = BodyJson(PostAs(c, doc, enc, {{"operation", "checkOut"}, {"succinct", "true"}}));
      auto cancel = PostAs(c, repo, enc,
                           {{"operation", "cancelCheckOut"},
                            {"objectId", out3["succinctProperties"][v.p + "objectId"]}});
      CHECK(cancel->status == 200);
    }
    // getAllVersions at {path}/versions and as operation=versions: oldest first.
    auto versions = BodyJson(c.Get((doc + "/versions?succinct=true").c_str()));
    REQUIRE(versions.size() == 7);
    std::vector<std::string> labels;
    for (const Json& x : versions) labels.push_back(x["succinctProperties"][v.p + "versionLabel"]);
    CHECK(labels == std::vector<std::string>{"1.0", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1"});
    auto by_op = BodyJson(c.Get((doc + "?operation=versions&succinct=true&filter=" + v.p + "versionLabel").c_str()));
    CHECK(by_op.size() == 7);
    CHECK(by_op[0]["succinctProperties"].size() == 1);
    // checkOut by objectId: exactly that (earlier) version.
    const std::string first = versions[0]["succinctProperties"][v.p + "objectId"];
    auto old = PostAs(c, repo, Encoding::kJson, {{"operation", "checkOut"}, {"objectId", first}, {"succinct", "true"}});
    CHECK(old->status == 201);
    auto restored = PostAs(c, repo, Encoding::kJson,
                           {{"operation", "checkIn"},
                            {"objectId", BodyJson(old)["succinctProperties"][v.p + "objectId"]},
                            {"succinct", "true"}});
    CHECK(BodyJson(restored)["succinctProperties"][v.p + "versionLabel"] == "5.0");
    CHECK(c.Get(doc.c_str())->body == "hello");
  }
}

TEST_CASE("Http seed: the README's curl lines work") {
  ServerFixture f;
  auto c = f.Client();
  // curl http://127.0.0.1:8080/demo
  auto repos = c.Get("/demo");
  CHECK(repos->status == 200);
  CHECK(BodyJson(repos).contains("beta"));
  // curl http://127.0.0.1:8080/demo/beta/docs/readme.txt
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  // curl -X POST -d operation=checkOut http://127.0.0.1:8080/demo/beta/docs/readme.txt
  auto out = c.Post("/demo/beta/docs/readme.txt", "operation=checkOut", "application/x-www-form-urlencoded");
  CHECK(out->status == 201);
  CHECK(BodyJson(out)["properties"]["cmis:isPrivateWorkingCopy"]["value"] == true);
  // An error response.
  auto err = c.Get("/demo/beta/docs/missing.txt");
  CHECK(err->status == 404);
  CHECK(BodyJson(err)["exception"] == "objectNotFound");
}

TEST_CASE("Http seed: what CmisJS sends is accepted") {
  ServerFixture f;
  auto c = f.Client();
  auto doc = BodyJson(c.Get("/demo/beta/docs/readme.txt?cmisselector=object&succinct=true"));
  const std::string series = doc["succinctProperties"]["cmis:versionSeriesId"];
  // getAllVersions by versionSeriesId only; a series id as objectId is the latest version.
  auto versions = c.Get(("/demo/beta?cmisselector=versions&versionSeriesId=" + series + "&succinct=true").c_str());
  CHECK(BodyJson(versions).size() == 1);
  auto latest = BodyJson(c.Get(("/demo/beta?cmisselector=object&objectId=" + series + "&succinct=true").c_str()));
  CHECK(latest["succinctProperties"]["cmis:versionLabel"] == "1.0");
  // cmisselector=checkedOut (camel case), urlencoded createFolder with objectId.
  CHECK(c.Get("/demo/beta?cmisselector=checkedOut&succinct=true")->status == 200);
  const std::string root = BodyJson(c.Get("/demo/beta"))["beta"]["rootFolderId"];
  auto folder = c.Post("/demo/beta",
                       "objectId=" + root + "&repositoryId=beta&cmisaction=createFolder&propertyId%5B0%5D=cmis%3Aname"
                       "&propertyValue%5B0%5D=Reports&propertyId%5B1%5D=cmis%3AobjectTypeId&propertyValue%5B1%5D=cmis%3Afolder"
                       "&succinct=true",
                       "application/x-www-form-urlencoded;charset=UTF-8");
  CHECK(folder->status == 201);
  // Multipart with the content part first and the fields after it.
  httplib::MultipartFormDataItems items = {
      {"content", "abc", "notes.md", "application/octet-stream"},
      {"cmisaction", "createDocument", "", ""},
      {"propertyId[0]", "cmis:name", "", ""},
      {"propertyValue[0]", "notes.md", "", ""},
      {"propertyId[1]", "cmis:objectTypeId", "", ""},
      {"propertyValue[1]", "cmis:document", "", ""},
      {"succinct", "true", "", ""},
  };
  auto made = c.Post("/demo/beta/Reports", items);
  REQUIRE(made);
  CHECK(made->status == 201);
  CHECK(BodyJson(made)["succinctProperties"]["cmis:contentStreamLength"] == 3);
}

}  // namespace
}  // namespace folio::testing
