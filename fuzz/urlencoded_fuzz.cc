// Fuzz target: application/x-www-form-urlencoded (api/url.h): the streaming parser fed
// in pieces, with the field limits (api/form_limits.h), against the whole-text parser.
// Invariants: the streaming parser fed in any pieces gives the same pairs or the same
// error kind as ParseFormUrlencoded (apart from the limits, which only it enforces);
// every name and value is valid UTF-8.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/form_limits.h"
#include "api/url.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::api;
  const folio::fuzz::Split split = folio::fuzz::SplitInput(data, size);
  auto whole = ParseFormUrlencoded(split.input, "form body");

  std::vector<std::pair<std::string, std::string>> streamed;
  FormBudget budget;
  UrlencodedParser parser("form body", &budget, [&](std::string name, std::string value) {
    FOLIO_FUZZ_CHECK(IsValidUtf8(name) && IsValidUtf8(value));
    streamed.emplace_back(std::move(name), std::move(value));
  });
  folio::Status status;
  for (std::string_view piece : split.pieces) {
    status = parser.Feed(piece);
    if (!status.ok()) break;
  }
  if (status.ok()) status = parser.Finish();

  if (status.ok()) {
    FOLIO_FUZZ_CHECK(whole.ok());
    FOLIO_FUZZ_CHECK(*whole == streamed);
  } else if (status.kind() == folio::ErrorKind::kInvalidArgument) {
    FOLIO_FUZZ_CHECK(!whole.ok());
    FOLIO_FUZZ_CHECK(IsValidUtf8(status.message()));
  } else {
    FOLIO_FUZZ_CHECK(status.kind() == folio::ErrorKind::kConstraint);
  }
  if (whole.ok()) {
    for (const auto& [name, value] : *whole) FOLIO_FUZZ_CHECK(IsValidUtf8(name) && IsValidUtf8(value));
  }
  return 0;
}
