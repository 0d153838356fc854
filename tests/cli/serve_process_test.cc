// `folio serve` as a test fixture runs it: --exit-with-parent stops it when the process
// that started it dies; an --ephemeral copy left by a SIGKILL is removed by the next
// start, and nothing else is; a data directory that does not fit is refused by name.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli/ephemeral_copy.h"
#include "http/server_fixture.h"
#include "support/child_process.h"
#include "support/http_client.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Waits up to a minute for `pid` (a child, or an orphan handed to this subreaper);
// -1 if it is still running then (the test fails instead of hanging).
int WaitExitWithin(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r < 0) return -2;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// This process adopts its orphaned descendants while it lives (so a test can wait for
// a grandchild whose parent it killed).
struct Subreaper {
  Subreaper() { REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0); }
  ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

// A "test runner" child that starts `folio serve ARGS` and then waits to be killed; the
// server's pid and its ready line come back through `runner_out`.
struct Runner {
  pid_t runner = -1;
  pid_t server = -1;
  std::string ready;
};

Runner StartRunner(const std::vector<std::string>& serve_args, const std::vector<std::string>& env) {
  int pid_pipe[2];
  REQUIRE(::pipe(pid_pipe) == 0);
  int out_pipe[2];
  REQUIRE(::pipe(out_pipe) == 0);
  Runner r;
  r.runner = ::fork();
  REQUIRE(r.runner >= 0);
  if (r.runner == 0) {
    const pid_t server = ::fork();
    if (server == 0) {
      ::dup2(out_pipe[1], 1);
      for (int fd : {pid_pipe[0], pid_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
      for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
      std::vector<std::string> args = {FOLIO_BINARY, "serve"};
      args.insert(args.end(), serve_args.begin(), serve_args.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    const std::string text = std::to_string(server) + "\n";
    (void)!::write(pid_pipe[1], text.data(), text.size());
    for (;;) ::pause();
  }
  ::close(pid_pipe[1]);
  ::close(out_pipe[1]);
  FILE* pids = ::fdopen(pid_pipe[0], "r");
  char line[256] = {0};
  REQUIRE(std::fgets(line, sizeof line, pids) != nullptr);
  std::fclose(pids);
  r.server = std::atoi(line);
  Child out{r.server, ::fdopen(out_pipe[0], "r")};
  r.ready = out.ReadLine();
  std::fclose(out.out);
  return r;
}

std::vector<std::string> CopiesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("folio-ephemeral-", 0) == 0) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE("folio serve --exit-with-parent: the server stops cleanly when its parent dies; without it, it stays") {
  TempDir data;
  BuildFixtureData(data.path());
  TempDir tmp;
  Subreaper subreaper;
  const std::vector<std::string> env = {"TMPDIR=" + tmp.path()};

  Runner with = StartRunner({"--data", data.path(), "--port", "0", "--ephemeral", "--exit-with-parent",
                             "--log-level", "warn", "--threads", "2"},
                            env);
  const int port = PortOfReadyLine(with.ready);
  REQUIRE_MESSAGE(port > 0, with.ready);
  auto c = TestClient("127.0.0.1", port);
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  CHECK(CopiesIn(tmp.path()).size() == 1);
  ::kill(with.runner, SIGKILL);
  CHECK(WaitExit(with.runner) == 128 + SIGKILL);
  // The kernel sent SIGTERM: a clean stop, and the ephemeral copy is gone with it.
  CHECK(WaitExitWithin(with.server) == 0);
  CHECK(CopiesIn(tmp.path()).empty());

  Runner without = StartRunner({"--data", data.path(), "--port", "0", "--log-level", "warn", "--threads", "2"}, env);
  const int port2 = PortOfReadyLine(without.ready);
  REQUIRE(port2 > 0);
  ::kill(without.runner, SIGKILL);
  CHECK(WaitExit(without.runner) == 128 + SIGKILL);
  auto c2 = TestClient("127.0.0.1", port2);
  auto still = c2.Get("/demo/beta/docs/readme.txt");
  REQUIRE(still);
  CHECK(still->body == "hello");
  ::kill(without.server, SIGTERM);
  CHECK(WaitExitWithin(without.server) == 0);
}

// Writes an owner mark into a planted copy directory.
void PlantCopy(const std::string& dir, const std::string& mark) {
  fs::create_directories(dir + "/data");
  if (!mark.empty()) std::ofstream(dir + "/owner.json") << mark;
}

std::string PidNamespace() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/ns/pid", ec).string();
}

std::string Mark(long pid, unsigned long long start, const std::string& boot,
                 const std::string& pid_namespace = PidNamespace()) {
  return R"({"folioEphemeral": 1, "pid": )" + std::to_string(pid) + R"(, "startTime": )" + std::to_string(start) +
         R"(, "bootId": ")" + boot + R"(", "pidNamespace": ")" + pid_namespace + R"("})";
}

TEST_CASE("folio serve --ephemeral: a copy a SIGKILL left is removed by the next start; nothing else is") {
  TempDir data;
  BuildFixtureData(data.path());
  TempDir tmp;
  const std::vector<std::string> env = {"TMPDIR=" + tmp.path()};
  const std::vector<std::string> args = {FOLIO_BINARY, "serve", "--data", data.path(), "--port", "0", "--ephemeral",
                                         "--log-level", "warn", "--threads", "2"};
  Child first = Spawn(args, env);
  REQUIRE(PortOfReadyLine(first.ReadLine()) > 0);
  const std::vector<std::string> left = CopiesIn(tmp.path());
  REQUIRE(left.size() == 1);
  CHECK(fs::exists(tmp / (left[0] + "/owner.json")));
  CHECK(fs::exists(tmp / (left[0] + "/data/demo/beta/docs/readme.txt")));
  ::kill(first.pid, SIGKILL);
  CHECK(WaitExit(first.pid) == 128 + SIGKILL);
  std::fclose(first.out);
  CHECK(CopiesIn(tmp.path()) == left);  // a kill leaves it

  // Decoys that must survive: no mark, a live owner (this process), a wrong name, a
  // symbolic link to a dead copy, a file, an unreadable mark.
  const std::string boot = [] {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(in, id);
    return id;
  }();
  std::string self_start;
  {
    std::ifstream in("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), {});
    std::istringstream rest(stat.substr(stat.rfind(')') + 2));
    for (int field = 3; field <= 22; ++field) rest >> self_start;
  }
  PlantCopy(tmp / "folio-ephemeral-nomark", "");
  PlantCopy(tmp / "folio-ephemeral-alive1", Mark(::getpid(), std::stoull(self_start), boot));
  PlantCopy(tmp / "folio-ephemeral-toolong1", Mark(999999999, 1, boot));
  PlantCopy(tmp / "elsewhere-dead", Mark(999999999, 1, boot));
  fs::create_directory_symlink(tmp / "elsewhere-dead", tmp / "folio-ephemeral-link01");
  std::ofstream(tmp / "folio-ephemeral-file01") << "not a directory";
  PlantCopy(tmp / "folio-ephemeral-badjsn", "{not json");
  PlantCopy(tmp / "folio-ephemeral-pidns1", Mark(999999999, 1, boot, "pid:[1]"));  // another container's
  // Copies whose owner is gone in other ways: another boot, a reused pid.
  PlantCopy(tmp / "folio-ephemeral-reboot", Mark(::getpid(), std::stoull(self_start), "another-boot"));
  PlantCopy(tmp / "folio-ephemeral-reused", Mark(::getpid(), std::stoull(self_start) + 1, boot));

  Child second = Spawn(args, env);
  REQUIRE(PortOfReadyLine(second.ReadLine()) > 0);
  const std::vector<std::string> now = CopiesIn(tmp.path());
  CHECK(std::find(now.begin(), now.end(), left[0]) == now.end());
  CHECK(!fs::exists(tmp / "folio-ephemeral-reboot"));
  CHECK(!fs::exists(tmp / "folio-ephemeral-reused"));
  for (const char* kept : {"folio-ephemeral-nomark", "folio-ephemeral-alive1", "folio-ephemeral-toolong1",
                           "elsewhere-dead/owner.json", "folio-ephemeral-link01", "folio-ephemeral-file01",
                           "folio-ephemeral-badjsn", "folio-ephemeral-pidns1"}) {
    CAPTURE(kept);
    CHECK(fs::exists(fs::symlink_status(tmp / kept)));
  }
  ::kill(second.pid, SIGTERM);
  CHECK(WaitExit(second.pid) == 0);
  std::fclose(second.out);
  // Its own copy went at exit; the decoys are still there.
  CHECK(CopiesIn(tmp.path()) == std::vector<std::string>{"folio-ephemeral-alive1", "folio-ephemeral-badjsn",
                                                         "folio-ephemeral-file01", "folio-ephemeral-link01",
                                                         "folio-ephemeral-nomark", "folio-ephemeral-pidns1",
                                                         "folio-ephemeral-toolong1"});
}

TEST_CASE("folio serve: a missing --ephemeral source, a domain or repository directory, or a foreign one is refused") {
  TempDir dir;
  BuildFixtureData(dir / "data");
  fs::create_directories(dir / "foreign/stuff");
  std::ofstream(dir / "foreign/notes.txt") << "mine";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{"--data", dir / "nonexistent/x", "--ephemeral"},
       "folio serve: --ephemeral serves a copy of --data '" + dir / "nonexistent/x" + "', which does not exist"},
      {{"--data", dir / "data/demo"},
       "folio serve: '" + dir / "data/demo" + "' is a domain directory, not a data directory: try folio serve --data " +
           dir / "data"},
      {{"--data", dir / "data/demo/beta", "--ephemeral"},
       "folio serve: '" + dir / "data/demo/beta" + "' is a repository directory, not a data directory"},
      {{"--data", dir / "foreign"}, "folio serve: '" + dir / "foreign" + "' is not a Folio data directory"},
      {{"--data", dir / "foreign/notes.txt"}, "folio serve: '" + dir / "foreign/notes.txt" + "' is not a directory"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    TempDir err;
    std::vector<std::string> args = {"/bin/sh", "-c", "exec \"$0\" serve --port 0 \"$@\" 2>" + err / "stderr",
                                     FOLIO_BINARY};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Child child = Spawn(args);
    CHECK(child.ReadLine() == "");  // no ready line
    CHECK(WaitExit(child.pid) == 1);
    std::fclose(child.out);
    std::ifstream in(err / "stderr");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(Contains(text, c.message));
  }
  CHECK(!fs::exists(dir / "foreign/.folio"));  // nothing was written into it
  CHECK(!fs::exists(dir / "nonexistent"));
}

TEST_CASE("folio serve: a port in use is named, with what to do") {
  ServerFixture f;  // holds a port
  TempDir dir;
  TempDir err;
  Child child = Spawn({"/bin/sh", "-c", "exec \"$0\" serve --port \"$1\" --data \"$2\" 2>\"$3\"", FOLIO_BINARY,
                       std::to_string(f.port()), dir / "data", err / "stderr"});
  CHECK(child.ReadLine() == "");
  CHECK(WaitExit(child.pid) == 1);
  std::fclose(child.out);
  std::ifstream in(err / "stderr");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(Contains(text, "cannot listen on 127.0.0.1:" + std::to_string(f.port())));
  CHECK(Contains(text, "choose another port: --port N (--port 0 picks a free one)"));
}

// Rule S1, "a failed start creates nothing" (docs/STORAGE.md §10, docs/API.md §2).
TEST_CASE("folio serve: a start that fails on a taken port or a bad option creates nothing") {
  ServerFixture f;  // holds a port
  TempDir dir;
  fs::create_directories(dir / "empty");
  struct Case {
    std::string data;
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {dir / "new", {"--port", std::to_string(f.port())}, "cannot listen on 127.0.0.1:" + std::to_string(f.port())},
      {dir / "empty", {"--port", std::to_string(f.port())}, "cannot listen on 127.0.0.1:"},
      {dir / "new", {"--port", "0", "--log-level", "loud"}, "--log-level must be"},
      {dir / "new", {"--port", "0", "--host", "192.0.2.1"}, "cannot listen on 192.0.2.1:0"},  // not this machine's
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    TempDir err;
    std::vector<std::string> args = {FOLIO_BINARY, "serve", "--data", c.data};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Child child = Spawn(args, {}, err / "stderr");
    CHECK(child.ReadLine() == "");  // no ready line
    CHECK(WaitExit(child.pid) != 0);
    std::fclose(child.out);
    std::ifstream in(err / "stderr");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(Contains(text, c.message));
    CHECK(!fs::exists(dir / "new"));
    CHECK(fs::is_empty(dir / "empty"));
  }
}

}  // namespace
}  // namespace folio::testing
