#include "bench_server.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

namespace folio::bench {

namespace {

// The parent of every MakeTempDir, flagged FS_TOPDIR_FL when it can be (see bench_server.h);
// the temp directory itself when it cannot be made.
std::filesystem::path SpreadParent() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "folio-bench";
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return fs::temp_directory_path();
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return fs::temp_directory_path();
  int flags = 0;
  if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_TOPDIR_FL) == 0) {
    flags |= FS_TOPDIR_FL;
    (void)::ioctl(fd, FS_IOC_SETFLAGS, &flags);  // refused (not ext4, not ours): placed as usual
  }
  ::close(fd);
  return dir;
}

}  // namespace

std::string MakeTempDir(const char* tag) {
  std::string t = (SpreadParent() / (std::string("folio-bench-") + tag + "-XXXXXX")).string();
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

ServerBenchArgs ParseServerBenchArgs(int argc, char** argv) {
  ServerBenchArgs out;
  out.folio = (std::filesystem::path(argv[0]).parent_path().parent_path() / "folio").string();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") out.quick = true;
    if (a == "--folio" && i + 1 < argc) out.folio = argv[++i];
  }
  return out;
}

}  // namespace folio::bench
