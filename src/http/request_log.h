// One log line per request through spdlog: method, path, operation, status, bytes,
// milliseconds. The worker thread that handles a request also writes its log line, so
// the per-request facts travel in thread-local storage from the routing hooks to the
// logger hook.
#pragma once

#include <httplib.h>

#include <string>

namespace folio::http {

// Called when routing starts (pre-routing hook): starts the clock.
void RequestLogBegin();
// Records the operation the service ran.
void RequestLogOperation(const std::string& operation);
// The httplib logger hook: writes the line.
void RequestLogWrite(const httplib::Request& req, const httplib::Response& res);

}  // namespace folio::http
