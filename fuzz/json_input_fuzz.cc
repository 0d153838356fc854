// Fuzz target: JSON a client sends (api/json_input.h, api/form_limits.h): as a request
// body (Params::FromRequest with application/json) and as a parameter value.
// Invariants: no exception escapes; a parsed value is nested at most 64 levels; errors
// are invalidArgument or constraint with valid UTF-8 messages.
#include <cstdint>
#include <string>

#include "api/form_limits.h"
#include "api/json_input.h"
#include "api/params.h"
#include "api/request.h"
#include "api/url.h"
#include "fuzz_input.h"

namespace {

int Depth(const folio::api::Json& j) {
  if (!j.is_structured()) return 0;
  int deepest = 0;
  for (const auto& child : j) deepest = std::max(deepest, Depth(child));
  return deepest + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::api;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseJsonText(text, "request body");
  if (parsed.ok()) {
    FOLIO_FUZZ_CHECK(Depth(*parsed) <= kMaxJsonDepth);
    folio::Status sizes = CheckJsonValueSizes(*parsed);
    if (!sizes.ok()) FOLIO_FUZZ_CHECK(sizes.kind() == folio::ErrorKind::kConstraint);
  } else {
    FOLIO_FUZZ_CHECK(parsed.status().kind() == folio::ErrorKind::kInvalidArgument ||
                     parsed.status().kind() == folio::ErrorKind::kConstraint);
    FOLIO_FUZZ_CHECK(IsValidUtf8(parsed.status().message()));
  }
  Request request;
  request.method = "POST";
  request.content_type = "application/json";
  request.body = std::string(text);
  auto params = Params::FromRequest(request);
  if (!params.ok()) FOLIO_FUZZ_CHECK(IsValidUtf8(params.status().message()));
  return 0;
}
