// folio::testing::Server: a Folio server inside a test's own process, serving a
// throw-away copy of a fixture data directory on a free port of 127.0.0.1, stopped and
// removed when it goes out of scope. For tests of code that talks to a content
// repository (CMIS Browser Binding or Folio's operation API) over HTTP.
//
// Installed with Folio (`cmake --install`, or the folio-dev package); link with
// `pkg-config --libs folio-testing`, or in CMake `find_package(folio)` and the target
// `folio::testing`. The header needs C++17 and the standard library only.
//
// Example (tests/testing/server_example_test.cc, where Curl() runs curl: any HTTP
// client will do; the test suite runs it):
//
// BEGIN EXAMPLE
// TEST_CASE("a client reads the sample data and writes to its own copy") {
//   folio::testing::Server server(FOLIO_SAMPLE_DATA);  // a copy of sample-data/, on a free port
//   const std::string repo = server.url() + "demo/cmis";  // server.url() + "demo" is a CMIS service URL
//   CHECK(Curl(repo + "/README.md").rfind("# Welcome to Folio", 0) == 0);
//   Curl("-d operation=createFolder -d name=scratch " + repo);
//   CHECK(std::filesystem::is_directory(server.data_dir() + "/demo/cmis/scratch"));
// }  // the server stops here and its copy is removed; sample-data/ never changed
// END EXAMPLE
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace folio::testing {

struct ServerOptions {
  // The variant ("A" or "B") of repositories created without one.
  std::string variant = "B";
  // Refuse every write with permissionDenied (as `folio serve --read-only`).
  bool read_only = false;
  // Worker threads; a test rarely needs more.
  std::size_t threads = 2;
  // Log one line per request through spdlog's default logger (level info); off, the
  // level is warn. The level is spdlog's own, shared with the rest of the process.
  bool log_requests = false;
  // Let requests ask for their own failure with the Folio-Fault header (as `folio serve
  // --faults`; see FaultHeader below).
  bool faults = false;
};

// A failure a request asks for (docs/API.md §14.4), on a server with `faults`: send the
// header kFaultHeader with the value FaultHeader(...) gives.
struct Fault {
  int status = 0;              // 400-599: answered with that error, the request not run
  int delay_ms = 0;            // > 0: the request runs after this wait
  long long truncate = -1;     // >= 0: the request runs, its body stops after so many bytes
  bool reset = false;          // the request runs, the connection closes without an answer
};
inline constexpr const char* kFaultHeader = "Folio-Fault";
// The Folio-Fault header's value for `fault` ("status=503;delay=100").
inline std::string FaultHeader(const Fault& fault) {
  std::string out;
  auto add = [&out](const std::string& piece) { out += (out.empty() ? "" : ";") + piece; };
  if (fault.status != 0) add("status=" + std::to_string(fault.status));
  if (fault.delay_ms > 0) add("delay=" + std::to_string(fault.delay_ms));
  if (fault.truncate >= 0) add("truncate=" + std::to_string(fault.truncate));
  if (fault.reset) add("reset");
  return out;
}

class Server {
 public:
  // Copies the data directory `fixture_dir` (as `folio serve --ephemeral` does: into
  // $TMPDIR, marked so that a copy a killed test left is removed by the next start)
  // and serves the copy on a free port of 127.0.0.1. Returns once the server accepts
  // requests. An empty `fixture_dir` serves a new, empty data directory.
  // Throws std::runtime_error, whose message names the directory and the reason, when
  // `fixture_dir` is not a Folio data directory (a domain or repository directory, a
  // missing one), or the copy or the server cannot be made: a fixture that cannot
  // start should fail the test at once, in any test framework.
  explicit Server(const std::string& fixture_dir = "", const ServerOptions& options = {});
  // Stops the server (requests in flight finish first) and removes the copy.
  ~Server();
  Server(Server&&) noexcept;
  Server& operator=(Server&&) noexcept;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // "http://127.0.0.1:PORT/": the server URL; `url() + "DOMAIN"` is a CMIS service URL.
  const std::string& url() const;
  int port() const;
  // The copy being served (a data directory: inspect what the code under test wrote).
  const std::string& data_dir() const;

  // Between tests (docs/API.md §14; each as its endpoint does, without HTTP). Throw
  // std::runtime_error naming the reason when they fail.
  // Returns the data directory to the fixture's state: what tests wrote is gone.
  void Reset();
  // Copies the data directory's state as snapshot `name` (1 to 64 of A-Z a-z 0-9 . _ -),
  // kept while the server runs.
  void Snapshot(const std::string& name);
  // Makes the data directory the state of snapshot `name`.
  void Restore(const std::string& name);
  // Waits until the change named `token` (a write's Folio-Change-Token answer header,
  // "domain/repository/N") is committed and handed to every GET /-/events stream; false
  // when `timeout` passes first. Throws std::runtime_error for a malformed token.
  bool WaitForToken(const std::string& token, std::chrono::milliseconds timeout = std::chrono::seconds(10));

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace folio::testing
