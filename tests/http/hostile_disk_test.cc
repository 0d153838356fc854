// What an unlucky operator's data directory holds, over HTTP: symbolic links in place
// of a domain or a repository (never followed: objectNotFound, and fsck names them).
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "folio/fsck.h"
#include "http/server_fixture.h"

namespace folio::testing {

TEST_CASE("Hostile disk: a symlinked domain or repository answers objectNotFound; fsck reports it") {
  ServerFixture f;
  TempDir elsewhere;
  std::filesystem::copy(f.dir() + "/demo", elsewhere / "demo", std::filesystem::copy_options::recursive);
  REQUIRE(::symlink((elsewhere / "demo").c_str(), (f.dir() + "/linkdom").c_str()) == 0);
  REQUIRE(::symlink((elsewhere / "demo/beta").c_str(), (f.dir() + "/demo/linkrepo").c_str()) == 0);
  // A repository whose metadata directory is a symlink to another repository's.
  std::filesystem::create_directories(f.dir() + "/demo/halfrepo");
  REQUIRE(::symlink((elsewhere / "demo/beta/.folio").c_str(), (f.dir() + "/demo/halfrepo/.folio").c_str()) == 0);
  auto c = f.Client();
  for (const char* path : {"/linkdom", "/linkdom/beta", "/demo/linkrepo", "/demo/linkrepo/docs/readme.txt",
                           "/demo/halfrepo", "/demo/halfrepo/docs/readme.txt"}) {
    CAPTURE(path);
    auto r = c.Get(path);
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK(BodyJson(r)["exception"] == "objectNotFound");
  }
  auto posted = c.Post("/demo/linkrepo/docs",
                       "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=x"
                       "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder",
                       "application/x-www-form-urlencoded");
  REQUIRE(posted);
  CHECK(posted->status == 404);
  CHECK(!std::filesystem::exists(elsewhere / "demo/beta/docs/x"));
  // The domain list and the repository list skip them.
  CHECK(c.Get("/")->body.find("linkdom") == std::string::npos);
  CHECK(c.Get("/demo")->body.find("linkrepo") == std::string::npos);
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");  // the rest is served
  auto report = RunFsck(f.dir(), {});
  REQUIRE(report.ok());
  bool dom = false, repo = false, meta = false;
  for (const Finding& finding : report->findings) {
    if (finding.id != "symlink-not-served") continue;
    CHECK(finding.severity == Severity::kWarning);
    dom |= finding.path == "linkdom";
    repo |= finding.path == "demo/linkrepo";
    meta |= finding.path == "demo/halfrepo/.folio";
  }
  CHECK(dom);
  CHECK(repo);
  CHECK(meta);
  CHECK_FALSE(report->clean());  // an operator is told (fsck exits 1)
}

}  // namespace folio::testing
