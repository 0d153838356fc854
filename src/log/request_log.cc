// The request log; see request_log.h.
#include "log/request_log.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

#include "api/json_writer.h"

namespace folio::logging {
namespace {

constexpr size_t kMaxPath = 300;  // longer paths are cut (and marked) in the log

}  // namespace

void RequestLog::Write(const RequestRecord& r) const {
  if (!spdlog::should_log(spdlog::level::info)) return;  // --log-level warn and above: nothing to build
  std::string_view path = r.target.substr(0, r.target.find('?'));
  const bool cut = path.size() > kMaxPath;
  if (cut) path = path.substr(0, kMaxPath);
  const bool show_error = !r.exception.empty() &&
                          (r.status >= 500 || spdlog::should_log(spdlog::level::debug));
  if (format_ == LogFormat::kJson) {
    std::string line;
    api::JsonWriter w(line);
    w.BeginObject();
    w.Key("time").String(logging::IsoTimeNow());
    w.Key("method").String(r.method);
    w.Key("path").String(cut ? std::string(path) + "..." : std::string(path));
    w.Key("operation");
    if (r.operation.empty()) {
      w.Null();
    } else {
      w.String(r.operation);
    }
    w.Key("status").Int(r.status);
    w.Key("bytes").Int(static_cast<int64_t>(r.bytes));
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.6f", r.seconds);
    w.Key("duration").Raw(seconds);
    w.Key("exception");
    if (show_error) {
      w.String(r.exception);
    } else {
      w.Null();
    }
    w.Key("message");
    if (show_error) {
      w.String(r.message);
    } else {
      w.Null();
    }
    w.EndObject();
    logging::LogOutput* out = logging::LogOutput::Current();
    if (out != nullptr && out->format() == LogFormat::kJson) {
      out->Append(line);
    } else {
      spdlog::info("{}", line);
    }
    return;
  }
  const std::string_view method = r.method.empty() ? std::string_view("-") : r.method;
  const std::string_view operation = r.operation.empty() ? std::string_view("-") : r.operation;
  if (show_error) {
    std::string message;  // as a JSON string: quoted, with quotes and control characters escaped
    api::JsonWriter(message).String(r.message);
    spdlog::info("{} {}{} {} {} {}B {:.1f}ms {} {}", method, path, cut ? "..." : "", operation, r.status, r.bytes,
                 r.seconds * 1000, r.exception, message);
  } else {
    spdlog::info("{} {}{} {} {} {}B {:.1f}ms", method, path, cut ? "..." : "", operation, r.status, r.bytes,
                 r.seconds * 1000);
  }
}

}  // namespace folio::logging
