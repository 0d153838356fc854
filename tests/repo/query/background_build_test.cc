// The query indexes' background build yields to requests: it runs at a lower scheduling
// priority (a higher nice value) than the threads that serve requests.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

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

}  // namespace
}  // namespace folio::testing
