// A `folio serve` child process for the benchmarks that measure over HTTP, and the
// temporary directories they work in.
#pragma once

#include <sys/types.h>

#include <string>

namespace folio::bench {

// A new empty directory "folio-bench-<tag>-XXXXXX" in the directory "folio-bench" of the
// system's temp directory; "" if it cannot be made. That parent is marked as the top of a
// directory hierarchy (FS_TOPDIR_FL, where the filesystem has it): ext4 then puts each
// new directory in it in an inode group of its own choosing, not beside the directory
// an earlier run just deleted. ext4 without a journal will not reuse an inode freed in
// the last minutes and walks past every such inode at each allocation, so each run
// would otherwise pay for the files earlier runs (and test runs) removed there
// (bench/RESULTS.md, "Row 2 and the inodes earlier runs freed").
std::string MakeTempDir(const char* tag);

struct Server {
  pid_t pid = -1;
  int port = 0;  // 0: it did not start
};

// Starts `folio serve --data data --port 0` (log level warn, plus `extra` arguments)
// and reads its ready line for the port.
Server StartServer(const std::string& folio, const std::string& data, const std::string& extra = "");
// SIGTERM, then waits for it to exit.
void StopServer(Server& server);

// The command line of a benchmark that runs `folio serve`: `--quick` (a smaller run)
// and `--folio PATH` (default: the `folio` beside the benchmark's own directory,
// build/bench/x -> build/folio).
struct ServerBenchArgs {
  bool quick = false;
  std::string folio;
};
ServerBenchArgs ParseServerBenchArgs(int argc, char** argv);

}  // namespace folio::bench
