// Fuzz target: the request head (http/head_parser.h) fed in pieces as a socket delivers
// it, then what src/http makes of a parsed head (http/request_reader.h: the URL path
// split into segments, the query string decoded, the body framing headers).
// Invariants: a complete head never takes more bytes than it was given; an error has a
// status among 400, 431 and 505 and a message; a decoded request holds valid UTF-8 and no
// path segment that is empty, "." or ".." or holds a '/'.
#include <cstdint>
#include <string>

#include "api/url.h"
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
  const folio::http::HttpHead& head = parser.head();
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
