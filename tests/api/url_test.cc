#include "api/url.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "api_test_util.h"

namespace folio::api {
namespace {

using testing::Contains;
using testing::ParseUrlencodedInPieces;

TEST_CASE("PercentDecode: decodes escapes in either case") {
  struct Case {
    std::string_view in;
    PlusMode plus;
    std::string_view out;
  };
  const Case cases[] = {
      {"", PlusMode::kLiteral, ""},
      {"plain", PlusMode::kLiteral, "plain"},
      {"a%20b", PlusMode::kLiteral, "a b"},
      {"Q%C3%A4rz", PlusMode::kLiteral, "Q\xC3\xA4rz"},
      {"Q%c3%a4rz", PlusMode::kLiteral, "Q\xC3\xA4rz"},
      {"a+b", PlusMode::kLiteral, "a+b"},
      {"a+b", PlusMode::kSpace, "a b"},
      {"a%2Bb", PlusMode::kSpace, "a+b"},
      {"%5B0%5D", PlusMode::kLiteral, "[0]"},
  };
  for (const Case& c : cases) {
    Result<std::string> decoded = PercentDecode(c.in, "test", c.plus);
    REQUIRE_MESSAGE(decoded.ok(), c.in);
    CHECK(*decoded == c.out);
  }
}

TEST_CASE("PercentDecode: rejects bad escapes and invalid UTF-8, naming them") {
  struct Case {
    std::string_view in;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"a%zzb", "invalid percent-escape '%zz' in query parameter 'q'"},
      {"a%4", "invalid percent-escape '%4' in query parameter 'q'"},
      {"a%", "invalid percent-escape '%' in query parameter 'q'"},
      {"%G0", "invalid percent-escape '%G0'"},
      {"%C3", "invalid UTF-8 in query parameter 'q'"},
      {"%C0%AF", "invalid UTF-8 in query parameter 'q'"},
      {"%FF", "invalid UTF-8"},
      {"\xFF", "invalid UTF-8"},
  };
  for (const Case& c : cases) {
    Result<std::string> decoded = PercentDecode(c.in, "query parameter 'q'");
    REQUIRE_MESSAGE(!decoded.ok(), c.in);
    CHECK(decoded.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(decoded.status().message(), c.culprit), decoded.status().message());
  }
}

TEST_CASE("SplitPath: decodes segments and skips empty ones") {
  struct Case {
    std::string_view in;
    std::vector<std::string> out;
  };
  const Case cases[] = {
      {"", {}},
      {"/", {}},
      {"//", {}},
      {"/acme", {"acme"}},
      {"/acme/main/", {"acme", "main"}},
      {"acme//main", {"acme", "main"}},
      {"/acme/main/Projects/Q%C3%A4rz/plan.pdf",
       {"acme", "main", "Projects", "Q\xC3\xA4rz", "plan.pdf"}},
      {"/a/b%20c/d+e", {"a", "b c", "d+e"}},
      {"/a/...", {"a", "..."}},
      {"/a/.hidden/..x", {"a", ".hidden", "..x"}},
      {"/a/%25", {"a", "%"}},
  };
  for (const Case& c : cases) {
    Result<std::vector<std::string>> segments = SplitPath(c.in);
    REQUIRE_MESSAGE(segments.ok(), c.in);
    CHECK(*segments == c.out);
  }
}

TEST_CASE("SplitPath: refuses traversal, encoded separators and bad text, naming the segment") {
  struct Case {
    std::string_view in;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"/a/../b", "path segment '..'"},
      {"/a/./b", "path segment '.'"},
      {"/a/%2e%2e/b", "path segment '%2e%2e'"},
      {"/a/%2E/b", "path segment '%2E'"},
      {"/a/.%2E", "path segment '.%2E'"},
      {"/a/b%2Fc", "path segment 'b%2Fc' contains an encoded '/'"},
      {"/a/b%2f..%2fc", "contains an encoded '/'"},
      {"/a/b%00c", "path segment 'b%00c' contains NUL"},
      {"/a/b%zz", "invalid percent-escape '%zz' in path segment 'b%zz'"},
      {"/a/%C3", "invalid UTF-8 in path segment '%C3'"},
      {"/a/\xFF", "invalid UTF-8 in path segment '\\xFF'"},
  };
  for (const Case& c : cases) {
    Result<std::vector<std::string>> segments = SplitPath(c.in);
    REQUIRE_MESSAGE(!segments.ok(), c.in);
    CHECK(segments.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(segments.status().message(), c.culprit), segments.status().message());
  }
}

