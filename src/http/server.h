// The HTTP server: listens on host:port, serves connections with cpp-httplib
// (engine.h), checks each against the Host and Origin rules
// (api/web_policy.h), hands it to api::Service, and answers with CORS headers, a request
// log line, and metrics; serves the operations endpoints /-/health
// and /-/metrics; stops cleanly (requests in flight finish).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/dispatch.h"
#include "api/web_policy.h"
#include "folio/status.h"
#include "http/call.h"
#include "http/engine.h"
#include "http/listener.h"
#include "log/log_output.h"
#include "log/request_log.h"
#include "metrics/http_metrics.h"

namespace folio::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                           // 0 picks a free port
  size_t threads = 0;                        // connection threads kept when idle (one serves each
                                             // connection; 0: the number of cores)
  uint64_t max_body = 256ull * 1024 * 1024;  // largest request body (413 beyond)
  // Which hosts and origins browsers may use (docs/API.md §13); listen_host is set from
  // `host`.
  api::WebPolicyOptions web;
  // An idle keep-alive connection is closed after this long.
  std::chrono::milliseconds keep_alive_timeout{3000};
  // A request's head and body must arrive within this long of its first byte (408 and
  // closed beyond it).
  std::chrono::milliseconds request_timeout{30000};
  size_t max_connections = 10000;       // one thread each; beyond, new connections wait in the
                                        // listen queue
  size_t max_header_bytes = 64 * 1024;  // request line and header fields (431 beyond)
  size_t max_header_fields = 100;       // (431 beyond)
  logging::LogFormat log_format = logging::LogFormat::kText;  // of the request log
  // Answers kept for reuse (response_cache.h); 0 keeps none.
  size_t response_cache_entries = 2048;
};

class Server final {
 public:
  Server(api::Service& service, ServerOptions options);
  ~Server();  // stops the server if it runs
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listening socket. Errors: kInvalidArgument for malformed web options
  // (api::WebPolicy::Validate); kRuntime naming host and port when binding fails
  // (address in use, bad host).
  Status Bind();
  // Serves on `listener` (Listener::Open), taken over. Errors: kRuntime when bound
  // already.
  Status Bind(Listener listener);
  // The bound port (after Bind).
  int port() const { return port_; }
  // "http://HOST:PORT/" (IPv6 hosts in brackets).
  std::string Url() const;

  // Serves until Stop() has finished, blocking the calling thread (which does no work:
  // the connection threads do). Starts serving if Start() did not.
  Status Serve();
  // Bind (unless done) and serve in the background; returns once requests are accepted.
  Status Start();
  // Stops accepting, answers /-/health with 503, lets requests in flight finish, and
  // returns when all have. Safe to call from any thread but the server's own, more than
  // once.
  void Stop();

  const metrics::HttpMetrics& metrics() const { return metrics_; }
  const api::ResponseCache& response_cache() const { return cache_; }

 private:
  friend class Engine;  // calls Begin and Refuse

  // A new request whose head has been read (and its body's framing checked).
  std::unique_ptr<Call> Begin(HttpHead head);
  // A request that cannot be served as HTTP: a malformed or oversized head (400, 431,
  // 505), a missing deadline (408). `head` is what is known (method and target may be
  // empty). The connection closes after the response.
  std::unique_ptr<Call> Refuse(int status, std::string message, const HttpHead& head);

  // /-/health and /-/metrics (`path` starts with "/-/").
  void OperationsEndpoint(Call& call, const HttpHead& head, std::string_view path) const;

  api::Service& service_;
  const ServerOptions options_;
  const api::WebPolicy web_policy_;
  metrics::HttpMetrics metrics_;
  logging::RequestLog log_;
  api::ResponseCache cache_;
  CallContext call_context_;
  EngineLimits limits_;
  std::unique_ptr<Engine> engine_;
  std::thread serve_thread_;  // accepts connections (Engine::Serve)
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::condition_variable stopped_cv_;
  bool started_ = false;  // guarded by mu_
  bool stopped_ = false;  // guarded by mu_
};

}  // namespace folio::http
