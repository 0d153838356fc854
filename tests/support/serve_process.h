// `folio serve` as a real process for tests: started on port 0 over a data directory,
// killed (SIGKILL) or stopped (SIGTERM) and restarted; for crash, two-process and
// filesystem tests that need the executable as an operator runs it.
#pragma once

#include <doctest/doctest.h>
#include <signal.h>

#include <string>
#include <vector>

#include "support/child_process.h"

namespace folio::testing {

class ServeProcess {
 public:
  // Starts `folio serve --data DIR --port 0 ARGS...` and waits for its ready line;
  // run by `wrapper` (a command and its arguments, such as setpriv) when given, with
  // `env` ("NAME=value") added to the environment.
  explicit ServeProcess(std::string dir, std::vector<std::string> args = {}, std::vector<std::string> wrapper = {},
                        std::vector<std::string> env = {})
      : dir_(std::move(dir)), args_(std::move(args)), wrapper_(std::move(wrapper)), env_(std::move(env)) {
    Start();
  }
  ~ServeProcess() { Stop(SIGTERM); }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  void Start() {
    std::vector<std::string> argv = wrapper_;
    for (const char* a : {FOLIO_BINARY, "serve", "--data"}) argv.push_back(a);
    for (const std::string& a : {dir_, std::string("--port"), std::string("0"), std::string("--log-level"),
                                 std::string("warn")}) {
      argv.push_back(a);
    }
    argv.insert(argv.end(), args_.begin(), args_.end());
    child_ = Spawn(argv, env_);
    for (std::string line = child_.ReadLine(); !line.empty(); line = child_.ReadLine()) {
      port_ = PortOfReadyLine(line);
      if (port_ != 0) break;
    }
    REQUIRE_MESSAGE(port_ != 0, "folio serve printed no ready line");
  }
  // Sends `sig` and waits for the process; returns its exit code (128 + signal).
  int Stop(int sig) {
    if (child_.pid < 0) return -1;
    ::kill(child_.pid, sig);
    const int code = WaitExit(child_.pid);
    if (child_.out != nullptr) std::fclose(child_.out);
    child_ = Child{};
    port_ = 0;
    return code;
  }
  int port() const { return port_; }
  pid_t pid() const { return child_.pid; }

 private:
  std::string dir_;
  std::vector<std::string> args_;
  std::vector<std::string> wrapper_;
  std::vector<std::string> env_;
  Child child_;
  int port_ = 0;
};

}  // namespace folio::testing
