// ErrorKind -> HTTP status, and the JSON error body.
#include "api/error_response.h"

#include <nlohmann/json.hpp>

#include "api/cmis_names.h"

namespace folio::api {
namespace {

constexpr int kHttpOk = 200;
constexpr int kHttpPayloadTooLarge = 413;
constexpr int kHttpHeadersTooLarge = 431;
constexpr int kHttpRangeNotSatisfiable = 416;

ErrorResponse Build(int http_status, std::string_view exception, std::string_view message,
                    bool suppress_response_codes) {
  nlohmann::ordered_json body;
  body[kJsonException] = exception;
  body[kJsonMessage] = message;
  ErrorResponse response;
  response.http_status = suppress_response_codes ? kHttpOk : http_status;
  response.exception = std::string(exception);
  response.message = std::string(message);
  // A message may quote client bytes that are not UTF-8; never throw over them.
  response.body = body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return response;
}

}  // namespace

int HttpStatusFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return 400;
    case ErrorKind::kFilterNotValid:
      return 400;
    case ErrorKind::kUnauthorized:
      return 401;
    case ErrorKind::kPermissionDenied:
      return 403;
    case ErrorKind::kStreamNotSupported:
      return 403;
    case ErrorKind::kObjectNotFound:
      return 404;
    case ErrorKind::kNotSupported:
      return 405;
    case ErrorKind::kConstraint:
      return 409;
    case ErrorKind::kContentAlreadyExists:
      return 409;
    case ErrorKind::kNameConstraintViolation:
      return 409;
    case ErrorKind::kUpdateConflict:
      return 409;
    case ErrorKind::kVersioning:
      return 409;
    case ErrorKind::kRuntime:
      return 500;
    case ErrorKind::kStorage:
      return 500;
    case ErrorKind::kOk:
      return 500;  // an error response for success is a bug
  }
  return 500;
}

ErrorResponse MakeErrorResponse(const Status& status, bool suppress_response_codes) {
  if (status.ok()) {
    return Build(500, ErrorKindName(ErrorKind::kRuntime),
                 "internal error: an error response was built for a successful request",
                 suppress_response_codes);
  }
  return Build(HttpStatusFor(status.kind()), ErrorKindName(status.kind()), status.message(),
               suppress_response_codes);
}

ErrorResponse MakeBodyTooLargeResponse(std::string_view message, bool suppress_response_codes) {
  return Build(kHttpPayloadTooLarge, ErrorKindName(ErrorKind::kConstraint), message,
               suppress_response_codes);
}

ErrorResponse MakeHeadersTooLargeResponse(std::string_view message) {
  return Build(kHttpHeadersTooLarge, ErrorKindName(ErrorKind::kConstraint), message, false);
}

ErrorResponse MakeRangeNotSatisfiableResponse(std::string_view message, bool suppress_response_codes) {
  return Build(kHttpRangeNotSatisfiable, ErrorKindName(ErrorKind::kInvalidArgument), message,
               suppress_response_codes);
}

ErrorResponse MakeTransportErrorResponse(int http_status, std::string_view message) {
  ErrorKind kind = ErrorKind::kInvalidArgument;
  if (http_status == 404) kind = ErrorKind::kObjectNotFound;
  if (http_status == kHttpPayloadTooLarge || http_status == kHttpHeadersTooLarge) kind = ErrorKind::kConstraint;
  if (http_status >= 500) kind = ErrorKind::kRuntime;
  if (http_status == 405 || http_status == 501 || http_status == 505) kind = ErrorKind::kNotSupported;
  return Build(http_status, ErrorKindName(kind), message, false);
}

}  // namespace folio::api
