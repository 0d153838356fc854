#include "api/params.h"

#include <doctest/doctest.h>

#include <string>

#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;
using testing::FormRequest;
using testing::JsonRequest;
using testing::QueryRequest;

Params MustParse(const Request& request) {
  Result<Params> params = Params::FromRequest(request);
  REQUIRE_MESSAGE(params.ok(), params.status().ToString());
  return std::move(params).value();
}

void CheckFails(const Request& request, ErrorKind kind, std::string_view culprit) {
  Result<Params> params = Params::FromRequest(request);
  REQUIRE_MESSAGE(!params.ok(), culprit);
  CHECK(params.status().kind() == kind);
  CHECK_MESSAGE(Contains(params.status().message(), culprit), params.status().message());
}

TEST_CASE("Params: names match case-insensitively; the three operation names are one") {
  const Params params =
      MustParse(QueryRequest({{"ObjectID", "d42"}, {"CMISSELECTOR", "checkedOut"}}));
  CHECK(params.Has("objectId"));
  CHECK(*params.GetString("objectid") == "d42");
  CHECK(params.Has("operation"));
  CHECK(params.Has("cmisaction"));
  Result<std::optional<Operation>> op = params.GetOperation();
  REQUIRE(op.ok());
  CHECK(*op == Operation::kCheckedOut);
  CHECK(params.body_encoding() == BodyEncoding::kNone);
}

TEST_CASE("Params: each body encoding gives the same parameters, body winning over query") {
  Request request;
  SUBCASE("json") {
    request = JsonRequest(R"({"operation": "checkIn", "major": false, "checkinComment": "v2"})");
  }
  SUBCASE("urlencoded") {
    request = FormRequest("cmisaction=checkIn&major=false&checkinComment=v2");
  }
  SUBCASE("multipart") {
    request.method = "POST";
    request.content_type = "multipart/form-data; boundary=xyz";
    request.form_fields = {{"cmisaction", "checkIn"}, {"major", "false"}, {"checkinComment", "v2"}};
  }
  request.query = {{"operation", "checkOut"}, {"major", "true"}, {"objectId", "d42;pwc"}};
  const Params params = MustParse(request);
  CHECK(*params.GetOperation() == Operation::kCheckIn);
  CHECK(*params.GetBool("major", true) == false);
  CHECK(*params.GetString("checkinComment") == "v2");
  CHECK(*params.GetString("objectId") == "d42;pwc");
}

TEST_CASE("Params: body encoding is reported for --strict") {
  CHECK(MustParse(JsonRequest("{}")).body_encoding() == BodyEncoding::kJson);
  CHECK(MustParse(FormRequest("a=1")).body_encoding() == BodyEncoding::kUrlencoded);
  Request multipart;
  multipart.content_type = "Multipart/Form-Data; boundary=x";
  CHECK(MustParse(multipart).body_encoding() == BodyEncoding::kMultipart);
  Request json_type;
  json_type.content_type = "application/vnd.api+json; charset=utf-8";
  json_type.body = R"({"a": 1})";
  CHECK(MustParse(json_type).body_encoding() == BodyEncoding::kJson);
}

TEST_CASE("Params: an empty value is absent and does not override") {
  Request request = FormRequest("succinct=&filter=&objectId=d1&objectId=d2");
  request.query = {{"succinct", "true"}, {"maxItems", ""}};
  const Params params = MustParse(request);
  CHECK(*params.GetBool("succinct", false) == true);  // the body's empty value is absent
  CHECK(!params.Has("filter"));
  CHECK(params.Find("filter") == nullptr);
  CHECK(*params.GetString("filter", "*") == "*");
  CHECK(*params.GetInt("maxItems", 100, 1, 10000) == 100);
  CHECK(*params.GetString("objectId") == "d1");  // first non-empty wins within a source
  CHECK(!MustParse(JsonRequest(R"({"a": null, "b": ""})")).Has("a"));
  CHECK(!MustParse(QueryRequest({})).GetOperation()->has_value());
}

