// Datetime values as clients send them (CONTRACT §3; binding §3.3, §13): milliseconds
// since the epoch, ISO 8601, or JavaScript Date.prototype.toString() text; and the ISO
// 8601 form Folio writes. All times are int64 milliseconds since 1970-01-01T00:00:00Z.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/json_input.h"
#include "folio/status.h"

namespace folio::api {

// The range every function here accepts: years 0001 to 9999.
inline constexpr int64_t kMinDateTimeMs = -62135596800000;  // 0001-01-01T00:00:00.000Z
inline constexpr int64_t kMaxDateTimeMs = 253402300799999;  // 9999-12-31T23:59:59.999Z

// Parses, after trimming spaces:
// - an integer ("1709287200000", "-86400000"): milliseconds since the epoch;
// - ISO 8601 (see ParseIso8601);
// - JavaScript Date.toString() text: "Fri Mar 01 2024 10:00:00 GMT+0100 (Central
//   European Standard Time)"; the weekday is not checked against the date, the
//   parenthesised zone name is optional and ignored, "GMT" alone means UTC.
// Errors: kInvalidArgument "invalid datetime '<text>': ..." for anything else, for an
// impossible date or time, or outside kMinDateTimeMs..kMaxDateTimeMs.
Result<int64_t> ParseDateTime(std::string_view text);

// As above for a JSON value: a string is parsed as above; an integer (or an integral
// floating-point number) is milliseconds. Errors: kInvalidArgument naming the value
// for other types, fractions and out-of-range numbers.
Result<int64_t> ParseDateTimeValue(const Json& value);

// ISO 8601 / XML Schema dateTime: YYYY-MM-DD, optionally followed by 'T' (or 't' or a
// space) hh:mm[:ss[.fraction]] and a zone: 'Z', +hh:mm, +hhmm or +hh (or '-'). A
// fraction is cut to milliseconds. Without a zone, and for a date alone, UTC is assumed.
// Errors: kInvalidArgument "invalid datetime '<text>': ..." naming what is wrong.
Result<int64_t> ParseIso8601(std::string_view text);

// "2024-03-01T10:00:00.000Z": UTC, always with milliseconds.
// Requires: kMinDateTimeMs <= ms <= kMaxDateTimeMs (outside it the year is not 4 digits).
std::string FormatIso8601(int64_t ms);

}  // namespace folio::api
