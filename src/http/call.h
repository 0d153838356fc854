// One request as the server handles it (an Exchange, exchange.h): either a response known
// at once (an error, a CORS preflight, an operations endpoint) or a request for the
// service, whose body is read into it as it arrives. Every response carries the headers
// the Host and Origin rules give (api/web_policy.h); every finished call writes its request log line and counts in the metrics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/dispatch.h"
#include "api/request.h"
#include "folio/status.h"
#include "http/exchange.h"
#include "http/metrics.h"
#include "http/request_log.h"
#include "http/request_reader.h"
#include "http/response_cache.h"

namespace folio::http {

// What every call of one server shares; must outlive its calls.
struct CallContext {
  api::Service& service;
  uint64_t max_body;
  HttpMetrics& metrics;
  const RequestLog& log;
  ResponseCache& cache;
};

// Headers added to every response of a call (the CORS headers of api::WebPolicy).
using CorsHeaders = std::vector<std::pair<std::string, std::string>>;

class Call final : public Exchange {
 public:
  // `cors` is added to the response, whatever it is.
  Call(const CallContext& ctx, const HttpHead& head, CorsHeaders cors);
  ~Call() override;  // removes the upload of a request that was never handled

  // Call one of these three right after construction.
  // Answers `response` (its `operation` names it in the log).
  void Answer(api::Response response);
  // Answers `error`: `http_status` 0 gives the status of its kind (with
  // suppressResponseCodes honoured), 413 the body-too-large response, 431 the
  // headers-too-large one, any other the transport error of that status.
  void Fail(int http_status, const Status& error);
  // Answers the `kept` answer of an earlier, identical request (response_cache.h).
  void AnswerKept(const ResponseCache::Answer& kept);
  // Runs `request` through the service once its body (if any) has been read. With
  // `may_keep` (a GET or HEAD without body or credentials), an answer the operation
  // allows to be reused is kept in the cache under the request's target.
  // `announced_length` is the body's Content-Length (0 when none or chunked).
  void Handle(api::Request request, bool may_keep = false, uint64_t announced_length = 0);

  // Exchange.
  bool WantsBody() const override { return handle_ && !failed_; }
  Status OnBody(std::string_view bytes) override;
  void OnBodyFailed(int http_status, Status error) override;
  api::Response Respond() override;
  void Done(const Outcome& outcome) override;

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
  std::unique_ptr<BodyReader> body_;
  api::Response answer_;
  std::string operation_;
  std::string exception_;
  std::string message_;
};

}  // namespace folio::http
