// Error responses (docs/API.md §8): the one place that turns a failure into an HTTP
// status, the JSON body {"exception": "<CMIS exception name>", "message": "<text>"} and
// the headers that go with it. A failure is a Status (its ErrorKind decides), or a
// TransportError: a failure at the HTTP level (found by src/http before the request
// reaches the service, or a Range the content cannot satisfy). Nothing else formats
// error JSON; src/http and the operations call these functions.
#pragma once

#include <string_view>

#include "api/response.h"
#include "folio/status.h"

namespace folio::api {

// Failures at the HTTP level, each with its own status (docs/API.md §8.2).
enum class TransportError {
  kBadRequest,             // 400 invalidArgument: malformed request line, header or body framing
  kBodyTooLarge,           // 413 constraint: the body is over --max-body
  kUriTooLong,             // 414 constraint: the request line is too long
  kUnsupportedEncoding,    // 415 invalidArgument: a Content-Encoding Folio does not decode
  kRangeNotSatisfiable,    // 416 invalidArgument: a Range beyond the content, or malformed
  kHeaderFieldsTooLarge,   // 431 constraint: request line and headers over their limits
  kRequestTimeout,         // 408 invalidArgument: head and body did not arrive in time
  kNotImplemented,         // 501 notSupported: a Transfer-Encoding other than chunked
  kVersionNotSupported,    // 505 notSupported: an HTTP version other than 1.0 and 1.1
  kInternal,               // 500 runtime: the HTTP layer failed
};

// Every TransportError, for tests and documentation.
inline constexpr TransportError kAllTransportErrors[] = {
    TransportError::kBadRequest,          TransportError::kBodyTooLarge,
    TransportError::kUriTooLong,          TransportError::kUnsupportedEncoding,
    TransportError::kRangeNotSatisfiable, TransportError::kHeaderFieldsTooLarge,
    TransportError::kRequestTimeout,      TransportError::kNotImplemented,
    TransportError::kVersionNotSupported, TransportError::kInternal,
};

// The HTTP status of `kind`: invalidArgument and filterNotValid 400, unauthorized 401,
// permissionDenied and streamNotSupported 403, objectNotFound 404, notSupported 405,
// constraint, contentAlreadyExists, nameConstraintViolation, updateConflict and
// versioning 409, runtime and storage 500. kOk (never an error) gives 500.
int HttpStatusFor(ErrorKind kind);

// The HTTP status of `error` (see TransportError) and the exception it answers with.
int HttpStatusFor(TransportError error);
ErrorKind ExceptionFor(TransportError error);

// The response for a failed request: the status of status.kind(), the JSON body, and
// for kUnauthorized a `WWW-Authenticate: Basic` header. With `suppress_response_codes`
// (the request's suppressResponseCodes=true) the status is 200; body and headers stay.
// An OK `status` is a caller bug and answers runtime, 500. A message that is not valid
// UTF-8 has its bad bytes replaced by U+FFFD; the body is always valid JSON.
Response MakeErrorResponse(const Status& status, bool suppress_response_codes = false);

// The response for `error`, with `message` ("" gives a generic message naming the
// failure). Suppressible like any error. The caller adds what only it knows (for
// kRangeNotSatisfiable, `Content-Range: bytes */<size>`).
Response MakeTransportErrorResponse(TransportError error, std::string_view message = {},
                                    bool suppress_response_codes = false);

// The response for a status that the HTTP library chose itself (it gives no reason):
// the TransportError of that status when there is one, else the exception closest to
// it (404 objectNotFound, 405 and 501 notSupported, other 5xx runtime, other 4xx
// invalidArgument), keeping the status. Never suppressed: the request may not have
// been parsed far enough to read its parameters.
Response MakeTransportErrorResponse(int http_status);

}  // namespace folio::api
