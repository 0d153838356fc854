// The error responses of the service (CONTRACT §6, §8; binding §10): the only code
// that knows HTTP status codes for errors. An error is a JSON body
// {"exception": "<CMIS exception name>", "message": "<text>"} with the status of its kind.
#pragma once

#include <string>
#include <string_view>

#include "folio/status.h"

namespace folio::api {

struct ErrorResponse {
  int http_status = 500;
  std::string exception;  // "objectNotFound", ...
  std::string message;    // the message in the body (for the request log)
  std::string body;       // the JSON text, UTF-8; invalid bytes of a message become U+FFFD
};

// The HTTP status of `kind`: invalidArgument and filterNotValid 400, unauthorized 401,
// permissionDenied and streamNotSupported 403, objectNotFound 404, notSupported 405,
// constraint, contentAlreadyExists, nameConstraintViolation, updateConflict and
// versioning 409, runtime and storage 500. kOk (never an error) gives 500.
int HttpStatusFor(ErrorKind kind);

// The response for a failed request. With `suppress_response_codes` (the request's
// suppressResponseCodes=true) the status is 200 and the body the same. An OK `status`
// is a caller bug and answers runtime, 500.
// For kUnauthorized the caller also sends `WWW-Authenticate: Basic` (CONTRACT §7).
ErrorResponse MakeErrorResponse(const Status& status, bool suppress_response_codes = false);

// The response for a body over --max-body: 413 with exception `constraint` (CONTRACT
// §8); `message` should name the limit. Suppressible like any error.
ErrorResponse MakeBodyTooLargeResponse(std::string_view message,
                                       bool suppress_response_codes = false);

// The response for a request head over the limits (request line and headers over 64 KiB
// or more than 100 header fields): 431 with exception `constraint` (CONTRACT §8); the
// message should name the limit. Never suppressed: the query string may not have been read.
ErrorResponse MakeHeadersTooLargeResponse(std::string_view message);

// The response for an HTTP Range that lies beyond the content: 416 with exception
// `invalidArgument` (the CMIS name closest to it). Suppressible like any error.
ErrorResponse MakeRangeNotSatisfiableResponse(std::string_view message, bool suppress_response_codes = false);

// The response for a failure that the HTTP library detected before the request reached
// the service (a malformed request line, a request that did not arrive in time, ...),
// given its status: the JSON body of the closest exception, keeping that status
// (notSupported for 405, 501 and 505, constraint for 413, runtime for other 5xx,
// invalidArgument for the rest).
ErrorResponse MakeTransportErrorResponse(int http_status, std::string_view message);

}  // namespace folio::api
