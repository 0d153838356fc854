#include "api/json_input.h"

#include <doctest/doctest.h>

#include <string>

#include "api/url.h"
#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;

TEST_CASE("ParseJsonText: keeps key order") {
  Result<Json> json = ParseJsonText(R"({"b": 1, "a": 2, "c": {"z": 1, "y": 2}})", "body");
  REQUIRE(json.ok());
  CHECK(json->dump() == R"({"b":1,"a":2,"c":{"z":1,"y":2}})");
}

TEST_CASE("ParseJsonText: limits nesting to 64 and names the input on errors") {
  CHECK(ParseJsonText(std::string(64, '[') + std::string(64, ']'), "body").ok());
  struct Case {
    std::string text;
    std::string_view culprit;
  };
  const Case cases[] = {
      {std::string(65, '[') + std::string(65, ']'), "request body is nested deeper than 64 levels"},
      {std::string(100000, '{'), "request body is nested deeper than 64 levels"},
      {"{\"a\": " + std::string(64, '[') + std::string(64, ']') + "}",
       "request body is nested deeper than 64 levels"},
      {"", "request body is not valid JSON"},
      {"{", "request body is not valid JSON"},
      {"{\"a\": 1,}", "request body is not valid JSON"},
      {"{\"a\": \"\xFF\"}", "request body is not valid JSON"},
      {"{} {}", "request body is not valid JSON"},
      {"// comment\n{}", "request body is not valid JSON"},
  };
  for (const Case& c : cases) {
    Result<Json> json = ParseJsonText(c.text, "request body");
    REQUIRE_MESSAGE(!json.ok(), c.text.substr(0, 40));
    CHECK(json.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(json.status().message(), c.culprit), json.status().message());
    CHECK(!Contains(json.status().message(), "[json.exception"));
    CHECK(IsValidUtf8(json.status().message()));
  }
}

TEST_CASE("JsonTypeForMessage: names every JSON type") {
  CHECK(JsonTypeForMessage(Json::object()) == "an object");
  CHECK(JsonTypeForMessage(Json::array()) == "an array");
  CHECK(JsonTypeForMessage(Json("x")) == "a string");
  CHECK(JsonTypeForMessage(Json(1)) == "a number");
  CHECK(JsonTypeForMessage(Json(1.5)) == "a number");
  CHECK(JsonTypeForMessage(Json(true)) == "a boolean");
  CHECK(JsonTypeForMessage(Json(nullptr)) == "null");
}

}  // namespace
}  // namespace folio::api
