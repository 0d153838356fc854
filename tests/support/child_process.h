// Running the folio executable (or anything) as a child process in a test: its standard
// output on a pipe, and its exit status.
#pragma once

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace folio::testing {

struct Child {
  pid_t pid = -1;
  FILE* out = nullptr;  // the child's standard output
};

// Starts `args` (args[0] is the program's path) with its standard output on a pipe.
inline Child Spawn(const std::vector<std::string>& args) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  return {pid, ::fdopen(fds[0], "r")};
}

// Waits for `pid`: its exit status, or 128 + the signal that ended it.
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

// The port of a `folio serve` child from its ready line; -1 if it printed none.
inline int ReadyPort(Child& child) {
  char line[256] = {0};
  if (std::fgets(line, sizeof(line), child.out) == nullptr) return -1;
  const std::string ready(line);
  const std::string prefix = "folio listening on http://127.0.0.1:";
  if (ready.rfind(prefix, 0) != 0) return -1;
  return std::stoi(ready.substr(prefix.size()));
}

}  // namespace folio::testing
