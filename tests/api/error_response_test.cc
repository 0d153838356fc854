#include "api/error_response.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "api_test_util.h"

namespace folio::api {
namespace {

TEST_CASE("MakeErrorResponse: every kind has its CONTRACT section 6 status and exception") {
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
  // Walk every kind, so a new kind cannot be added without a status.
  CHECK(std::size(cases) == static_cast<size_t>(ErrorKind::kRuntime));
  for (const Case& c : cases) {
    CHECK(HttpStatusFor(c.kind) == c.status);
    const ErrorResponse response = MakeErrorResponse(Status(c.kind, "no object at path '/a'"));
    CHECK(response.http_status == c.status);
    CHECK(response.exception == c.exception);
    const nlohmann::json body = nlohmann::json::parse(response.body);
    CHECK(body ==
          nlohmann::json{{"exception", c.exception}, {"message", "no object at path '/a'"}});
    CHECK(response.body.rfind("{\"exception\":", 0) == 0);  // exception first, as in CMIS
    const ErrorResponse suppressed = MakeErrorResponse(Status(c.kind, "m"), true);
    CHECK(suppressed.http_status == 200);
    CHECK(nlohmann::json::parse(suppressed.body)["exception"] == c.exception);
  }
}

TEST_CASE("MakeErrorResponse: an OK status is a runtime error; bad bytes do not throw") {
  const ErrorResponse ok = MakeErrorResponse(OkStatus());
  CHECK(ok.http_status == 500);
  CHECK(ok.exception == "runtime");
  const ErrorResponse bad_bytes = MakeErrorResponse(InvalidArgument("bad name 'a\xFF'"));
  CHECK(bad_bytes.http_status == 400);
  CHECK(nlohmann::json::parse(bad_bytes.body)["message"] == "bad name 'a\xEF\xBF\xBD'");
}

TEST_CASE("MakeBodyTooLargeResponse: 413 with exception constraint") {
  const ErrorResponse response =
      MakeBodyTooLargeResponse("request body is larger than --max-body (1024 bytes)");
  CHECK(response.http_status == 413);
  CHECK(response.exception == "constraint");
  const nlohmann::json body = nlohmann::json::parse(response.body);
  CHECK(body["exception"] == "constraint");
  CHECK(body["message"] == "request body is larger than --max-body (1024 bytes)");
  CHECK(MakeBodyTooLargeResponse("x", true).http_status == 200);
}

}  // namespace
}  // namespace folio::api
