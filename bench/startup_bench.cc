// Start-up benchmark: how long `folio serve` takes from exec to its ready line, against
// the exec of /bin/true (the floor: process creation, the loader, exit), in the same run,
// interleaved. Each sample spawns the process with posix_spawn; for /bin/true the clock
// stops when waitpid returns, for folio when the ready line has been read from its
// standard output (then it is stopped with SIGTERM, untimed).
//
// Usage: folio_bench_startup [--folio PATH]... [--runs N]
//   --folio defaults to build/folio beside this binary's build tree; given more than once,
//   each binary is timed in turn within every run (before/after comparisons on a shared
//   machine see the same load); --runs defaults to 200.
// Prints the medians, the 10th and 90th percentiles and the ratio of the medians.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

double Micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

// Spawns `argv` with stdout on a pipe (when `out_fd` is given) and stderr to /dev/null.
pid_t Spawn(const std::vector<std::string>& args, int* out_fd) {
  int fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out_fd != nullptr) {
    if (::pipe(fds) != 0) return -1;
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
  }
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (out_fd != nullptr) {
    ::close(fds[1]);
    *out_fd = fds[0];
  }
  return rc == 0 ? pid : -1;
}

// Microseconds from spawn to the exit of /bin/true.
double TimeTrue() {
  const auto start = Clock::now();
  const pid_t pid = Spawn({"/bin/true"}, nullptr);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return Micros(Clock::now() - start);
}

// Microseconds from spawn to the ready line of `folio serve`; -1 if it never came.
double TimeFolio(const std::string& folio, const std::string& data) {
  int out = -1;
  const auto start = Clock::now();
  const pid_t pid = Spawn({folio, "serve", "--data", data, "--port", "0"}, &out);
  if (pid < 0) return -1;
  std::string line;
  char buf[256];
  while (line.find('\n') == std::string::npos) {
    const ssize_t n = ::read(out, buf, sizeof(buf));
    if (n <= 0) break;
    line.append(buf, static_cast<size_t>(n));
  }
  const double us = Micros(Clock::now() - start);
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(out);
  return line.rfind("folio listening on ", 0) == 0 ? us : -1;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> folios;
  int runs = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--folio") == 0 && i + 1 < argc) {
      folios.push_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--folio PATH]... [--runs N]\n", argv[0]);
      return 2;
    }
  }
  if (folios.empty()) folios.push_back(FOLIO_BINARY);
  char dir[] = "/tmp/folio-bench-startup-XXXXXX";
  if (::mkdtemp(dir) == nullptr) return 1;
  const std::string data = std::string(dir) + "/data";
  for (const std::string& folio : folios) {
    if (TimeFolio(folio, data) < 0) {  // creates the (empty) data directory; warms the page cache
      std::fprintf(stderr, "%s serve did not print its ready line\n", folio.c_str());
      return 1;
    }
  }
  std::vector<double> t_true;
  std::vector<std::vector<double>> t_folio(folios.size());
  for (int i = 0; i < runs; ++i) {
    t_true.push_back(TimeTrue());
    for (size_t f = 0; f < folios.size(); ++f) {
      const double us = TimeFolio(folios[f], data);
      if (us < 0) {
        std::fprintf(stderr, "run %d: no ready line from %s\n", i, folios[f].c_str());
        return 1;
      }
      t_folio[f].push_back(us);
    }
  }
  std::string rm = "rm -rf '" + std::string(dir) + "'";
  if (std::system(rm.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", dir);
  const double m_true = Percentile(t_true, 0.5);
  std::printf("runs: %d each, interleaved\n", runs);
  std::printf("| what | median us | p10 us | p90 us | ratio of medians (goal <= 3x) |\n|---|---|---|---|---|\n");
  std::printf("| exec /bin/true until exit | %.0f | %.0f | %.0f | |\n", m_true, Percentile(t_true, 0.1),
              Percentile(t_true, 0.9));
  for (size_t f = 0; f < folios.size(); ++f) {
    const double m_folio = Percentile(t_folio[f], 0.5);
    std::printf("| exec %s serve until ready line | %.0f | %.0f | %.0f | %.2fx |\n", folios[f].c_str(), m_folio,
                Percentile(t_folio[f], 0.1), Percentile(t_folio[f], 0.9), m_folio / m_true);
  }
  return 0;
}
