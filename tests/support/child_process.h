// Running a program as a child process in tests (exit codes, the ready line, signals):
// spawn it with its standard output on a pipe, read its lines, signal it and collect
// its exit status. Its standard error optionally goes to a file, its environment may
// have additions.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

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
// ("NAME=value") are added to the inherited environment of the child only;
// `stderr_file` ("" = inherited) receives its standard error.
inline Child Spawn(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                   const std::string& stderr_file = "") {
  // Everything the child needs is built before fork: between fork and exec only
  // async-signal-safe calls are allowed.
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    if (!stderr_file.empty()) {
      const int err = ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
    }
    ::execve(argv[0], argv.data(), envp.data());
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

// Forks a child that runs `body(fd)`, which must not return (it ends with _exit or is
// killed), `fd` being the write end of a pipe whose read end is the Child's `out`.
template <typename Body>
Child ForkWithPipe(Body body) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    body(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  return {pid, ::fdopen(fds[0], "r")};
}

// Kills `pid` with SIGKILL and reaps it. Returns 0 if the signal ended it, else the exit
// status with which it had ended by itself before.
inline int KillAndReap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return 0;
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
