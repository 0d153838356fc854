// Fuzz target: the request head (http/head_parser.h) fed in pieces as a socket delivers
// it, then what src/http makes of a parsed head: the pre-routing rules (api/web_policy.h:
// Host and Origin; api/framing_rules.h: Transfer-Encoding) and the request
// (http/request_reader.h: the URL path split into segments, the query string decoded).
// Invariants: a complete head never takes more bytes than it was given and every line of
// it ends in CRLF (no bare LF); an error has a status among 400, 431 and 505 and a
// message; the Host and Origin rules answer OK, invalidArgument or permissionDenied, never
// OK to an HTTP/1.1 head without exactly one Host, nor to a write from a foreign origin,
// and give CORS headers only to an allowed origin; more than one Transfer-Encoding field
// is invalidArgument; a decoded request holds valid UTF-8 and no path segment that is
// empty, "." or ".." or holds a '/'.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/ascii.h"
#include "api/framing_rules.h"
#include "api/url.h"
#include "api/web_policy.h"
#include "fuzz_input.h"
#include "http/head_parser.h"
#include "http/request_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using folio::http::HeadParser;
  const folio::fuzz::Split split = folio::fuzz::SplitInput(data, size);
  HeadParser parser(folio::http::HeadLimits{4096, 20});
  std::string buffer;
  HeadParser::State state = HeadParser::State::kIncomplete;
  for (std::string_view piece : split.pieces) {
    buffer.append(piece);
    state = parser.Parse(buffer);
    if (state != HeadParser::State::kIncomplete) break;
  }
  if (state == HeadParser::State::kError) {
    const int status = parser.error_status();
    FOLIO_FUZZ_CHECK(status == 400 || status == 431 || status == 505);
    FOLIO_FUZZ_CHECK(!parser.error_message().empty());
    return 0;
  }
  if (state != HeadParser::State::kComplete) return 0;
  FOLIO_FUZZ_CHECK(parser.head_size() <= buffer.size());
  for (size_t i = 0; i < parser.head_size(); ++i) {
    if (buffer[i] == '\n') FOLIO_FUZZ_CHECK(i > 0 && buffer[i - 1] == '\r');
  }
  const folio::http::HttpHead& head = parser.head();
  // The pre-routing rules, as src/http/server.cc applies them.
  folio::api::WebRequest web;
  web.method = head.method;
  web.http10 = head.minor_version == 0;
  std::vector<std::string_view> encodings;
  for (const auto& [name, value] : head.headers) {
    if (folio::api::EqualsIgnoreCase(name, "Host")) web.hosts.push_back(value);
    if (folio::api::EqualsIgnoreCase(name, "Origin")) web.origins.push_back(value);
    if (folio::api::EqualsIgnoreCase(name, "Transfer-Encoding")) encodings.push_back(value);
  }
  web.preflight_method = head.header("Access-Control-Request-Method");
  web.preflight_headers = head.header("Access-Control-Request-Headers");
  static const folio::api::WebPolicy policy(folio::api::WebPolicyOptions{{"folio.test"}, {"https://app.test"}, ""});
  const folio::api::WebDecision decision = policy.Decide(web);
  const folio::ErrorKind kind = decision.status.kind();
  FOLIO_FUZZ_CHECK(kind == folio::ErrorKind::kOk || kind == folio::ErrorKind::kInvalidArgument ||
                   kind == folio::ErrorKind::kPermissionDenied);
  FOLIO_FUZZ_CHECK(decision.status.ok() || !decision.status.message().empty());
  if (!web.http10 && web.hosts.size() != 1) FOLIO_FUZZ_CHECK(!decision.status.ok());
  bool cors = false;
  for (const auto& [name, value] : decision.headers) {
    if (name != "Access-Control-Allow-Origin") continue;
    cors = true;
    FOLIO_FUZZ_CHECK(web.origins.size() == 1 && value == web.origins.front());  // echoed, never '*' here
  }
  const bool safe = web.method == "GET" || web.method == "HEAD" || web.method == "OPTIONS";
  if (decision.status.ok() && !safe && web.origins.size() == 1) FOLIO_FUZZ_CHECK(cors);  // a write needs an allowed origin
  const folio::Status framing = folio::api::CheckTransferEncodings(encodings);
  FOLIO_FUZZ_CHECK(framing.ok() == (encodings.size() <= 1));
  if (!framing.ok()) FOLIO_FUZZ_CHECK(framing.kind() == folio::ErrorKind::kInvalidArgument);
  auto request = folio::http::ReadRequestHead(head, [] { return std::string("127.0.0.1:8080"); });
  if (!request.ok()) {
    FOLIO_FUZZ_CHECK(!request.status().message().empty());
    FOLIO_FUZZ_CHECK(folio::api::IsValidUtf8(request.status().message()));
    return 0;
  }
  for (const std::string& segment : request->path) {
    FOLIO_FUZZ_CHECK(!segment.empty() && segment != "." && segment != "..");
    FOLIO_FUZZ_CHECK(segment.find('/') == std::string::npos);
    FOLIO_FUZZ_CHECK(folio::api::IsValidUtf8(segment));
  }
  for (const auto& [name, value] : request->query) {
    FOLIO_FUZZ_CHECK(folio::api::IsValidUtf8(name) && folio::api::IsValidUtf8(value));
  }
  return 0;
}
