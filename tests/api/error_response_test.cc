#include "api/error_response.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;

std::string HeaderOf(const Response& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

// The shape every error response has: JSON, exception first, then the message.
void CheckErrorBody(const Response& response, std::string_view exception, std::string_view message) {
  CHECK(response.content_type == "application/json; charset=UTF-8");
  CHECK(response.exception == exception);
  CHECK(response.body.rfind("{\"exception\":", 0) == 0);  // exception first, as in CMIS
  const nlohmann::json body = nlohmann::json::parse(response.body);
  CHECK(body == nlohmann::json{{"exception", exception}, {"message", message}});
}

TEST_CASE("MakeErrorResponse: every kind has its status and exception (docs/API.md section 8)") {
  struct Case {
    ErrorKind kind;
    int status;
    std::string_view exception;
  };
  const Case cases[] = {
      {ErrorKind::kInvalidArgument, 400, "invalidArgument"},
      {ErrorKind::kFilterNotValid, 400, "filterNotValid"},
      {ErrorKind::kUnauthorized, 401, "unauthorized"},
      {ErrorKind::kPermissionDenied, 403, "permissionDenied"},
      {ErrorKind::kStreamNotSupported, 403, "streamNotSupported"},
      {ErrorKind::kObjectNotFound, 404, "objectNotFound"},
      {ErrorKind::kNotSupported, 405, "notSupported"},
      {ErrorKind::kConstraint, 409, "constraint"},
      {ErrorKind::kContentAlreadyExists, 409, "contentAlreadyExists"},
      {ErrorKind::kNameConstraintViolation, 409, "nameConstraintViolation"},
      {ErrorKind::kUpdateConflict, 409, "updateConflict"},
      {ErrorKind::kVersioning, 409, "versioning"},
      {ErrorKind::kRuntime, 500, "runtime"},
      {ErrorKind::kStorage, 500, "storage"},
  };
  // Walk every kind (kOk is 0, kRuntime the last), so a new kind cannot be added
  // without a status.
  REQUIRE(std::size(cases) == static_cast<size_t>(ErrorKind::kRuntime));
  std::set<ErrorKind> seen;
  for (const Case& c : cases) {
    CAPTURE(c.exception);
    CHECK(seen.insert(c.kind).second);
    CHECK(HttpStatusFor(c.kind) == c.status);
    const Response response = MakeErrorResponse(Status(c.kind, "no object at path '/a'"));
    CHECK(response.status == c.status);
    CheckErrorBody(response, c.exception, "no object at path '/a'");
    const bool challenge = c.kind == ErrorKind::kUnauthorized;
    CHECK(response.headers.size() == (challenge ? 1u : 0u));
    if (challenge) CHECK(Contains(HeaderOf(response, "WWW-Authenticate"), "Basic realm="));
    const Response suppressed = MakeErrorResponse(Status(c.kind, "m"), true);
    CHECK(suppressed.status == 200);
    CheckErrorBody(suppressed, c.exception, "m");
    CHECK(suppressed.headers == response.headers);
  }
}

TEST_CASE("MakeErrorResponse: an OK status is a runtime error; bad bytes do not throw") {
  const Response ok = MakeErrorResponse(OkStatus());
  CHECK(ok.status == 500);
  CHECK(ok.exception == "runtime");
  const Response bad_bytes = MakeErrorResponse(InvalidArgument("bad name 'a\xFF'"));
  CHECK(bad_bytes.status == 400);
  CHECK(nlohmann::json::parse(bad_bytes.body)["message"] == "bad name 'a\xEF\xBF\xBD'");
}

TEST_CASE("MakeTransportErrorResponse: every transport error has its status and exception") {
  struct Case {
    TransportError error;
    int status;
    std::string_view exception;
    std::string_view default_message_part;
  };
  const Case cases[] = {
      {TransportError::kBadRequest, 400, "invalidArgument", "malformed HTTP request"},
      {TransportError::kBodyTooLarge, 413, "constraint", "body is too large"},
      {TransportError::kUriTooLong, 414, "constraint", "request line is too long"},
      {TransportError::kUnsupportedEncoding, 415, "invalidArgument", "Content-Encoding"},
      {TransportError::kRangeNotSatisfiable, 416, "invalidArgument", "Range"},
      {TransportError::kHeaderFieldsTooLarge, 431, "constraint", "headers are too large"},
      {TransportError::kRequestTimeout, 408, "invalidArgument", "did not arrive in time"},
      {TransportError::kNotImplemented, 501, "notSupported", "does not implement"},
      {TransportError::kVersionNotSupported, 505, "notSupported", "HTTP/1.1"},
      {TransportError::kInternal, 500, "runtime", "internal error"},
  };
  REQUIRE(std::size(cases) == std::size(kAllTransportErrors));
  for (size_t i = 0; i < std::size(cases); ++i) {
    const Case& c = cases[i];
    CAPTURE(c.status);
    REQUIRE(c.error == kAllTransportErrors[i]);
    CHECK(HttpStatusFor(c.error) == c.status);
    CHECK(ErrorKindName(ExceptionFor(c.error)) == c.exception);
    const Response named = MakeTransportErrorResponse(c.error, "request body is larger than 1000 bytes");
    CHECK(named.status == c.status);
    CheckErrorBody(named, c.exception, "request body is larger than 1000 bytes");
    CHECK(named.headers.empty());
    const Response plain = MakeTransportErrorResponse(c.error);
    CHECK(plain.status == c.status);
    CHECK_MESSAGE(Contains(nlohmann::json::parse(plain.body)["message"].get<std::string>(), c.default_message_part),
                  plain.body);
    CHECK(MakeTransportErrorResponse(c.error, "m", true).status == 200);
    // The HTTP library's own status gives the same answer.
    const Response from_library = MakeTransportErrorResponse(c.status);
    CHECK(from_library.status == c.status);
    CHECK(from_library.exception == c.exception);
    CHECK(from_library.body == plain.body);
  }
}

TEST_CASE("MakeTransportErrorResponse: any other status of the HTTP library keeps it, with JSON naming it") {
  for (int status = 400; status < 600; ++status) {
    CAPTURE(status);
    const Response response = MakeTransportErrorResponse(status);
    CHECK(response.status == status);
    CHECK(response.content_type == "application/json; charset=UTF-8");
    const nlohmann::json body = nlohmann::json::parse(response.body);
    CHECK(body["exception"] == response.exception);
    CHECK(body["message"].is_string());
    std::string_view expected = status >= 500 ? "runtime" : "invalidArgument";
    if (status == 404) expected = "objectNotFound";
    if (status == 405 || status == 501 || status == 505) expected = "notSupported";
    if (status == 413 || status == 414 || status == 431) expected = "constraint";
    CHECK(response.exception == expected);
  }
  CHECK(Contains(MakeTransportErrorResponse(418).body, "status 418"));
}

}  // namespace
}  // namespace folio::api
