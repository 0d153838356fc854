// What the engine (engine.h) asks of the server for each request: an Exchange
// that takes the request's body as it arrives and then gives the response. The
// connection owns the bytes and the socket; the exchange owns the meaning.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "api/response.h"
#include "folio/status.h"
#include "http/http_head.h"

namespace folio::http {

// How an exchange ended, for the request log and the metrics.
struct Outcome {
  int status = 0;             // the status sent (0: none was)
  uint64_t body_bytes = 0;    // response body bytes sent
  double seconds = 0;         // from the request's first byte to the response's last
  bool complete = false;      // the whole response was sent
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  // False when the response is known without the body (an error, a preflight, a
  // refused method): the body is then not read, and the connection closes after the
  // response if one was announced.
  virtual bool WantsBody() const = 0;
  // The next piece of the body (chunk framing removed). An error stops the reading; the
  // connection then asks for the response (which answers the error) and closes.
  virtual Status OnBody(std::string_view bytes) = 0;
  // The body could not be read to its end: bad chunked encoding (`http_status` 400), or
  // it did not arrive in time (408). Respond() must answer `error` with that status.
  virtual void OnBodyFailed(int http_status, Status error) = 0;
  // The response: called once, after the whole body, after OnBody or OnBodyFailed
  // failed, or at once when !WantsBody(). May block (disk, locks): this is the handling.
  // The engine adds Content-Length (or Transfer-Encoding) and Connection; HEAD requests
  // get the head only.
  virtual api::Response Respond() = 0;
  // The response has been sent or abandoned; called once, last.
  virtual void Done(const Outcome& outcome) = 0;
};

// Implemented by the server.
class ExchangeFactory {
 public:
  virtual ~ExchangeFactory() = default;
  // A new request whose head has been read (and its body's framing checked).
  virtual std::unique_ptr<Exchange> Begin(HttpHead head) = 0;
  // A request that cannot be served as HTTP: a malformed or oversized head (400, 431,
  // 505), a missing deadline (408). `head` is what is known (method and target may be
  // empty). The connection closes after the response.
  virtual std::unique_ptr<Exchange> Refuse(int status, std::string message, const HttpHead& head) = 0;
};

}  // namespace folio::http