TEST_CASE("ParseFormUrlencoded: keeps order and repeats, '+' is a space") {
  Result<std::vector<std::pair<std::string, std::string>>> pairs = ParseFormUrlencoded(
      "cmisaction=createFolder&&propertyId%5B0%5D=cmis%3Aname&propertyValue%5B0%5D=My+Reports"
      "&flag&empty=&a=1&a=2&eq=x=y",
      "form body");
  REQUIRE(pairs.ok());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"cmisaction", "createFolder"},
      {"propertyId[0]", "cmis:name"},
      {"propertyValue[0]", "My Reports"},
      {"flag", ""},
      {"empty", ""},
      {"a", "1"},
      {"a", "2"},
      {"eq", "x=y"}};
  CHECK(*pairs == expected);
  CHECK(ParseFormUrlencoded("", "form body")->empty());
}

TEST_CASE("ParseFormUrlencoded: names the parameter with a bad escape or bad UTF-8; so does UrlencodedParser, split anywhere") {
  struct Case {
    std::string_view in;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"a=1&name=x%zz", "invalid percent-escape '%zz' in form body parameter 'name'"},
      {"a=1&na%zzme=x", "invalid percent-escape '%zz' in form body parameter name 'na%zzme'"},
      {"name=%C3%28", "invalid UTF-8 in form body parameter 'name'"},
      {"a=1&name=x%4", "invalid percent-escape '%4' in form body parameter 'name'"},
      {"a=%4&b=1", "invalid percent-escape '%4' in form body parameter 'a'"},
      {"%C3%28=1", "invalid UTF-8 in form body parameter name '%C3%28'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    auto pairs = ParseFormUrlencoded(c.in, "form body");
    REQUIRE_MESSAGE(!pairs.ok(), c.in);
    CHECK(pairs.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(pairs.status().message(), c.culprit), pairs.status().message());
    for (size_t piece : {1, 2, 5}) {
      CAPTURE(piece);
      std::vector<std::pair<std::string, std::string>> streamed;
      const Status s = ParseUrlencodedInPieces(c.in, piece, streamed);
      CHECK(s.kind() == ErrorKind::kInvalidArgument);
      CHECK(s.message() == pairs.status().message());
    }
  }
}

TEST_CASE("UrlencodedParser: pieces of any size give the pairs of the whole body") {
  const std::string body =
      "cmisaction=createFolder&&propertyId%5B0%5D=cmis%3Aname&propertyValue%5B0%5D=My+Reports"
      "&flag&empty=&a=1&a=2&eq=x=y&na%C3%AFve=%E2%82%AC";
  auto whole = ParseFormUrlencoded(body, "form body");
  REQUIRE(whole.ok());
  CHECK(whole->size() == 9);
  CHECK(whole->back() == std::pair<std::string, std::string>("na\xC3\xAFve", "\xE2\x82\xAC"));
  for (size_t piece = 1; piece <= 8; ++piece) {
    CAPTURE(piece);
    std::vector<std::pair<std::string, std::string>> pairs;
    REQUIRE(ParseUrlencodedInPieces(body, piece, pairs).ok());
    CHECK(pairs == *whole);
  }
}

TEST_CASE("DecodeRfc5987: decodes UTF-8 and ISO-8859-1 values") {
  struct Case {
    std::string_view in;
    std::string_view out;
  };
  const Case cases[] = {
      {"UTF-8''na%C3%AFve%20plan.txt", "na\xC3\xAFve plan.txt"},
      {"utf-8'en'plain.txt", "plain.txt"},
      {"\"UTF-8''quoted.txt\"", "quoted.txt"},
      {"ISO-8859-1''caf%E9.txt", "caf\xC3\xA9.txt"},
      {"UTF-8''", ""},
  };
  for (const Case& c : cases) {
    Result<std::string> decoded = DecodeRfc5987(c.in);
    REQUIRE_MESSAGE(decoded.ok(), c.in);
    CHECK(*decoded == c.out);
  }
}

TEST_CASE("DecodeRfc5987: rejects malformed values, naming them") {
  struct Case {
    std::string_view in;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"plain.txt", "malformed RFC 5987 value 'plain.txt'"},
      {"UTF-8'plain.txt", "malformed RFC 5987 value"},
      {"KOI8-R''x", "unsupported charset 'KOI8-R'"},
      {"UTF-8''a%zz", "invalid percent-escape '%zz' in RFC 5987 value"},
      {"UTF-8''caf%E9", "invalid UTF-8 in RFC 5987 value 'UTF-8''caf%E9'"},
  };
  for (const Case& c : cases) {
    Result<std::string> decoded = DecodeRfc5987(c.in);
    REQUIRE_MESSAGE(!decoded.ok(), c.in);
    CHECK(decoded.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(decoded.status().message(), c.culprit), decoded.status().message());
  }
}

}  // namespace
}  // namespace folio::api
