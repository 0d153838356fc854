// Fuzz target: datetimes (storage/datetime.h): the strict ISO 8601 parser of stored
// records and the lenient parser of request values.
// Invariants: a parsed instant formats to text that parses back to the same instant;
// no exception, no overflow (UBSan); error messages are valid UTF-8.
#include <cstdint>
#include <string>

#include "fuzz_input.h"
#include "storage/datetime.h"
#include "storage/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::storage;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto parse : {&ParseIsoMs, &ParseDateTime}) {
    auto ms = parse(text);
    if (!ms.ok()) {
      FOLIO_FUZZ_CHECK(IsValidUtf8(ms.status().message()));
      continue;
    }
    if (*ms < kMinDateTimeMs || *ms > kMaxDateTimeMs) continue;
    const std::string formatted = FormatIsoMs(*ms);
    auto again = ParseIsoMs(formatted);
    FOLIO_FUZZ_CHECK(again.ok() && *again == *ms);
  }
  (void)StoredIsoMsOr(text, 0);
  return 0;
}