TEST_CASE("Params: JSON values other than strings are kept as JSON") {
  const Params params = MustParse(JsonRequest(
      R"({"properties": {"cmis:name": "a.txt", "acme:n": 3}, "succinct": true, "maxItems": 20})"));
  const Json* properties = params.Find("PROPERTIES");
  REQUIRE(properties != nullptr);
  CHECK(properties->is_object());
  CHECK((*properties)["acme:n"] == 3);
  CHECK(*params.GetBool("succinct", false) == true);
  CHECK(*params.GetInt("maxItems", 100, 1, 10000) == 20);
  CHECK(*params.GetString("maxItems") == "20");
  Result<std::string> as_string = params.GetString("properties");
  CHECK(as_string.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(as_string.status().message(), "parameter 'properties' must be a string"));
}

TEST_CASE("Params: bad bodies are invalidArgument, naming what is wrong") {
  struct Case {
    std::string content_type;
    std::string body;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"application/json", "{\"a\": ", "request body is not valid JSON"},
      {"application/json", "{'a': 1}", "request body is not valid JSON"},
      {"application/json", "[1, 2]", "request body must be a JSON object, got an array"},
      {"application/json", "\"text\"", "request body must be a JSON object, got a string"},
      {"application/json", "{\"a\": \"\xFF\"}", "request body is not valid JSON"},
      {"application/json", std::string(65, '[') + std::string(65, ']'),
       "request body is nested deeper than 64 levels"},
      {"application/x-www-form-urlencoded", "a=%zz",
       "invalid percent-escape '%zz' in form body parameter 'a'"},
      {"application/x-www-form-urlencoded", "a=%FF", "invalid UTF-8 in form body parameter 'a'"},
      {"text/plain", "hello", "unsupported request body type 'text/plain'"},
      {"", "a=1", "request body has no Content-Type"},
  };
  for (const Case& c : cases) {
    Request request;
    request.method = "POST";
    request.content_type = c.content_type;
    request.body = c.body;
    CheckFails(request, ErrorKind::kInvalidArgument, c.culprit);
  }
}

TEST_CASE("Params: JSON nesting of exactly 64 levels is accepted") {
  std::string body = "{\"a\": " + std::string(63, '[') + std::string(63, ']') + "}";
  CHECK(MustParse(JsonRequest(body)).Has("a"));
  // Brackets inside strings do not count.
  CHECK(MustParse(JsonRequest("{\"a\": \"" + std::string(100, '[') + "\"}")).Has("a"));
}

TEST_CASE("Params: invalid UTF-8 in the query or in multipart fields names the parameter") {
  CheckFails(QueryRequest({{"name", "a\xFF"}}), ErrorKind::kInvalidArgument,
             "invalid UTF-8 in query parameter 'name'");
  CheckFails(QueryRequest({{"na\xC3", "x"}}), ErrorKind::kInvalidArgument,
             "invalid UTF-8 in query parameter name 'na\\xC3'");
  Request request;
  request.content_type = "multipart/form-data; boundary=b";
  request.form_fields = {{"checkinComment", "\xED\xA0\x80"}};
  CheckFails(request, ErrorKind::kInvalidArgument,
             "invalid UTF-8 in form parameter 'checkinComment'");
}

TEST_CASE("Params: GetBool accepts true/false in any case and names bad values") {
  struct Case {
    std::string_view text;
    bool value;
  };
  const Case good[] = {
      {"true", true}, {"TRUE", true}, {"True", true}, {"false", false}, {"FALSE", false}};
  for (const Case& c : good) {
    const Params params = MustParse(QueryRequest({{"succinct", std::string(c.text)}}));
    Result<bool> value = params.GetBool("succinct", !c.value);
    REQUIRE_MESSAGE(value.ok(), c.text);
    CHECK(*value == c.value);
  }
  const std::string_view bad[] = {"yes", "1", "0", "on", "t", "truee", " true"};
  for (const std::string_view text : bad) {
    const Params params = MustParse(QueryRequest({{"succinct", std::string(text)}}));
    Result<bool> value = params.GetBool("succinct", false);
    REQUIRE_MESSAGE(!value.ok(), text);
    CHECK(value.status().kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(value.status().message(), "parameter 'succinct' must be true or false"));
    CHECK(Contains(value.status().message(), "'" + std::string(text) + "'"));
  }
  Result<bool> number = MustParse(JsonRequest(R"({"major": 1})")).GetBool("major", true);
  CHECK(number.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(number.status().message(), "parameter 'major' must be true or false, got '1'"));
}

