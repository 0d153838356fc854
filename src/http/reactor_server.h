// cpp-httplib's Server with its connections served by a Reactor (reactor.h) instead
// of a thread each. httplib's accept loop hands every accepted socket to the private
// virtual process_and_close_socket (C++ lets a subclass override a private virtual);
// the override gives the socket to the reactor and returns at once, and the reactor's
// workers call the protected process_request for each request. Everything else (routing,
// hooks, logger, error and exception handlers, content providers) is httplib's own.
#pragma once

#include <httplib.h>

#include <atomic>

#include "http/reactor.h"

namespace folio::http {

class ReactorServer final : public httplib::Server {
 public:
  // Also sets httplib's keep-alive count and timeout (announced in the Keep-Alive
  // response header) and read/write timeouts from `options`. The reactor's threads
  // start with the first connection.
  explicit ReactorServer(const ReactorOptions& options);

  // Use instead of httplib's stop(). Ends the accept loop if it runs; the loop then
  // stops the reactor (Reactor::Stop: requests in flight are answered in full) before
  // listen_after_bind() returns. Safe from any thread, more than once.
  void Stop();

 private:
  bool process_and_close_socket(socket_t sock) override;
  // Called by the task queue once the accept loop has ended.
  void Drain();

  Reactor reactor_;
  std::atomic<bool> stop_sent_{false};
};

}  // namespace folio::http
