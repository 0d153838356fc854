// Running a program as a child process in tests: spawn it with its standard output on
// a pipe, read its lines, signal it and collect its exit status.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace folio::testing {

struct Child {
  pid_t pid = -1;
  FILE* out = nullptr;  // the child's standard output

  // The next line of output without its '\n'; "" at the end.
  std::string ReadLine() const {
    char line[1024] = {0};
    if (std::fgets(line, sizeof line, out) == nullptr) return "";
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }
};

// Starts `args[0]` with `args` (no shell), standard output on a pipe; `env` entries
// ("NAME=value") are set in the child only.
inline Child Spawn(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  return {pid, ::fdopen(fds[0], "r")};
}

// Waits for `pid`: its exit code, or 128 + the signal that ended it.
inline int WaitExit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The port of a `folio serve` ready line ("folio listening on http://127.0.0.1:PORT/"),
// or 0 when `line` is not one.
inline int PortOfReadyLine(const std::string& line) {
  const std::string prefix = "folio listening on http://127.0.0.1:";
  if (line.rfind(prefix, 0) != 0) return 0;
  return std::atoi(line.c_str() + prefix.size());
}

}  // namespace folio::testing
