// The field limits (src/api/form_limits.h), counted by the streaming urlencoded parser
// (UrlencodedParser in src/api/url.h) and by Params for JSON bodies: values over 1 MiB and
// fields over 16 MiB in all are refused while they arrive, naming the field and the limit.
#include "api/form_limits.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "api/params.h"
#include "api/url.h"
#include "api_test_util.h"

namespace folio::api {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

using testing::Contains;

using testing::ParseUrlencodedInPieces;

TEST_CASE("FormBudget: a value over 1 MiB is refused after its first megabyte, naming the field") {
  std::string body = "cmisaction=createDocument&propertyValue%5B2%5D=";
  Pairs pairs;
  FormBudget budget;
  UrlencodedParser parser("form body", &budget,
                          [&pairs](std::string name, std::string value) { pairs.emplace_back(std::move(name), std::move(value)); });
  REQUIRE(parser.Feed(body).ok());
  const std::string chunk(16 * 1024, 'a');
  Status s;
  size_t fed = 0;
  while (s.ok() && fed < 8 * 1024 * 1024) {
    s = parser.Feed(chunk);
    fed += chunk.size();
  }
  REQUIRE_FALSE(s.ok());
  CHECK(fed <= kMaxFieldBytes + 64 * 1024 + chunk.size());
  CHECK(s.kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(s.message(), "'propertyValue[2]'"), s.message());
  CHECK_MESSAGE(Contains(s.message(), "1 MiB (1048576 bytes)"), s.message());
  // A value of exactly 1 MiB passes (and '+' and escapes count as the bytes they decode to).
  Pairs ok_pairs;
  FormBudget ok_budget;
  REQUIRE(ParseUrlencodedInPieces("v=" + std::string(kMaxFieldBytes - 2, 'x') + "%41+", 4096, ok_pairs, &ok_budget).ok());
  CHECK(ok_pairs.at(0).second.size() == kMaxFieldBytes);
  // A name is limited too.
  Pairs name_pairs;
  FormBudget name_budget;
  const Status n = ParseUrlencodedInPieces(std::string(kMaxFieldBytes + 1, 'n') + "=v", 0, name_pairs, &name_budget);
  CHECK(n.kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(n.message(), "form field name 'nnnn"), n.message());
}

TEST_CASE("FormBudget: fields over 16 MiB in all are refused, naming the field where it happened") {
  std::string body;
  for (int i = 0; i < 17; ++i) body += "f" + std::to_string(i) + "=" + std::string(1000 * 1000, 'v') + "&";
  Pairs pairs;
  FormBudget budget;
  const Status s = ParseUrlencodedInPieces(body, 64 * 1024, pairs, &budget);
  REQUIRE_FALSE(s.ok());
  CHECK(s.kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(s.message(), "16 MiB (16777216 bytes) in all"), s.message());
  CHECK_MESSAGE(Contains(s.message(), "'f16'"), s.message());
  CHECK(pairs.size() == 16);
  // Many empty fields cost their overhead: a million of them is over the limit.
  FormBudget empties;
  Status e;
  for (int i = 0; i < 1000000 && e.ok(); ++i) e = empties.BeginField();
  CHECK(e.kind() == ErrorKind::kConstraint);
}

TEST_CASE("Params: a JSON body is bounded like the fields, each string to 1 MiB") {
  Request r;
  r.method = "POST";
  r.content_type = "application/json";
  r.body = R"({"cmisaction":"createDocument","properties":{"cmis:name":"a","cmis:description":")" +
           std::string(kMaxFieldBytes + 1, 'd') + R"("}})";
  auto p = Params::FromRequest(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(p.status().message(), "'properties.cmis:description'"), p.status().message());
  CHECK_MESSAGE(Contains(p.status().message(), "1 MiB"), p.status().message());
  r.body = R"({"addACEs":[{"principal":"x","permissions":[")" + std::string(kMaxFieldBytes + 1, 'p') + R"("]}]})";
  p = Params::FromRequest(r);
  CHECK(p.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(p.status().message(), "'addACEs[0].permissions[0]'"), p.status().message());
  r.body = R"({"a":")" + std::string(kMaxFormBytes, 'x') + R"("})";
  p = Params::FromRequest(r);
  CHECK(p.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(p.status().message(), "JSON body is larger than the limit of 16 MiB"), p.status().message());
  r.body = R"({"a":")" + std::string(kMaxFieldBytes, 'x') + R"("})";  // exactly 1 MiB
  CHECK(Params::FromRequest(r).ok());
}

TEST_CASE("Params: a JSON text of more than 1,000,000 values is refused before it is parsed") {
  Request r;
  r.method = "POST";
  r.content_type = "application/json";
  r.body = "{\"a\":[";
  for (int i = 0; i < 1000001; ++i) r.body += "0,";
  r.body += "0]}";
  auto p = Params::FromRequest(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Contains(p.status().message(), "1000000 JSON values"), p.status().message());
}

TEST_CASE("Params: urlencoded fields read by src/http count as an urlencoded body") {
  Request r;
  r.method = "POST";
  r.content_type = "application/x-www-form-urlencoded";
  r.form_fields = {{"cmisaction", "createFolder"}};
  auto p = Params::FromRequest(r);
  REQUIRE(p.ok());
  CHECK(p->body_encoding() == BodyEncoding::kUrlencoded);
  CHECK(p->Has("operation"));
  CHECK(BodyEncodingOf("application/vnd.api+json") == BodyEncoding::kJson);
  CHECK(BodyEncodingOf("text/plain") == BodyEncoding::kNone);
  CHECK(Contains(UnsupportedBody("text/plain").message(), "'text/plain'"));
}

}  // namespace
}  // namespace folio::api
