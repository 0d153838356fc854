// folio::testing::Server (include/folio/testing.h): the copy, its removal, an empty
// fixture, what it refuses, and that the header's example is the one the suite runs.
#include "folio/testing.h"

#include <doctest/doctest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "http/server_fixture.h"
#include "support/http_client.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// The lines between "// BEGIN EXAMPLE" and "// END EXAMPLE" in `text`, without `prefix`.
std::string ExampleIn(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line, out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.find("// BEGIN EXAMPLE") == 0) {
      inside = true;
    } else if (line.find("// END EXAMPLE") == 0) {
      inside = false;
    } else if (inside) {
      out += (line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line) + "\n";
    }
  }
  return out;
}

TEST_CASE("folio::testing::Server: the header's example is the test the suite runs") {
  const std::string header = ExampleIn(ReadText(FOLIO_SOURCE_DIR "/include/folio/testing.h"), "// ");
  const std::string test = ExampleIn(ReadText(FOLIO_SOURCE_DIR "/tests/testing/server_example_test.cc"), "");
  REQUIRE(!header.empty());
  CHECK(header == test);
}

TEST_CASE("folio::testing::Server: serves a copy on a free port; the copy goes with the object") {
  TempDir fixture;
  BuildFixtureData(fixture.path());
  std::string copy;
  {
    Server a(fixture.path());
    Server b(fixture.path());  // two at once: two ports, two copies
    CHECK(a.port() != b.port());
    CHECK(a.url() == "http://127.0.0.1:" + std::to_string(a.port()) + "/");
    CHECK(a.data_dir() != b.data_dir());
    copy = a.data_dir();
    auto c = TestClient("127.0.0.1", a.port());
    CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
    CHECK(c.Post("/demo/beta/docs/readme.txt", "operation=setContent&content=changed",
                 "application/x-www-form-urlencoded")
              ->status == 201);
    CHECK(ReadText(a.data_dir() + "/demo/beta/docs/readme.txt") == "changed");
    auto cb = TestClient("127.0.0.1", b.port());
    CHECK(cb.Get("/demo/beta/docs/readme.txt")->body == "hello");  // b's copy is its own
    Server moved = std::move(a);
    CHECK(moved.data_dir() == copy);
    CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "changed");
  }
  CHECK(!fs::exists(copy));
  CHECK(!fs::exists(fs::path(copy).parent_path()));
  CHECK(ReadText(fixture / "demo/beta/docs/readme.txt") == "hello");
}

TEST_CASE("folio::testing::Server: no fixture is an empty data directory; options apply") {
  Server empty;
  auto c = TestClient("127.0.0.1", empty.port());
  CHECK(c.Get("/")->body == R"({"domains":[],"readOnly":false})");
  CHECK(c.Post("/", "operation=createDomain&domainId=acme", "application/x-www-form-urlencoded")->status == 201);
  CHECK(c.Post("/acme", "operation=createRepository&repositoryId=docs", "application/x-www-form-urlencoded")
            ->status == 201);
  CHECK(fs::is_directory(empty.data_dir() + "/acme/docs"));

  ServerOptions options;
  options.read_only = true;
  options.variant = "A";
  TempDir fixture;
  BuildFixtureData(fixture.path());
  Server read_only(fixture.path(), options);
  auto r = TestClient("127.0.0.1", read_only.port());
  auto refused = r.Post("/demo/beta/docs", "operation=createFolder&name=x", "application/x-www-form-urlencoded");
  CHECK(refused->status == 403);
}

TEST_CASE("folio::testing::Server: a fixture that is not a data directory throws, naming it") {
  TempDir dir;
  BuildFixtureData(dir / "data");
  auto message_of = [](const std::string& fixture) -> std::string {
    try {
      Server s(fixture);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no exception)";
  };
  CHECK(message_of(dir / "missing") == "folio::testing::Server: fixture '" + dir / "missing" + "' does not exist");
  CHECK(message_of(dir / "data/demo/beta") ==
        "folio::testing::Server: fixture '" + dir / "data/demo/beta" +
            "' is a repository directory, not a data directory: try folio serve --data " + dir / "data");
}

}  // namespace
}  // namespace folio::testing

namespace folio::testing {

TEST_CASE("folio::testing::Server: Reset, Snapshot, Restore, a fault header and WaitForToken") {
  TempDir fixture;
  BuildFixtureData(fixture.path());
  ServerOptions options;
  options.faults = true;
  Server server(fixture.path(), options);
  auto c = TestClient("127.0.0.1", server.port());
  auto write = [&](const std::string& content) {
    auto r = c.Post("/demo/beta/docs/readme.txt", "operation=setContent&content=" + content,
                    "application/x-www-form-urlencoded");
    REQUIRE(r);
    REQUIRE(r->status == 201);
    return r->get_header_value("Folio-Change-Token");
  };
  const std::string token = write("one");
  CHECK(server.WaitForToken(token, std::chrono::seconds(5)));
  // A token not reached yet: false once the time is up.
  const size_t slash = token.rfind('/');
  const std::string later = token.substr(0, slash + 1) + std::to_string(std::stoull(token.substr(slash + 1)) + 5);
  CHECK(!server.WaitForToken(later, std::chrono::milliseconds(50)));
  CHECK_THROWS_AS(server.WaitForToken("nonsense"), std::runtime_error);

  server.Snapshot("one");
  write("two");
  server.Restore("one");
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "one");
  server.Reset();
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  CHECK_THROWS_AS(server.Restore("missing"), std::runtime_error);
  CHECK_THROWS_AS(server.Snapshot("bad/name"), std::runtime_error);

  CHECK(FaultHeader({.status = 503, .delay_ms = 10}) == "status=503;delay=10");
  CHECK(FaultHeader({.truncate = 0, .reset = true}) == "truncate=0;reset");
  auto failed = c.Get("/demo/beta/docs/readme.txt", {{kFaultHeader, FaultHeader({.status = 503})}});
  REQUIRE(failed);
  CHECK(failed->status == 503);
}

}  // namespace folio::testing