TEST_CASE("Params: GetInt parses integers within range and names bad values") {
  struct Good {
    std::string_view text;
    int64_t value;
  };
  const Good good[] = {{"0", 0}, {"10000", 10000}, {"+5", 5}, {"-1", -1}, {"42", 42}};
  for (const Good& c : good) {
    const Params params = MustParse(QueryRequest({{"depth", std::string(c.text)}}));
    Result<int64_t> value = params.GetInt("depth", 1, -1, 10000);
    REQUIRE_MESSAGE(value.ok(), c.text);
    CHECK(*value == c.value);
  }
  struct Bad {
    std::string_view text;
    std::string_view culprit;
  };
  const Bad bad[] = {
      {"abc", "parameter 'depth' must be an integer, got 'abc'"},
      {"1.5", "must be an integer, got '1.5'"},
      {"12x", "must be an integer, got '12x'"},
      {"+-1", "must be an integer"},
      {"-", "must be an integer"},
      {"10001", "parameter 'depth' must be between -1 and 10000, got '10001'"},
      {"-2", "must be between -1 and 10000, got '-2'"},
      {"99999999999999999999", "must be between -1 and 10000"},
  };
  for (const Bad& c : bad) {
    const Params params = MustParse(QueryRequest({{"depth", std::string(c.text)}}));
    Result<int64_t> value = params.GetInt("depth", 1, -1, 10000);
    REQUIRE_MESSAGE(!value.ok(), c.text);
    CHECK(value.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(value.status().message(), c.culprit), value.status().message());
  }
  const Params json =
      MustParse(JsonRequest(R"({"a": 7, "b": 2.5, "c": true, "d": 18446744073709551615})"));
  CHECK(*json.GetInt("a", 0, 0, 10) == 7);
  CHECK(json.GetInt("b", 0, 0, 10).status().kind() == ErrorKind::kInvalidArgument);
  CHECK(json.GetInt("c", 0, 0, 10).status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(json.GetInt("d", 0, 0, 10).status().message(), "between 0 and 10"));
}

TEST_CASE("Params: RequireString names the missing parameter") {
  const Params params = MustParse(QueryRequest({{"q", ""}}));
  Result<std::string> q = params.RequireString("q");
  CHECK(q.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(q.status().message() == "missing required parameter 'q'");
}

TEST_CASE("Params: GetJsonObject takes a JSON object or a string holding one") {
  SUBCASE("json body") {
    const Params params = MustParse(JsonRequest(R"({"properties": {"cmis:name": "x"}})"));
    CHECK((**params.GetJsonObject("properties"))["cmis:name"] == "x");
  }
  SUBCASE("form field") {
    const Params params = MustParse(FormRequest("properties=%7B%22cmis%3Aname%22%3A%22x%22%7D"));
    CHECK((**params.GetJsonObject("properties"))["cmis:name"] == "x");
  }
  SUBCASE("absent") {
    CHECK(!MustParse(QueryRequest({})).GetJsonObject("properties")->has_value());
  }
  struct Bad {
    std::string body;
    std::string_view culprit;
  };
  const Bad bad[] = {
      {R"({"properties": [1]})", "parameter 'properties' must be a JSON object, got an array"},
      {R"({"properties": 5})", "parameter 'properties' must be a JSON object, got a number"},
      {R"({"properties": "{bad"})", "parameter 'properties' is not valid JSON"},
      {R"({"properties": "[]"})", "parameter 'properties' must be a JSON object, got an array"},
      {"{\"properties\": \"" + std::string(70, '[') + "\"}",
       "parameter 'properties' is nested deeper than 64 levels"},
  };
  for (const Bad& c : bad) {
    Result<std::optional<Json>> object = MustParse(JsonRequest(c.body)).GetJsonObject("properties");
    REQUIRE_MESSAGE(!object.ok(), c.body);
    CHECK(object.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(object.status().message(), c.culprit), object.status().message());
  }
}

TEST_CASE("Params: an unknown operation is notSupported, naming it") {
  Result<std::optional<Operation>> op = MustParse(FormRequest("cmisaction=explode")).GetOperation();
  CHECK(op.status().kind() == ErrorKind::kNotSupported);
  CHECK(Contains(op.status().message(), "'explode'"));
  Result<std::optional<Operation>> typed =
      MustParse(JsonRequest(R"({"operation": 3})")).GetOperation();
  CHECK(typed.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(typed.status().message(), "parameter 'operation' must be a string"));
}

}  // namespace
}  // namespace folio::api
