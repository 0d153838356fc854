// Fuzz target: percent-decoding (api/url.h) in both '+' modes, path splitting and RFC 5987
// values. Invariants: every success is valid UTF-8; decoding never grows the text; an
// escape-free ASCII text decodes to itself; a path never yields "", "." or ".." or a '/'
// inside a segment; every error message is valid UTF-8 (it goes into a JSON body).
#include <cstdint>
#include <string>

#include "api/url.h"
#include "fuzz_input.h"

#define CHECK_OR_TRAP FOLIO_FUZZ_CHECK

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::api;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (PlusMode mode : {PlusMode::kLiteral, PlusMode::kSpace}) {
    auto decoded = PercentDecode(text, "fuzz input", mode);
    if (decoded.ok()) {
      CHECK_OR_TRAP(IsValidUtf8(*decoded));
      CHECK_OR_TRAP(decoded->size() <= text.size());
      if (text.find('%') == std::string_view::npos && mode == PlusMode::kLiteral) CHECK_OR_TRAP(*decoded == text);
    } else {
      CHECK_OR_TRAP(IsValidUtf8(decoded.status().message()));
    }
  }
  auto segments = SplitPath(text);
  if (segments.ok()) {
    for (const std::string& s : *segments) {
      CHECK_OR_TRAP(!s.empty() && s != "." && s != ".." && s.find('/') == std::string::npos && IsValidUtf8(s));
    }
  } else {
    CHECK_OR_TRAP(IsValidUtf8(segments.status().message()));
  }
  auto rfc5987 = DecodeRfc5987(text);
  if (rfc5987.ok()) CHECK_OR_TRAP(IsValidUtf8(*rfc5987));
  CHECK_OR_TRAP(IsValidUtf8(QuoteForMessage(text)));
  return 0;
}
