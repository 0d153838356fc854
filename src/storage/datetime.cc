// The clock, ISO 8601 formatting, and the strict and lenient datetime parsers; see
// datetime.h. Hand-rolled parsing: the strict parser runs for every stored date of
// every object read, and sscanf or std::chrono::parse cost a microsecond each.
#include "storage/datetime.h"
#include "storage/racy_window.h"

#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "storage/utf8.h"

namespace folio::storage {
namespace {

constexpr int64_t kMsPerDay = 86'400'000;

std::atomic<bool> g_fixed{false};
std::atomic<int64_t> g_fixed_ms{0};

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year;
  int month;
  int day;
};

// The inverse of DaysFromCivil (H. Hinnant's civil_from_days).
Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2), m, d};
}

int DaysInMonth(int64_t year, int month) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

std::string Format(int64_t ms, bool with_ms) {
  int64_t days = ms / kMsPerDay;
  int64_t rest = ms % kMsPerDay;
  if (rest < 0) {
    rest += kMsPerDay;
    --days;
  }
  const Civil date = CivilFromDays(days);
  char buffer[48];
  const int n = std::snprintf(buffer, sizeof buffer, "%04lld-%02d-%02dT%02d:%02d:%02d",
                              static_cast<long long>(date.year), date.month, date.day,
                              static_cast<int>(rest / 3'600'000), static_cast<int>(rest / 60'000 % 60),
                              static_cast<int>(rest / 1000 % 60));
  std::string out(buffer, static_cast<size_t>(n));
  if (with_ms) {
    std::snprintf(buffer, sizeof buffer, ".%03d", static_cast<int>(rest % 1000));
    out += buffer;
  }
  out += 'Z';
  return out;
}

Status Invalid(std::string_view text, std::string_view why) {
  return InvalidArgument("invalid datetime " + QuoteForMessage(text) + ": " + std::string(why));
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// `word` (ASCII letters, from Cursor::Word) is `name` in any case.
bool SameLetters(std::string_view word, std::string_view name) {
  if (word.size() != name.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if ((word[i] | 0x20) != (name[i] | 0x20)) return false;
  }
  return true;
}

// Reads characters off the front of a string_view.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : rest_(text) {}
  bool done() const { return rest_.empty(); }
  char peek() const { return rest_.empty() ? '\0' : rest_.front(); }
  bool Take(char c) {
    if (rest_.empty() || rest_.front() != c) return false;
    rest_.remove_prefix(1);
    return true;
  }
  // `c` in either case (for ASCII letters).
  bool TakeIgnoreCase(char c) { return Take(c) || Take(static_cast<char>(c - 'A' + 'a')); }
  // Exactly `count` digits.
  bool Digits(size_t count, int* out) {
    if (rest_.size() < count) return false;
    int value = 0;
    for (size_t i = 0; i < count; ++i) {
      if (rest_[i] < '0' || rest_[i] > '9') return false;
      value = value * 10 + (rest_[i] - '0');
    }
    rest_.remove_prefix(count);
    *out = value;
    return true;
  }
  // Zero or more digits; returns them.
  std::string_view DigitRun() {
    size_t n = 0;
    while (n < rest_.size() && rest_[n] >= '0' && rest_[n] <= '9') ++n;
    const std::string_view run = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return run;
  }
  // Zero or more ASCII letters; returns them.
  std::string_view Word() {
    size_t n = 0;
    while (n < rest_.size() && IsAsciiLetter(rest_[n])) ++n;
    const std::string_view word = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return word;
  }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

struct Fields {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis = 0;
  int offset_minutes = 0;  // local time = UTC + offset
};

Result<int64_t> ToMillis(std::string_view text, const Fields& f) {
  if (f.year < 1) return Invalid(text, "year must be 0001 or later");
  if (f.month < 1 || f.month > 12) return Invalid(text, "month must be 01 to 12");
  if (f.day < 1 || f.day > DaysInMonth(f.year, f.month)) return Invalid(text, "day is not in the month");
  if (f.hour > 23) return Invalid(text, "hour must be 00 to 23");
  if (f.minute > 59) return Invalid(text, "minute must be 00 to 59");
  if (f.second > 59) return Invalid(text, "second must be 00 to 59");
  const int64_t ms = DaysFromCivil(f.year, f.month, f.day) * kMsPerDay +
                     ((f.hour * 60 + f.minute) * 60 + f.second) * int64_t{1000} + f.millis -
                     f.offset_minutes * int64_t{60'000};
  if (ms < kMinDateTimeMs || ms > kMaxDateTimeMs) return Invalid(text, "out of range");
  return ms;
}

// Which ISO 8601 forms ParseIso accepts (see datetime.h).
enum class IsoMode { kStrict, kLenient };

// A zone offset after its sign was seen: "+hh:mm"; kLenient also "+hhmm" and "+hh".
bool TakeOffset(Cursor& in, IsoMode mode, int* offset_minutes) {
  const char sign = in.peek();
  if (!in.Take('+') && !in.Take('-')) return false;
  int hours = 0, minutes = 0;
  if (!in.Digits(2, &hours)) return false;
  if (in.Take(':')) {
    if (!in.Digits(2, &minutes)) return false;
  } else if (mode == IsoMode::kStrict) {
    return false;
  } else if (in.peek() >= '0' && in.peek() <= '9') {
    if (!in.Digits(2, &minutes)) return false;
  }
  if (hours > 23 || minutes > 59) return false;
  *offset_minutes = (sign == '-' ? -1 : 1) * (hours * 60 + minutes);
  return true;
}

Result<int64_t> ParseIso(std::string_view text, IsoMode mode) {
  const bool lenient = mode == IsoMode::kLenient;
  Cursor in(text);
  Fields f;
  if (!in.Digits(4, &f.year) || !in.Take('-') || !in.Digits(2, &f.month) || !in.Take('-') ||
      !in.Digits(2, &f.day)) {
    return Invalid(text, "expected an ISO 8601 date YYYY-MM-DD");
  }
  if (lenient && in.done()) return ToMillis(text, f);
  if (!in.TakeIgnoreCase('T') && !(lenient && in.Take(' '))) {
    return Invalid(text, "expected 'T' between the date and the time");
  }
  if (!in.Digits(2, &f.hour) || !in.Take(':') || !in.Digits(2, &f.minute)) {
    return Invalid(text, lenient ? "expected the time as hh:mm[:ss[.fff]]" : "expected the time as hh:mm:ss[.fff]");
  }
  if (in.Take(':')) {
    if (!in.Digits(2, &f.second)) return Invalid(text, "expected two digits of seconds");
    if (in.Take('.') || (lenient && in.Take(','))) {
      const std::string_view fraction = in.DigitRun();
      if (fraction.empty()) return Invalid(text, "expected digits after the decimal point");
      for (size_t i = 0; i < 3; ++i) f.millis = f.millis * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
    }
  } else if (!lenient) {
    return Invalid(text, "expected the time as hh:mm:ss[.fff]");
  }
  if (in.TakeIgnoreCase('Z')) {
    // UTC
  } else if (in.peek() == '+' || in.peek() == '-') {
    if (!TakeOffset(in, mode, &f.offset_minutes)) {
      return Invalid(text, lenient ? "malformed zone offset" : "malformed zone offset: expected Z, +hh:mm or -hh:mm");
    }
  }
  if (!in.done()) return Invalid(text, "unexpected text after the time");
  return ToMillis(text, f);
}

int IndexOf(std::string_view word, const std::string_view* names, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (SameLetters(word, names[i])) return static_cast<int>(i);
  }
  return -1;
}

constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::string_view kWeekdays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

// "Fri Mar 01 2024 10:00:00 GMT+0100 (Central European Standard Time)".
Result<int64_t> ParseJavaScriptDate(std::string_view text) {
  constexpr std::string_view kExpected =
      "expected milliseconds, ISO 8601 or JavaScript Date text such as "
      "'Fri Mar 01 2024 10:00:00 GMT+0100'";
  Cursor in(text);
  Fields f;
  if (IndexOf(in.Word(), kWeekdays, std::size(kWeekdays)) < 0 || !in.Take(' ')) return Invalid(text, kExpected);
  f.month = IndexOf(in.Word(), kMonths, std::size(kMonths)) + 1;
  if (f.month == 0 || !in.Take(' ')) return Invalid(text, kExpected);
  const std::string_view day = in.DigitRun();
  if (day.empty() || day.size() > 2 || !in.Take(' ')) return Invalid(text, kExpected);
  f.day = day.size() == 1 ? day[0] - '0' : (day[0] - '0') * 10 + (day[1] - '0');
  if (!in.Digits(4, &f.year) || !in.Take(' ') || !in.Digits(2, &f.hour) || !in.Take(':') ||
      !in.Digits(2, &f.minute) || !in.Take(':') || !in.Digits(2, &f.second) || !in.Take(' ')) {
    return Invalid(text, kExpected);
  }
  const std::string_view zone = in.Word();
  if (!SameLetters(zone, "GMT") && !SameLetters(zone, "UTC")) {
    return Invalid(text, "expected 'GMT+hhmm' after the time");
  }
  if (in.peek() == '+' || in.peek() == '-') {
    if (!TakeOffset(in, IsoMode::kLenient, &f.offset_minutes)) return Invalid(text, "malformed offset after GMT");
  }
  if (!in.done()) {
    const std::string_view rest = in.rest();
    if (rest.size() < 3 || rest.substr(0, 2) != " (" || rest.back() != ')') {
      return Invalid(text, "unexpected text after the offset");
    }
  }
  return ToMillis(text, f);
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool IsInteger(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

Result<int64_t> CheckRange(std::string_view text, int64_t ms) {
  if (ms < kMinDateTimeMs || ms > kMaxDateTimeMs) return Invalid(text, "out of range (years 0001 to 9999)");
  return ms;
}

}  // namespace

int64_t NowMs() {
  if (g_fixed.load()) return g_fixed_ms.load();
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t SteadyNowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

int64_t WallNowNs() {
  using namespace std::chrono;
  return duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {
std::atomic<int64_t> g_racy_ns{kRacyNs};
}  // namespace

bool IsRacy(int64_t mtime_ns) { return WallNowNs() - mtime_ns <= g_racy_ns.load(std::memory_order_relaxed); }

void WidenRacyWindow(int64_t tick_ns) {
  const int64_t wanted = tick_ns + kRacyNs;
  int64_t now = g_racy_ns.load();
  while (now < wanted && !g_racy_ns.compare_exchange_weak(now, wanted)) {
  }
}

void ResetRacyWindowForTest() { g_racy_ns.store(kRacyNs); }

void SetClockForTest(std::optional<int64_t> ms) {
  if (ms) g_fixed_ms = *ms;
  g_fixed = ms.has_value();
}

std::string FormatIsoMs(int64_t ms) { return Format(ms, true); }

std::string FormatIsoSeconds(int64_t ms) { return Format(ms, false); }

Result<int64_t> ParseIsoMs(std::string_view text) { return ParseIso(text, IsoMode::kStrict); }

Result<int64_t> ParseDateTime(std::string_view text) {
  const std::string_view trimmed = Trim(text);
  if (IsInteger(trimmed)) {
    int64_t ms = 0;
    const char* begin = trimmed.data() + (trimmed.front() == '+' ? 1 : 0);
    const auto [ptr, ec] = std::from_chars(begin, trimmed.data() + trimmed.size(), ms);
    if (ec != std::errc() || ptr != trimmed.data() + trimmed.size()) {
      return Invalid(text, "out of range (years 0001 to 9999)");
    }
    return CheckRange(text, ms);
  }
  if (!trimmed.empty() && trimmed.front() >= '0' && trimmed.front() <= '9') {
    return ParseIso(trimmed, IsoMode::kLenient);
  }
  return ParseJavaScriptDate(trimmed);
}

Result<int64_t> ParseDateTimeValue(const Json& value) {
  if (value.is_string()) return ParseDateTime(std::string_view(value.get_ref<const std::string&>()));
  const std::string text = value.dump();
  if (value.is_number_unsigned()) {
    const uint64_t ms = value.get<uint64_t>();
    if (ms > static_cast<uint64_t>(kMaxDateTimeMs)) return Invalid(text, "out of range");
    return static_cast<int64_t>(ms);
  }
  if (value.is_number_integer()) return CheckRange(text, value.get<int64_t>());
  if (value.is_number_float()) {
    const double ms = value.get<double>();
    if (!std::isfinite(ms) || std::floor(ms) != ms) return Invalid(text, "milliseconds must be a whole number");
    if (ms < static_cast<double>(kMinDateTimeMs) || ms > static_cast<double>(kMaxDateTimeMs)) {
      return Invalid(text, "out of range (years 0001 to 9999)");
    }
    return static_cast<int64_t>(ms);
  }
  return Invalid(text, "expected a number of milliseconds or a string, got " + std::string(JsonTypeForMessage(value)));
}

int64_t StoredIsoMsOr(std::string_view text, int64_t fallback) {
  const Result<int64_t> ms = ParseIsoMs(text);
  return ms.ok() ? *ms : fallback;
}

}  // namespace folio::storage
