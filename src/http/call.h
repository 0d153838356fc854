// One request as the server handles it, from its head to its log line: either a response
// known at once (an error, a CORS preflight, an operations endpoint) or a request for the
// service, whose body is read into it as it arrives. The engine (engine.h) owns the bytes
// and the socket; the call owns the meaning. Every response carries the headers the Host
// and Origin rules give (api/web_policy.h); every finished call writes its request log line
// and counts in the metrics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/body_reader.h"
#include "api/dispatch.h"
#include "api/request.h"
#include "api/response.h"
#include "api/response_cache.h"
#include "folio/status.h"
#include "http/http_head.h"
#include "log/request_log.h"
#include "metrics/http_metrics.h"

namespace folio::http {

// What every call of one server shares; must outlive its calls.
struct CallContext {
  api::Service& service;
  uint64_t max_body;
  metrics::HttpMetrics& metrics;
  const logging::RequestLog& log;
  api::ResponseCache& cache;
};

// How a call ended, for the request log and the metrics.
struct Outcome {
  int status = 0;           // the status sent (0: none was)
  uint64_t body_bytes = 0;  // response body bytes sent
  double seconds = 0;       // from the request's first byte to the response's last
  bool complete = false;    // the whole response was sent
};

// Headers added to every response of a call (the CORS headers of api::WebPolicy).
using CorsHeaders = std::vector<std::pair<std::string, std::string>>;

class Call final {
 public:
  // `cors` is added to the response, whatever it is.
  Call(const CallContext& ctx, const HttpHead& head, CorsHeaders cors);
  ~Call();  // removes the upload of a request that was never handled

  // Call one of these three right after construction.
  // Answers `response` (its `operation` names it in the log).
  void Answer(api::Response response);
  // Answers `error`: `http_status` 0 gives the status of its kind (with
  // suppressResponseCodes honoured), 413 the body-too-large response, 431 the
  // headers-too-large one, any other the transport error of that status.
  void Fail(int http_status, const Status& error);
  // Answers the `kept` answer of an earlier, identical request (api/response_cache.h).
  void AnswerKept(const api::ResponseCache::Answer& kept);
  // Runs `request` through the service once its body (if any) has been read. With
  // `may_keep` (a GET or HEAD without body or credentials), an answer the operation
  // allows to be reused is kept in the cache under the request's target.
  // `announced_length` is the body's Content-Length (0 when none or chunked).
  void Handle(api::Request request, bool may_keep = false, uint64_t announced_length = 0);

  // What the engine calls, in this order.
  // False when the response is known without the body (an error, a preflight, a refused
  // method): the body is then not read, and the connection closes after the response if
  // one was announced.
  bool WantsBody() const { return handle_ && !failed_; }
  // The next piece of the body (chunk framing removed). An error stops the reading; the
  // engine then asks for the response (which answers the error) and closes.
  Status OnBody(std::string_view bytes);
  // The body could not be read to its end: bad chunked encoding (`http_status` 400), or
  // it did not arrive in time (408). Respond() answers `error` with that status.
  void OnBodyFailed(int http_status, Status error);
  // The response: called once, after the whole body, after OnBody or OnBodyFailed
  // failed, or at once when !WantsBody(). May block (disk, locks): this is the handling.
  // The engine adds Content-Length (or Transfer-Encoding) and Connection; HEAD requests
  // get the head only.
  api::Response Respond();
  // The response has been sent or abandoned; called once, last.
  void Done(const Outcome& outcome);

 private:
  api::Response RunService();

  const CallContext& ctx_;
  std::string method_;
  std::string target_;
  CorsHeaders cors_;
  bool suppress_;        // suppressResponseCodes=true in the query string
  bool handle_ = false;  // the service runs it (Handle)
  bool failed_ = false;
  bool handled_ = false;
  bool may_keep_ = false;
  uint64_t announced_length_ = 0;  // Content-Length of the body; 0 when none or chunked
  api::Request request_;
  std::unique_ptr<api::BodyReader> body_;
  api::Response answer_;
  std::string operation_;
  std::string exception_;
  std::string message_;
};

}  // namespace folio::http
