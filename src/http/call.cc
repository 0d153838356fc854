// A request handled by the server; see call.h.
#include "http/call.h"

#include <spdlog/spdlog.h>

#include <exception>

#include "api/ascii.h"
#include "api/error_response.h"

namespace folio::http {
namespace {

// suppressResponseCodes=true in the raw query string (CMIS 1.1): read before the query is
// decoded, so that a request refused for its head is answered as the client asked.
bool SuppressedIn(std::string_view target) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return false;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view piece = rest.substr(0, amp);
    const size_t eq = piece.find('=');
    if (eq != std::string_view::npos && api::EqualsIgnoreCase(piece.substr(0, eq), "suppressResponseCodes") &&
        api::EqualsIgnoreCase(piece.substr(eq + 1), "true")) {
      return true;
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return false;
}

// The transport error answered with `http_status` (400 when none has it).
api::TransportError TransportErrorFor(int http_status) {
  for (api::TransportError e : api::kAllTransportErrors) {
    if (api::HttpStatusFor(e) == http_status) return e;
  }
  return api::TransportError::kBadRequest;
}

}  // namespace

Call::Call(const CallContext& ctx, const HttpHead& head, CorsHeaders cors)
    : ctx_(ctx), method_(head.method), target_(head.target), cors_(std::move(cors)), suppress_(SuppressedIn(head.target)) {}

Call::~Call() {
  if (handle_ && !handled_) ctx_.service.ReleaseUpload(request_);
}

void Call::Answer(api::Response response) { answer_ = std::move(response); }

void Call::Fail(int http_status, const Status& error) {
  failed_ = true;
  // Only a body too large is found once the query string has been read; the head's
  // failures keep their status (docs/API.md §8.3).
  answer_ = http_status == 0 ? api::MakeErrorResponse(error, suppress_)
                             : api::MakeTransportErrorResponse(TransportErrorFor(http_status), error.message(),
                                                               suppress_ && http_status == 413);
}

void Call::AnswerKept(const api::ResponseCache::Answer& kept) {
  api::Response r;
  r.status = kept.status;
  r.content_type = kept.content_type;
  r.body = kept.body;
  r.operation = kept.operation;
  Answer(std::move(r));
}

void Call::Handle(api::Request request, bool may_keep, uint64_t announced_length) {
  handle_ = true;
  may_keep_ = may_keep;
  announced_length_ = announced_length;
  request_ = std::move(request);
}

Status Call::OnBody(std::string_view bytes) {
  if (!body_) body_ = std::make_unique<api::BodyReader>(ctx_.service, ctx_.max_body, announced_length_, request_);
  Status s = body_->Write(bytes);
  if (!s.ok()) Fail(body_->too_large() ? 413 : 0, s);
  return s;
}

void Call::OnBodyFailed(int http_status, Status error) { Fail(http_status, error); }

api::Response Call::Respond() {
  if (handle_ && !failed_ && body_) {
    if (Status s = body_->Finish(); !s.ok()) Fail(body_->too_large() ? 413 : 0, s);
  }
  api::Response response = handle_ && !failed_ ? RunService() : std::move(answer_);
  operation_ = std::move(response.operation);  // for Done
  exception_ = std::move(response.exception);
  message_ = std::move(response.message);
  for (auto& header : cors_) response.headers.push_back(std::move(header));
  return response;
}

api::Response Call::RunService() {
  if (request_.method == "HEAD") request_.method = "GET";
  api::Response r;
  try {
    r = ctx_.service.Handle(request_);
  } catch (const std::exception& e) {
    // A bug: the service answers every error itself. Log it and answer runtime.
    spdlog::error("internal error on {} {}: {}", method_, target_.substr(0, target_.find('?')), e.what());
    r = api::MakeErrorResponse(RuntimeError(std::string("internal error: ") + e.what()), suppress_);
  }
  handled_ = true;  // the service removed the upload, or consumed it
  if (may_keep_ && r.still_valid && r.status == 200 && r.headers.empty() && !r.stream && !r.producer) {
    ctx_.cache.Put(api::ResponseCache::KeyFor(target_, request_.authorization, request_.api_key),
                   {r.status, r.content_type, r.body, r.operation, std::move(r.still_valid)});
  }
  return r;
}

void Call::Done(const Outcome& outcome) {
  if (outcome.status == 0) return;  // abandoned before a response: nothing was answered
  ctx_.metrics.ObserveRequest(operation_, outcome.status, outcome.seconds);
  logging::RequestRecord record;
  record.method = method_;
  record.target = target_;
  record.operation = operation_;
  record.status = outcome.status;
  record.bytes = outcome.body_bytes;
  record.seconds = outcome.seconds;
  record.exception = exception_;
  record.message = message_;
  ctx_.log.Write(record);
}

}  // namespace folio::http
