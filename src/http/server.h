// The HTTP server: cpp-httplib listening on host:port, every request handed to
// api::Service, CORS on every response, one log line per request, and a clean stop
// (requests in flight finish).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "api/dispatch.h"
#include "folio/status.h"

namespace httplib {
struct Request;
struct Response;
}

namespace folio::http {

class ReactorServer;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                          // 0 picks a free port
  size_t threads = 0;                       // core workers, 0: the number of cores (more join
                                            // while requests are slow)
  uint64_t max_body = 256ull * 1024 * 1024;  // CONTRACT §8
  std::string cors_origin = "*";           // "*" or a comma-separated list of origins
  // An idle keep-alive connection is closed after this long.
  std::chrono::milliseconds keep_alive_timeout{3000};
};

class Server {
 public:
  Server(api::Service& service, ServerOptions options);
  ~Server();  // stops the server if it runs
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listening socket. Errors: kRuntime naming host and port when binding
  // fails (address in use, bad host).
  Status Bind();
  // The bound port (after Bind).
  int port() const { return port_; }
  // "http://HOST:PORT/" (IPv6 hosts in brackets).
  std::string Url() const;

  // Serves until Stop(), blocking the calling thread.
  Status Serve();
  // Bind + Serve on a background thread (tests); returns when requests are accepted.
  Status Start();
  // Stops accepting, lets requests in flight finish, and returns when all have.
  // Safe to call from any thread, more than once.
  void Stop();

 private:
  void Install();

  api::Service& service_;
  ServerOptions options_;
  std::unique_ptr<ReactorServer> server_;
  // The GET/HEAD handler, called from the pre-routing hook and from the route.
  std::function<void(const httplib::Request&, httplib::Response&)> get_;
  int port_ = 0;
  int listen_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> serving_{false};
  std::atomic<bool> serve_returned_{false};
};

}  // namespace folio::http
