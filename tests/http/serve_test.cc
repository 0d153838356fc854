// `folio serve` as a process (docs/API.md §2): the ready line, --ephemeral leaves the data
// untouched, SIGTERM stops it cleanly with exit code 0.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "http/server_fixture.h"
#include "support/child_process.h"
#include "support/http_client.h"

namespace folio::testing {
namespace {

TEST_CASE("Http serve: ready line, --ephemeral, clean stop on SIGTERM") {
  TempDir dir;
  BuildFixtureData(dir.path());
  Child child = Spawn({FOLIO_BINARY, "serve", "--data", dir.path(), "--port", "0", "--ephemeral", "--log-level",
                       "warn", "--threads", "2"});
  char line[256] = {0};
  REQUIRE(std::fgets(line, sizeof(line), child.out) != nullptr);
  std::string ready(line);
  REQUIRE(ready.rfind("folio listening on http://127.0.0.1:", 0) == 0);
  CHECK(ready.back() == '\n');
  const int port = std::stoi(ready.substr(std::string("folio listening on http://127.0.0.1:").size()));
  auto c = TestClient("127.0.0.1", port);
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  auto made = c.Post("/demo/beta/docs", R"({"operation":"createFolder","properties":{"cmis:name":"tmp"}})",
                     "application/json");
  CHECK(made->status == 201);
  ::kill(child.pid, SIGTERM);
  CHECK(WaitExit(child.pid) == 0);
  char rest[16];
  CHECK(std::fgets(rest, sizeof(rest), child.out) == nullptr);  // exactly one line on stdout
  std::fclose(child.out);
  // The fixture is untouched.
  auto store = Store::Open(dir.path(), {.durable = false});
  REQUIRE(store.ok());
  auto repo = (*store)->GetRepository("demo", "beta");
  CHECK(!(*repo)->GetObjectByPath("docs/tmp").ok());
}

TEST_CASE("Http serve: SIGINT stops it too; bad options fail") {
  TempDir dir;
  Child child = Spawn({FOLIO_BINARY, "serve", "--data", dir / "new", "--port", "0", "--log-level", "off"});
  char line[256] = {0};
  REQUIRE(std::fgets(line, sizeof(line), child.out) != nullptr);
  ::kill(child.pid, SIGINT);
  CHECK(WaitExit(child.pid) == 0);
  std::fclose(child.out);
  Child bad = Spawn({FOLIO_BINARY, "serve", "--variant", "C"});
  CHECK(WaitExit(bad.pid) != 0);
  std::fclose(bad.out);
}

}  // namespace
}  // namespace folio::testing
