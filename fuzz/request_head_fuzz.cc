// Fuzz target: what src/http makes of a request head once cpp-httplib has parsed it
// (the library's own parser is its to fuzz; the input is split here into a request line
// and "NAME: VALUE" lines as it would): the pre-routing rules (api/web_policy.h: Host and
// Origin; api/framing_rules.h: Transfer-Encoding) and the request
// (http/request_reader.h: the URL path split into segments, the query string decoded).
// Invariants: the Host and Origin rules answer OK, invalidArgument or permissionDenied,
// never OK to an HTTP/1.1 head without exactly one Host, nor to a write from a foreign
// origin, and give CORS headers only to an allowed origin; more than one
// Transfer-Encoding field is invalidArgument; a decoded request holds valid UTF-8 and no
// path segment that is empty, "." or ".." or holds a '/'.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/ascii.h"
#include "api/framing_rules.h"
#include "api/url.h"
#include "api/web_policy.h"
#include "fuzz_input.h"
#include "http/http_head.h"
#include "http/request_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  folio::http::HttpHead head;
  size_t pos = 0;
  bool first = true;
  while (pos < text.size()) {
    size_t end = text.find("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 2;
    if (first) {
      first = false;
      const size_t sp1 = line.find(' ');
      const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
      if (sp2 == std::string_view::npos) return 0;
      head.method = line.substr(0, sp1);
      head.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
      head.minor_version = line.substr(sp2 + 1) == "HTTP/1.0" ? 0 : 1;
      continue;
    }
    if (line.empty()) break;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    head.headers.emplace_back(line.substr(0, colon), value);
  }
  if (first) return 0;
  // The pre-routing rules, as src/http applies them (engine.cc: framing; server.cc: the rest).
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
