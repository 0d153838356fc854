// A `folio serve` child process for the benchmarks that measure over HTTP, and the
// temporary directories they work in.
#pragma once

#include <sys/types.h>

#include <string>

namespace folio::bench {

// A new empty directory under the system's temp directory ("folio-bench-<tag>-XXXXXX");
// "" if it cannot be made.
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

// The `folio` binary beside the benchmark's own directory (build/bench/x -> build/folio).
std::string FolioBesides(const char* argv0);

}  // namespace folio::bench
