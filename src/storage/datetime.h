// Datetimes, the one module for them (docs/API.md §3.6): the clock, the ISO 8601 text
// Folio stores and answers with, a strict parser for that text (also the form of CMIS
// query TIMESTAMP literals), and a lenient parser for the values clients send.
// Every time is int64 milliseconds since 1970-01-01T00:00:00Z (proleptic Gregorian,
// UTC). All functions are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "folio/status.h"
#include "storage/json_file.h"

namespace folio::storage {

// The range the parsers accept: years 0001 to 9999.
inline constexpr int64_t kMinDateTimeMs = -62135596800000;  // 0001-01-01T00:00:00.000Z
inline constexpr int64_t kMaxDateTimeMs = 253402300799999;  // 9999-12-31T23:59:59.999Z

// The current time (wall clock, or the time SetClockForTest fixed).
int64_t NowMs();
// Tests only: a fixed time for NowMs (nullopt: the real clock again).
void SetClockForTest(std::optional<int64_t> ms);
// The steady clock in milliseconds (for intervals: it never jumps).
int64_t SteadyNowMs();
// The wall clock in nanoseconds since the epoch, the clock of file timestamps: never
// the time SetClockForTest fixed.
int64_t WallNowNs();
// How close to now a file's mtime must be for what was read of the file not to be
// kept as validated by that mtime: 100 ms, well above any filesystem's timestamp tick.
inline constexpr int64_t kRacyNs = 100 * 1000000LL;
// True when a file or directory last modified at `mtime_ns` may change again within
// the same tick of the filesystem's clock without its mtime moving (git's "racy" index
// problem): a cache must not keep what it read of it.
bool IsRacy(int64_t mtime_ns);

// 1709287200000 -> "2024-03-01T10:00:00.000Z": UTC, always three digits of
// milliseconds. The form of stored dates and of dateTimeFormat=extended answers.
// Outside kMinDateTimeMs..kMaxDateTimeMs the year has more than four digits or a sign,
// which ParseIsoMs refuses.
std::string FormatIsoMs(int64_t ms);
// As FormatIsoMs without the milliseconds: "2024-03-01T10:00:00Z" (for people).
std::string FormatIsoSeconds(int64_t ms);

// Strict ISO 8601 (RFC 3339 profile), for stored dates and for the TIMESTAMP literals
// of the query language: "YYYY-MM-DDThh:mm:ss", then optionally '.' and one or more
// digits of fraction (cut to milliseconds), then optionally a zone: 'Z', "+hh:mm" or
// "-hh:mm". Without a zone the time is UTC. 'T' and 'Z' may be lower case.
// Examples: "2024-03-01T10:00:00Z", "2024-03-01T11:00:00.5+01:00",
// "2024-03-01T10:00:00.123456789".
// Errors: kInvalidArgument "invalid datetime '<text>': <fault>", the fault naming what is
// wrong (the date, the 'T', the time, the fraction, the zone, trailing text, a month,
// day, hour, minute or second out of its range, or a result outside
// kMinDateTimeMs..kMaxDateTimeMs).
Result<int64_t> ParseIsoMs(std::string_view text);
// ParseIsoMs for stored dates read leniently: `fallback` when `text` is not one.
int64_t StoredIsoMsOr(std::string_view text, int64_t fallback);

// Lenient, for datetime values clients send (docs/API.md §3.6); spaces and tabs around
// the text are ignored. Accepts:
// - an integer: milliseconds since the epoch ("1709287200000", "-1", "+5");
// - ISO 8601 as ParseIsoMs, and also: a date alone ("2024-03-01", midnight UTC), ' '
//   instead of 'T', minutes without seconds ("10:00"), ',' before the fraction, zones
//   "+hhmm" and "+hh";
// - JavaScript Date.prototype.toString() text, as CmisJS sends Date objects:
//   "Fri Mar 01 2024 11:00:00 GMT+0100 (Central European Standard Time)"; the weekday is
//   not checked against the date, the parenthesised zone name is optional and ignored,
//   "GMT" (or "UTC") alone means UTC.
// Errors: kInvalidArgument "invalid datetime '<text>': <fault>" for anything else, an
// impossible date or time, or a time outside kMinDateTimeMs..kMaxDateTimeMs.
Result<int64_t> ParseDateTime(std::string_view text);

// As ParseDateTime for a JSON value: a string is parsed as above; an integer (or a
// floating-point number with no fraction) is milliseconds.
// Errors: kInvalidArgument naming the value for other types ("... got a boolean"),
// fractions and numbers out of range.
Result<int64_t> ParseDateTimeValue(const Json& value);

}  // namespace folio::storage
