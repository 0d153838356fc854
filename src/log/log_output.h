// The process's log output for `folio serve`: spdlog messages and request log lines,
// gathered in memory and written to a file descriptor (stderr) by a background thread
// 50 ms after the first waiting line, so that the request path never makes a system call
// to log (the thread sleeps while there is nothing to write). Warnings and
// errors are written at once; everything is written when the output is destroyed.
// Two formats: text ("[2026-11-23 22:30:14.123] [folio] [info] message") and JSON, one
// object per line ({"time":"2026-11-23T22:30:14.123Z","level":"info","message":"..."};
// request lines carry their own fields, see request_log.h).
#pragma once

#include <spdlog/common.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace folio::logging {

enum class LogFormat { kText, kJson };

// "text" or "json"; nullopt for anything else.
std::optional<LogFormat> ParseLogFormat(std::string_view name);

class LogOutput {
 public:
  // Writes to `fd` (not owned) in `format`.
  LogOutput(int fd, LogFormat format);
  ~LogOutput();  // writes what is buffered; later messages are written directly
  LogOutput(const LogOutput&) = delete;
  LogOutput& operator=(const LogOutput&) = delete;

  // Makes spdlog's default logger (named "folio") write here, at `level`, and this the
  // output Current() returns.
  void Install(spdlog::level::level_enum level);

  // Appends `line` (no newline; one is added). Thread-safe; no system call unless a
  // megabyte is waiting.
  void Append(std::string_view line);
  // Writes what is buffered now. Thread-safe.
  void Flush();

  LogFormat format() const { return format_; }

  // The installed output, or null (tests that log through spdlog's default logger).
  static LogOutput* Current();

  struct Shared;  // the buffer, shared with the spdlog sink

 private:
  void Run();  // the flusher thread

  const LogFormat format_;
  std::shared_ptr<Shared> shared_;
  std::thread flusher_;
};

// The current time as ISO 8601 UTC with milliseconds: "2026-11-23T22:30:14.123Z".
std::string IsoTimeNow();

}  // namespace folio::logging
