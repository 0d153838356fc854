// A reset or restore under SIGKILL (docs/API.md §14.1): a child switches its data
// directory back and forth between two states (the start state and a snapshot), as POST
// /-/reset and POST /-/snapshots/NAME/restore do, and is killed at random moments. After
// each kill the data directory is whole, in one state or the other, opens and reads
// back; the next start removes what the killed one left beside it.
#include <doctest/doctest.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "api/fixture/data_states.h"
#include "folio/store.h"
#include "support/repo_fixture.h"
#include "support/temp_dir.h"

using namespace folio;
using folio::testing::ContentOf;
using folio::testing::MakeDemoMain;
using folio::testing::TempDir;

namespace {

// A data directory with document `name` (content `name`) in demo/main.
void MakeState(const std::string& dir, const std::string& name) {
  auto demo = MakeDemoMain(dir);
  NewObject o;
  o.name = name;
  REQUIRE(demo.repo->CreateDocument(demo.repo->info().root_folder_id, o, ContentSource::FromBytes(name),
                                    VersioningState::kMajor, "w", WriteCheck::Trusted())
              .ok());
}

// Which state `dir` holds: "start.txt" or "snap.txt" ("" when neither or both).
std::string StateOf(const std::string& dir) {
  auto store = Store::Open(dir, {.durable = false, .create = false});
  if (!store.ok()) return "";
  auto repo = (*store)->GetRepository("demo", "main");
  if (!repo.ok()) return "";
  std::string found;
  for (const char* name : {"start.txt", "snap.txt"}) {
    auto doc = (*repo)->GetObjectByPath(name);
    if (!doc.ok()) continue;
    if (!found.empty() || ContentOf(**repo, doc->id) != name) return "";
    found = name;
  }
  return found;
}

// A child switching `data` between the start state and snapshot "snap" for ever (the
// first switch to the snapshot), writing a byte to its pipe after each exchange.
struct Switcher {
  pid_t pid = -1;
  int fd = -1;  // the read end of its pipe

  Switcher(const std::string& data, const std::string& start, const std::string& snapshots) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(fds[0]);
      auto states = api::fixture::DataStates::Open({data, start, snapshots, /*durable=*/true});
      if (!states.ok()) _exit(2);
      for (int i = 0;; ++i) {
        auto staged = (*states)->Stage(i % 2 == 0 ? "snap" : "");
        if (!staged.ok()) _exit(3);
        if (!(*states)->SwapIn(*staged).ok()) _exit(4);
        if (::write(fds[1], "x", 1) != 1) _exit(5);
        (*states)->Discard(*staged);
      }
    }
    ::close(fds[1]);
    fd = fds[0];
  }
  ~Switcher() { ::close(fd); }

  // Waits (up to 30 s each) until `n` more exchanges are done; false when the child
  // stopped or took too long.
  bool WaitSwaps(int n) {
    for (int i = 0; i < n; ++i) {
      pollfd p{fd, POLLIN, 0};
      char c;
      if (::poll(&p, 1, 30000) != 1 || ::read(fd, &c, 1) != 1) return false;
    }
    return true;
  }

  // Kills the child; true when it was still switching (never failed) then.
  bool Kill() {
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status);
  }
};

}  // namespace

TEST_CASE("Fixture crash: a reset or restore killed at any moment leaves one whole state") {
  TempDir root;
  const std::string start = root / "start";  // the start state, as an --ephemeral source
  const std::string data = root / "data";
  const std::string snapshots = root / "snapshots";
  MakeState(start, "start.txt");
  MakeState(root / "snap-src", "snap.txt");
  std::filesystem::create_directories(snapshots);
  std::filesystem::copy(root / "snap-src", snapshots + "/snap", std::filesystem::copy_options::recursive);
  std::filesystem::copy(start, data, std::filesystem::copy_options::recursive);

  // How long one switch takes on this machine now: the kills are spread over it, so that
  // they land in every part of one (the copy, the exchange, the removal) however loaded
  // the machine is.
  int64_t switch_us = 0;
  {
    Switcher child(data, start, snapshots);
    REQUIRE(child.WaitSwaps(1));
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(child.WaitSwaps(4));
    const auto four = std::chrono::steady_clock::now() - t0;
    switch_us = std::chrono::duration_cast<std::chrono::microseconds>(four).count() / 4;
    REQUIRE(child.Kill());
  }
  MESSAGE("one switch takes " << switch_us << " us");
  std::mt19937 rng(20261206);
  int seen_start = 0;
  int seen_snap = 0;
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    // Killed during the switch after `done` exchanges (0 to 3 in turn): the state is the
    // one `done` left (the snapshot when odd) or, when the kill came after the next
    // exchange, the other one.
    const int done = round % 4;
    Switcher child(data, start, snapshots);
    REQUIRE(child.WaitSwaps(done));
    ::usleep(static_cast<useconds_t>(std::uniform_int_distribution<int64_t>(0, switch_us)(rng)));
    REQUIRE(child.Kill());  // it was switching, never failing, when killed
    const std::string state = StateOf(data);
    CHECK((state == "start.txt" || state == "snap.txt"));
    (state == "start.txt" ? seen_start : seen_snap)++;
  }
  // Both states were met: the kills landed on both sides of the exchange.
  CHECK(seen_start > 0);
  CHECK(seen_snap > 0);
  // The next start removes the copies the killed children left beside the data directory.
  REQUIRE(api::fixture::DataStates::Open({data, start, snapshots, true}).ok());
  for (const auto& e : std::filesystem::directory_iterator(root.path())) {
    CHECK(e.path().filename().string().find(".folio-swap-") == std::string::npos);
  }
}
