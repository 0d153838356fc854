#include "bench_server.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

namespace folio::bench {

std::string MakeTempDir(const char* tag) {
  namespace fs = std::filesystem;
  std::string t = (fs::temp_directory_path() / (std::string("folio-bench-") + tag + "-XXXXXX")).string();
  return ::mkdtemp(t.data()) ? t : "";
}

Server StartServer(const std::string& folio, const std::string& data, const std::string& extra) {
  std::vector<std::string> args{folio, "serve", "--data", data, "--port", "0", "--log-level", "warn"};
  std::istringstream more(extra);
  for (std::string a; more >> a;) args.push_back(a);
  int fds[2];
  if (::pipe(fds) != 0) return {};
  Server s;
  s.pid = ::fork();
  if (s.pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(folio.c_str(), argv.data());
    _exit(127);
  }
  ::close(fds[1]);
  FILE* in = ::fdopen(fds[0], "r");
  char line[256] = {0};
  if (std::fgets(line, sizeof line, in) != nullptr) {
    std::string l(line);
    size_t colon = l.rfind(':');
    if (colon != std::string::npos) s.port = std::atoi(l.c_str() + colon + 1);
  }
  // The pipe stays open (and unread): a server writing to a closed one would die of SIGPIPE.
  return s;
}

void StopServer(Server& server) {
  if (server.pid <= 0) return;
  ::kill(server.pid, SIGTERM);
  ::waitpid(server.pid, nullptr, 0);
  server.pid = -1;
}

std::string FolioBesides(const char* argv0) {
  return (std::filesystem::path(argv0).parent_path().parent_path() / "folio").string();
}

}  // namespace folio::bench
