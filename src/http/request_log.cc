// The request log; see request_log.h.
#include "http/request_log.h"

#include <spdlog/spdlog.h>

#include <chrono>

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
  double ms = 0;
  if (state.started) {
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - state.start).count();
  }
  const size_t bytes = res.body.empty() ? res.content_length_ : res.body.size();
  std::string path = req.target.empty() ? req.path : req.target;
  const size_t q = path.find('?');
  if (q != std::string::npos) path.resize(q);
  if (path.size() > 300) path = path.substr(0, 300) + "...";
  spdlog::info("{} {} {} {} {}B {:.1f}ms", req.method, path, state.operation.empty() ? "-" : state.operation,
               res.status, bytes, ms);
  state = LogState{};
}

}  // namespace folio::http
