// The query indexes' background build yields to requests: it runs at a lower scheduling
// priority (a higher nice value) than the threads that serve requests, and pauses
// between the pages it reads while requests are served (repo/query/foreground.h),
// except while a request waits for the index.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

#include "repo/query/foreground.h"
#include "repo/query/query_indexes.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

// The nice value of the calling thread (Linux keeps one per thread).
int ThreadNice() {
  errno = 0;
  return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
}

TEST_CASE("QueryIndexes: the background build runs 10 nice levels below its caller; the caller's thread keeps its own") {
  RepoFixture f;
  for (int i = 0; i < 20; ++i) {
    NewObject o;
    o.name = "doc-" + std::to_string(i) + ".txt";
    REQUIRE(f.repo->CreateDocument(f.root, o, ContentSource::FromBytes("text"), VersioningState::kMajor, "x",
                                   WriteCheck::Trusted()).ok());
  }
  const int before = ThreadNice();
  std::atomic<int> build_nice{-100};
  std::atomic<bool> built{false};
  query::QueryIndexes indexes(*f.store, [&](const std::string& line) {
    if (line.find(": built: ") == std::string::npos) return;
    build_nice = ThreadNice();  // on the thread that built
    built = true;
  });
  indexes.StartBackground();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!built && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(built);
  // Relative to the caller's (a server started with nice keeps its order), at most 19.
  CHECK(build_nice == std::min(query::QueryIndexes::kMaxNice, before + query::QueryIndexes::kBackgroundNiceIncrement));
  CHECK(ThreadNice() == before);
}

// A repository of 4 folders of 5 documents, and a thread that touches `fg` every 2 ms
// (requests served one after the other) until `serving` is false.
struct Served {
  RepoFixture f;
  // Quiet after 400 ms: far longer than the 2 ms between touches, however loaded the
  // machine.
  query::Foreground fg{query::Foreground::Timing{std::chrono::milliseconds(400), std::chrono::milliseconds(60000),
                                                 std::chrono::milliseconds(0)}};
  std::atomic<bool> serving{true};
  std::atomic<bool> built{false};
  std::thread requests;

  Served() {
    for (int d = 0; d < 4; ++d) {
      const ObjectData folder = f.Folder(f.root, "folder-" + std::to_string(d));
      for (int i = 0; i < 5; ++i) f.Doc(folder.id, "doc-" + std::to_string(i) + ".txt", "text");
    }
    fg.Touch();  // a request before the build starts, whenever the thread does
    requests = std::thread([this] {
      while (serving) {
        fg.Touch();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~Served() {
    serving = false;
    requests.join();
  }
  query::QueryIndex::Logger Log() {
    return [this](const std::string& line) {
      if (line.find(": built: ") != std::string::npos) built = true;
    };
  }
};

bool WaitFor(const std::atomic<bool>& flag, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!flag && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return flag;
}

TEST_CASE("QueryIndexes: the background build pauses while requests are served, and goes on once they stop") {
  Served s;
  query::QueryIndexes indexes(*s.f.store, s.Log(), {}, false, &s.fg);
  indexes.StartBackground();
  // 24 objects take milliseconds to index; a build that did not pause would be done.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  CHECK_FALSE(s.built);
  s.serving = false;
  REQUIRE(WaitFor(s.built, std::chrono::seconds(60)));
  CHECK(s.fg.pauses() >= 1);
}

TEST_CASE("QueryIndexes: a request that waits for the index does not wait for the build's pauses") {
  Served s;
  query::QueryIndexes indexes(*s.f.store, s.Log(), {}, false, &s.fg);
  indexes.StartBackground();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  REQUIRE_FALSE(s.built);  // paused
  auto index = indexes.Get("demo", "main");
  REQUIRE(index.ok());
  // As a query does (without a Foreground: a request never pauses): the build it waits
  // for goes on although requests are still being served. Each pause would otherwise
  // last the minute of max_pause.
  const auto start = std::chrono::steady_clock::now();
  CHECK((*index)->Prepare(*s.f.repo).ok());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  CHECK(s.serving);
  CHECK(WaitFor(s.built, std::chrono::seconds(10)));
}

}  // namespace
}  // namespace folio::testing
