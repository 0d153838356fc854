// HTTP-level crash test: a client does mixed writes through `folio serve` (create,
// checkOut, setContent, checkIn, rename, move, delete, deleteTree) while the server is
// SIGKILLed at a random moment; after each restart every change that was answered 2xx
// is found, and fsck is clean. A handful of kills in the suite; FOLIO_CRASH_KILLS=100
// (or more) for the long run:
//   FOLIO_CRASH_KILLS=100 build/tests/folio_tests -tc='HTTP crash*'
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "folio/fsck.h"
#include "http/server_fixture.h"
#include "support/http_client.h"
#include "support/serve_process.h"
#include "support/temp_dir.h"

namespace folio::testing {
namespace {

struct Expected {
  std::string path;     // repository-relative
  std::string content;  // what GET of the path answers
  bool deleted = false;  // then GET of the path answers 404
};

}  // namespace

TEST_CASE("HTTP crash: SIGKILL at random moments; every 2xx answer survives, fsck clean") {
  const char* env = std::getenv("FOLIO_CRASH_KILLS");
  const int kills = env != nullptr ? std::max(1, std::atoi(env)) : 5;
  std::mt19937 rng(std::random_device{}());
  TempDir dir;
  BuildFixtureData(dir.path());
  std::map<std::string, Expected> known;  // by document key, acknowledged state only
  int acknowledged = 0;
  for (int round = 0; round < kills; ++round) {
    CAPTURE(round);
    ServeProcess server(dir.path());
    const int port = server.port();
    std::atomic<bool> killed{false};
    std::thread killer([&, delay = std::uniform_int_distribution<int>(5, 250)(rng)] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      killed = true;
      server.Stop(SIGKILL);
    });
    auto c = TestClient("127.0.0.1", port);
    c.set_read_timeout(30, 0);
    auto post = [&](const std::string& path, const Json& body) -> std::optional<Json> {
      auto r = c.Post(("/demo/beta" + path).c_str(), body.dump(), "application/json");
      if (!r) return std::nullopt;  // killed with the request in flight: in doubt
      REQUIRE_MESSAGE(r->status < 300, path << " " << body.dump() << " -> " << r->body);
      ++acknowledged;
      return BodyJson(r);
    };
    const std::string folder = "f" + std::to_string(round);
    if (post("/docs", Json{{"operation", "createFolder"},
                           {"properties", {{"cmis:name", folder}, {"cmis:objectTypeId", "cmis:folder"}}}})) {
      std::string key;
      for (int i = 0; !killed; ++i) {
        key = std::to_string(round) + "-" + std::to_string(i);
        const std::string name = "c" + key + ".txt";
        // Each step: the request, then (only when answered) the state it acknowledged.
        if (!post("/docs", Json{{"operation", "createDocument"},
                                {"content", "v1-" + key},
                                {"properties", {{"cmis:name", name}, {"cmis:objectTypeId", "cmis:document"}}}})) {
          break;
        }
        known[key] = {"docs/" + name, "v1-" + key};
        if (!post("/docs/" + name, Json{{"operation", "checkOut"}})) break;
        if (!post("/docs/" + name, Json{{"operation", "setContent"}, {"content", "v2-" + key}})) break;
        if (!post("/docs/" + name, Json{{"operation", "checkIn"}})) break;
        known[key].content = "v2-" + key;
        const std::string renamed = "r" + key + ".txt";
        if (!post("/docs/" + name, Json{{"operation", "update"}, {"properties", {{"cmis:name", renamed}}}})) break;
        known[key].path = "docs/" + renamed;
        auto target = c.Get(("/demo/beta/docs/" + folder + "?cmisselector=object&succinct=true").c_str());
        auto source = c.Get("/demo/beta/docs?cmisselector=object&succinct=true");
        if (!target || !source) break;
        if (!post("/docs/" + renamed,
                  Json{{"operation", "move"},
                       {"targetFolderId", BodyJson(target)["succinctProperties"]["cmis:objectId"]},
                       {"sourceFolderId", BodyJson(source)["succinctProperties"]["cmis:objectId"]}})) {
          break;
        }
        known[key].path = "docs/" + folder + "/" + renamed;
        if (i % 3 == 2) {
          if (!post("/docs/" + folder + "/" + renamed, Json{{"operation", "delete"}})) break;
          known[key].deleted = true;
        }
      }
      // The request cut off by the kill may or may not have landed: that document is
      // in doubt, and no longer checked.
      if (killed) known.erase(key);
    }
    killer.join();
    // Whatever was in flight at the kill is in doubt: its document is no longer checked.
    // (A request answered just before the kill is known; one cut off is not.)
    ServeProcess again(dir.path());
    auto r = TestClient("127.0.0.1", again.port());
    r.set_read_timeout(30, 0);
    for (auto it = known.begin(); it != known.end();) {
      const Expected& e = it->second;
      auto got = r.Get(("/demo/beta/" + e.path).c_str());
      REQUIRE(got);
      if (e.deleted) {
        CHECK_MESSAGE(got->status == 404, e.path << " (deleted) -> " << got->status);
        it = known.erase(it);
        continue;
      }
      CHECK_MESSAGE(got->status == 200, e.path << " -> " << got->body);
      CHECK_MESSAGE(got->body == e.content, e.path);
      ++it;
    }
    // deleteTree of this round's folder, answered or not, then everything checked again
    // at the next restart: a folder gone is gone with all its documents.
    auto folder_obj = r.Get(("/demo/beta/docs/" + folder + "?cmisselector=object&succinct=true").c_str());
    if (folder_obj && folder_obj->status == 200 && round % 2 == 1) {
      auto tree = r.Post(("/demo/beta/docs/" + folder).c_str(), Json{{"operation", "deleteTree"}}.dump(),
                         "application/json");
      REQUIRE(tree);
      CHECK_MESSAGE(tree->status < 300, tree->body);
      for (auto& [key, e] : known) {
        if (e.path.rfind("docs/" + folder + "/", 0) == 0) e.deleted = true;
      }
      CHECK(r.Get(("/demo/beta/docs/" + folder).c_str())->status == 404);
    }
    again.Stop(SIGTERM);
    auto report = RunFsck(dir.path(), {});
    REQUIRE(report.ok());
    for (const Finding& f : report->findings) {
      CHECK_MESSAGE(f.severity == Severity::kNote, f.id << " " << f.path << ": " << f.message);
    }
  }
  MESSAGE(kills << " kills, " << acknowledged << " acknowledged writes checked after restarts");
}

}  // namespace folio::testing
