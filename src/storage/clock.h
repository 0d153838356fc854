// Wall-clock time for stored dates, as milliseconds since the epoch, and its stored
// text form (ISO 8601 UTC with milliseconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace folio::storage {

int64_t NowMs();
// Tests only: a fixed time for NowMs (nullopt: the real clock again).
void SetClockForTest(std::optional<int64_t> ms);

// 1709287200000 -> "2024-03-01T10:00:00.000Z".
std::string FormatIsoMs(int64_t ms);
// The inverse of FormatIsoMs; also accepts no fraction and offsets +hh:mm. nullopt if not.
std::optional<int64_t> ParseIsoMs(std::string_view text);

}  // namespace folio::storage
