// cpp-httplib (Debian 12's 0.11.4) serving Folio's calls (call.h). The library
// parses each request line and header fields, routes, reads bodies through its
// ContentReader (chunked or by length) and writes responses through its content
// providers. Folio adds, through the library's public API: a pool that grows to a
// bound (thread_pool.h), Folio's JSON errors for what the library refuses itself, and
// responses taken from a Call; and through one override of the private virtual
// `process_and_close_socket` (engine.cc, ConnectionLoop), what the library does not hold:
//  - the request head is gathered before the library reads it: at most
//    `max_header_bytes` and `max_header_fields` (431), every line ending in CRLF (400),
//    HTTP/1.0 or 1.1 (505), within `request_timeout` of its first byte (408);
//  - header values reach the service as sent (the library percent-decodes them: the
//    loop escapes '%' in the header lines it hands over);
//  - the whole request, body included, must arrive within `request_timeout` (408);
//  - one read buffer per connection, so that pipelined requests are answered in order;
//  - a response whose request body was not read to its end (refused before it, or cut
//    short) closes the connection: the library would read that body as the next
//    request (request smuggling). The response says `Connection: close`, and the loop
//    reads and drops what the client still sends for a moment before closing, so that
//    the client sees the response rather than a reset;
//  - the peer address is the socket's (a client's REMOTE_ADDR header is its own field);
//  - Stop() ends idle connections at once and lets requests in flight finish.
// Threads: one per connection, for the connection's life (a slow client holds one; the
// reverse proxy in front is what absorbs slow clients beyond loopback, docs/API.md §9).
//
// Streamed responses (api::BodyProducer, such as a stream of events whose Next() blocks
// until the next event) run on their connection's thread. Stop() shuts down the sockets
// of the connections that are sending one: the producer's next part then fails to send
// and the connection closes (without the last chunk: the client sees a cut stream, not a
// complete one). A producer that blocks must therefore return a part (a keep-alive
// comment) now and then; Stop() waits for that. Any other response goes on while its
// client reads; once the server stops, one that makes no progress for a second (its
// client has stopped reading) is cut short of its Content-Length.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "folio/status.h"
#include "metrics/http_metrics.h"

static_assert(std::string_view(CPPHTTPLIB_VERSION) == "0.11.4",
              "src/http/engine.cc overrides cpp-httplib 0.11.4's process_and_close_socket: recheck it");

namespace folio::http {

class Call;
class Server;

struct EngineLimits {
  size_t max_header_bytes = 64 * 1024;  // request line and header fields (431 beyond)
  size_t max_header_fields = 100;       // (431 beyond)
  size_t max_line_bytes = 8192;         // one line of the head (the library's own bound; 431 beyond)
  // An idle connection (between requests) is closed after this long.
  std::chrono::milliseconds keep_alive_timeout{3000};
  // A request's head and body must arrive within this long of its first byte.
  std::chrono::milliseconds request_timeout{30000};
  // A send that makes no progress (the client does not read) for this long drops the
  // connection.
  std::chrono::milliseconds write_timeout{30000};
  // After a response that closes the connection, input is read and dropped until the
  // client pauses this long (at most `request_timeout`).
  std::chrono::milliseconds linger_timeout{2000};
  size_t keep_alive_max_count = 10000;  // requests per connection
  size_t max_connections = 10000;       // threads; beyond, connections wait in the listen queue
  size_t min_threads = 2;               // connection threads kept when idle
};

class Engine final : public httplib::Server {
 public:
  // `server` (which begins a Call for each request) and `metrics` must outlive the engine.
  Engine(http::Server& server, const EngineLimits& limits, metrics::HttpMetrics& metrics);
  ~Engine() override;

  // Serves on the listening socket `fd` (taken over) until Stop(); blocks the caller.
  // Returns false when accepting failed.
  bool Serve(int fd);
  // Stops accepting, closes idle connections, ends streamed responses (see above), and
  // lets requests in flight finish; Serve() then returns. Any thread, more than once.
  void Stop();
  bool stopping() const { return stopping_; }

  struct Current;  // the request a connection thread serves (engine.cc)

 private:
  class ConnectionStream;

  bool process_and_close_socket(socket_t sock) override;
  void InstallHandlers();
  // The call of the request on this thread, begun on first use (pre-routing, or the
  // Expect: 100-continue handler).
  Call& Begin(const httplib::Request& req, Current& current);
  // Fills `res` from the call's response.
  void Fill(Current& current, httplib::Response& res);
  void StreamingBegins(int fd);
  void StreamingEnds(int fd);

  http::Server& server_;  // qualified: inside Engine, "Server" is the base class
  const EngineLimits limits_;
  metrics::HttpMetrics& metrics_;
  std::atomic<bool> stopping_{false};
  std::atomic<class GrowingPool*> pool_{nullptr};
  std::mutex streaming_mu_;
  std::set<int> streaming_;  // sockets sending a produced body; guarded by streaming_mu_
};

}  // namespace folio::http
