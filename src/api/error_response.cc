// ErrorKind and TransportError -> HTTP status, JSON error body and headers; see
// error_response.h.
#include "api/error_response.h"

#include <nlohmann/json.hpp>
#include <string>

#include "api/cmis_names.h"

namespace folio::api {
namespace {

constexpr int kHttpOk = 200;
constexpr std::string_view kJsonContentType = "application/json; charset=UTF-8";

struct TransportInfo {
  TransportError error;
  int status;
  ErrorKind kind;
  std::string_view message;  // when the caller gives none
};

// One row per TransportError, in declaration order.
constexpr TransportInfo kTransport[] = {
    {TransportError::kBadRequest, 400, ErrorKind::kInvalidArgument,
     "malformed HTTP request: the request line, a header or the body framing cannot be parsed"},
    {TransportError::kBodyTooLarge, 413, ErrorKind::kConstraint, "the request body is too large (--max-body)"},
    {TransportError::kUriTooLong, 414, ErrorKind::kConstraint, "the request line is too long"},
    {TransportError::kUnsupportedEncoding, 415, ErrorKind::kInvalidArgument,
     "unsupported Content-Encoding: send the body uncompressed"},
    {TransportError::kRangeNotSatisfiable, 416, ErrorKind::kInvalidArgument,
     "the Range header is malformed or lies beyond the content"},
    {TransportError::kHeaderFieldsTooLarge, 431, ErrorKind::kConstraint,
     "the request line and headers are too large or too many"},
    {TransportError::kRequestTimeout, 408, ErrorKind::kInvalidArgument,
     "the request did not arrive in time: its head and body must arrive within the request timeout"},
    {TransportError::kNotImplemented, 501, ErrorKind::kNotSupported,
     "the request uses an HTTP feature the server does not implement"},
    {TransportError::kVersionNotSupported, 505, ErrorKind::kNotSupported,
     "the HTTP version is not supported: use HTTP/1.1"},
    {TransportError::kInternal, 500, ErrorKind::kRuntime, "internal error in the HTTP layer"},
};

constexpr bool TransportTableMatchesEnum() {
  for (size_t i = 0; i < std::size(kTransport); ++i) {
    if (kTransport[i].error != kAllTransportErrors[i] || static_cast<size_t>(kTransport[i].error) != i) return false;
  }
  return std::size(kTransport) == std::size(kAllTransportErrors);
}
static_assert(TransportTableMatchesEnum(), "kTransport must list every TransportError in enum order");

const TransportInfo& InfoFor(TransportError error) { return kTransport[static_cast<size_t>(error)]; }

Response Build(int http_status, ErrorKind kind, std::string_view message, bool suppress_response_codes) {
  nlohmann::ordered_json body;
  body[kJsonException] = ErrorKindName(kind);  // first, as in CMIS
  body[kJsonMessage] = message;
  Response response;
  response.status = suppress_response_codes ? kHttpOk : http_status;
  response.content_type = std::string(kJsonContentType);
  response.exception = std::string(ErrorKindName(kind));
  response.message = std::string(message);
  // A message may quote client bytes that are not UTF-8; never throw over them.
  response.body = body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (kind == ErrorKind::kUnauthorized) {
    response.headers.emplace_back("WWW-Authenticate", "Basic realm=\"folio\"");
  }
  return response;
}

}  // namespace

int HttpStatusFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return 400;
    case ErrorKind::kFilterNotValid: return 400;
    case ErrorKind::kUnauthorized: return 401;
    case ErrorKind::kPermissionDenied: return 403;
    case ErrorKind::kStreamNotSupported: return 403;
    case ErrorKind::kObjectNotFound: return 404;
    case ErrorKind::kNotSupported: return 405;
    case ErrorKind::kConstraint: return 409;
    case ErrorKind::kContentAlreadyExists: return 409;
    case ErrorKind::kNameConstraintViolation: return 409;
    case ErrorKind::kUpdateConflict: return 409;
    case ErrorKind::kVersioning: return 409;
    case ErrorKind::kRuntime: return 500;
    case ErrorKind::kStorage: return 500;
    case ErrorKind::kOk: return 500;  // an error response for success is a bug
  }
  return 500;
}

int HttpStatusFor(TransportError error) { return InfoFor(error).status; }

ErrorKind ExceptionFor(TransportError error) { return InfoFor(error).kind; }

Response MakeErrorResponse(const Status& status, bool suppress_response_codes) {
  if (status.ok()) {
    return Build(500, ErrorKind::kRuntime, "internal error: an error response was built for a successful request",
                 suppress_response_codes);
  }
  return Build(HttpStatusFor(status.kind()), status.kind(), status.message(), suppress_response_codes);
}

Response MakeTransportErrorResponse(TransportError error, std::string_view message, bool suppress_response_codes) {
  const TransportInfo& info = InfoFor(error);
  return Build(info.status, info.kind, message.empty() ? info.message : message, suppress_response_codes);
}

Response MakeTransportErrorResponse(int http_status) {
  for (const TransportInfo& info : kTransport) {
    if (info.status == http_status) return MakeTransportErrorResponse(info.error);
  }
  ErrorKind kind = ErrorKind::kInvalidArgument;
  if (http_status == 404) kind = ErrorKind::kObjectNotFound;
  if (http_status == 405 || http_status == 501) kind = ErrorKind::kNotSupported;
  if (http_status >= 500 && http_status != 501) kind = ErrorKind::kRuntime;
  return Build(http_status, kind,
               "the request was refused by the HTTP layer (status " + std::to_string(http_status) + ")", false);
}

}  // namespace folio::api
