// The request log; see request_log.h.
#include "http/request_log.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string_view>

namespace folio::http {
namespace {

struct LogState {
  std::chrono::steady_clock::time_point start{};
  bool started = false;
  std::string operation;
};

thread_local LogState state;

}  // namespace

void RequestLogBegin() {
  state.start = std::chrono::steady_clock::now();
  state.started = true;
  state.operation.clear();
}

void RequestLogOperation(const std::string& operation) { state.operation = operation; }

void RequestLogWrite(const httplib::Request& req, const httplib::Response& res) {
  if (!spdlog::should_log(spdlog::level::info)) {  // --log-level warn and above: no line to build
    state.started = false;
    state.operation.clear();
    return;
  }
  double ms = 0;
  if (state.started) {
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - state.start).count();
  }
  const size_t bytes = res.body.empty() ? res.content_length_ : res.body.size();
  std::string_view path = req.target.empty() ? req.path : req.target;
  path = path.substr(0, path.find('?'));
  const bool cut = path.size() > 300;
  if (cut) path = path.substr(0, 300);
  spdlog::info("{} {}{} {} {} {}B {:.1f}ms", req.method, path, cut ? "..." : "",
               state.operation.empty() ? std::string_view("-") : std::string_view(state.operation), res.status,
               bytes, ms);
  state.started = false;
  state.operation.clear();  // keeps its buffer for the next request on this thread
}

}  // namespace folio::http
