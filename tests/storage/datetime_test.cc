#include "storage/datetime.h"

#include <doctest/doctest.h>

#include <string>

namespace folio::storage {
namespace {

bool Contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

constexpr int64_t k20240301T10 = 1709287200000;  // 2024-03-01T10:00:00Z

TEST_CASE("ParseDateTime: milliseconds, ISO 8601 and JavaScript Date text") {
  struct Case {
    std::string_view text;
    int64_t ms;
  };
  const Case cases[] = {
      {"1709287200000", k20240301T10},
      {"+1709287200000", k20240301T10},
      {"  1709287200000 ", k20240301T10},
      {"0", 0},
      {"-1", -1},
      {"2024-03-01T10:00:00.000Z", k20240301T10},
      {"2024-03-01T10:00:00Z", k20240301T10},
      {"2024-03-01t10:00:00z", k20240301T10},
      {"2024-03-01 10:00:00Z", k20240301T10},
      {"2024-03-01T10:00:00", k20240301T10},
      {"2024-03-01T10:00Z", k20240301T10},
      {"2024-03-01T11:00:00+01:00", k20240301T10},
      {"2024-03-01T11:00:00+0100", k20240301T10},
      {"2024-03-01T11:00+01", k20240301T10},
      {"2024-03-01T05:30:00-04:30", k20240301T10},
      {"2024-03-01T10:00:00.123Z", k20240301T10 + 123},
      {"2024-03-01T10:00:00.1Z", k20240301T10 + 100},
      {"2024-03-01T10:00:00,25Z", k20240301T10 + 250},
      {"2024-03-01T10:00:00.123987654Z", k20240301T10 + 123},
      {"2024-03-01", 1709251200000},
      {"2024-02-29", 1709164800000},
      {"1969-12-31T23:59:59.999Z", -1},
      {"2000-01-01T00:00:00Z", 946684800000},
      {"0001-01-01T00:00:00Z", kMinDateTimeMs},
      {"9999-12-31T23:59:59.999Z", kMaxDateTimeMs},
      {"Fri Mar 01 2024 11:00:00 GMT+0100 (Central European Standard Time)", k20240301T10},
      {"Fri Mar 01 2024 11:00:00 GMT+0100 (Mitteleurop\xC3\xA4ische Normalzeit)", k20240301T10},
      {"Fri Mar 01 2024 10:00:00 GMT+0000 (Coordinated Universal Time)", k20240301T10},
      {"Fri Mar 01 2024 05:00:00 GMT-0500 (Eastern Standard Time)", k20240301T10},
      {"Fri Mar 01 2024 10:00:00 GMT", k20240301T10},
      {"fri mar 1 2024 10:00:00 GMT+0000", k20240301T10},
  };
  for (const Case& c : cases) {
    Result<int64_t> ms = ParseDateTime(c.text);
    REQUIRE_MESSAGE(ms.ok(), c.text << ": " << ms.status().message());
    CHECK_MESSAGE(*ms == c.ms, c.text);
  }
}

TEST_CASE("ParseDateTime: invalid values are invalidArgument, naming the value and the fault") {
  struct Case {
    std::string_view text;
    std::string_view fault;
  };
  const Case cases[] = {
      {"", "expected milliseconds, ISO 8601 or JavaScript Date text"},
      {"abc", "expected milliseconds, ISO 8601 or JavaScript Date text"},
      {"1.5", "expected an ISO 8601 date"},
      {"99999999999999999999", "out of range"},
      {"253402300800000", "out of range"},
      {"-62135596800001", "out of range"},
      {"2023-02-29", "day is not in the month"},
      {"2024-04-31", "day is not in the month"},
      {"2024-13-01", "month must be 01 to 12"},
      {"2024-00-01", "month must be 01 to 12"},
      {"0000-01-01", "year must be 0001 or later"},
      {"2024-03-01T24:00:00Z", "hour must be 00 to 23"},
      {"2024-03-01T10:60Z", "minute must be 00 to 59"},
      {"2024-03-01T10:00:60Z", "second must be 00 to 59"},
      {"2024-3-1", "expected an ISO 8601 date YYYY-MM-DD"},
      {"2024-03-01T10", "expected the time as hh:mm"},
      {"2024-03-01X10:00", "expected 'T' between the date and the time"},
      {"2024-03-01T10:00:00.Z", "expected digits after the decimal point"},
      {"2024-03-01T10:00:00+25:00", "malformed zone offset"},
      {"2024-03-01T10:00:00+01:", "malformed zone offset"},
      {"2024-03-01T10:00:00Zjunk", "unexpected text after the time"},
      {"9999-12-31T23:59:59.999-01:00", "out of range"},
      {"Fri Mar 01 2024", "expected milliseconds, ISO 8601 or JavaScript Date text"},
      {"Xyz Mar 01 2024 10:00:00 GMT+0100", "JavaScript Date text"},
      {"Fri Foo 01 2024 10:00:00 GMT+0100", "JavaScript Date text"},
      {"Fri Feb 30 2024 10:00:00 GMT+0100", "day is not in the month"},
      {"Fri Mar 01 2024 10:00:00 CET", "expected 'GMT+hhmm' after the time"},
      {"Fri Mar 01 2024 10:00:00 GMT+01x", "unexpected text after the offset"},
      {"Fri Mar 01 2024 10:00:00 GMT+0100 junk", "unexpected text after the offset"},
      {"Fri Mar 01 2024 10:00:00 GMT+0100 (unclosed", "unexpected text after the offset"},
  };
  for (const Case& c : cases) {
    Result<int64_t> ms = ParseDateTime(c.text);
    REQUIRE_MESSAGE(!ms.ok(), c.text);
    CHECK(ms.status().kind() == ErrorKind::kInvalidArgument);
    const std::string& message = ms.status().message();
    CHECK_MESSAGE(Contains(message, "invalid datetime '"), message);
    CHECK_MESSAGE(Contains(message, c.fault), message);
    if (c.text.size() < 40)
      CHECK_MESSAGE(Contains(message, std::string("'").append(c.text).append("'")), message);
  }
}

TEST_CASE("ParseDateTime: JSON numbers are milliseconds, JSON strings are parsed") {
  CHECK(*ParseDateTimeValue(Json(k20240301T10)) == k20240301T10);
  CHECK(*ParseDateTimeValue(Json(-1)) == -1);
  CHECK(*ParseDateTimeValue(Json(1709287200000.0)) == k20240301T10);
  CHECK(*ParseDateTimeValue(Json("2024-03-01T10:00:00Z")) == k20240301T10);
  struct Case {
    Json value;
    std::string_view fault;
  };
  const Case cases[] = {
      {Json(1.5), "milliseconds must be a whole number"},
      {Json(true), "got a boolean"},
      {Json::array(), "got an array"},
      {Json(nullptr), "got null"},
      {Json(uint64_t{18446744073709551615u}), "out of range"},
      {Json(1e300), "out of range"},
      {Json("nope"), "invalid datetime 'nope'"},
  };
  for (const Case& c : cases) {
    Result<int64_t> ms = ParseDateTimeValue(c.value);
    REQUIRE_MESSAGE(!ms.ok(), c.value.dump());
    CHECK(ms.status().kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(Contains(ms.status().message(), c.fault), ms.status().message());
  }
}

TEST_CASE("FormatIsoMs: UTC with milliseconds, and back again") {
  struct Case {
    int64_t ms;
    std::string_view text;
  };
  const Case cases[] = {
      {k20240301T10, "2024-03-01T10:00:00.000Z"},
      {k20240301T10 + 7, "2024-03-01T10:00:00.007Z"},
      {0, "1970-01-01T00:00:00.000Z"},
      {-1, "1969-12-31T23:59:59.999Z"},
      {1709164800000, "2024-02-29T00:00:00.000Z"},
      {kMinDateTimeMs, "0001-01-01T00:00:00.000Z"},
      {kMaxDateTimeMs, "9999-12-31T23:59:59.999Z"},
  };
  for (const Case& c : cases) {
    CHECK(FormatIsoMs(c.ms) == c.text);
    Result<int64_t> back = ParseIsoMs(c.text);
    REQUIRE(back.ok());
    CHECK(*back == c.ms);
  }
  // Every day of a leap year and a non-leap year round-trips.
  for (int64_t ms = 946684800000; ms < 946684800000 + 800LL * 86400000; ms += 86400000 + 3601001) {
    CHECK(*ParseIsoMs(FormatIsoMs(ms)) == ms);
  }
}

TEST_CASE("FormatIsoSeconds: the same text without milliseconds") {
  CHECK(FormatIsoSeconds(k20240301T10) == "2024-03-01T10:00:00Z");
  CHECK(FormatIsoSeconds(k20240301T10 + 999) == "2024-03-01T10:00:00Z");
  CHECK(FormatIsoSeconds(-1) == "1969-12-31T23:59:59Z");
  CHECK(*ParseIsoMs(FormatIsoSeconds(k20240301T10)) == k20240301T10);
}

TEST_CASE("ParseIsoMs: the strict form of stored dates and TIMESTAMP literals, with any offset") {
  struct Case {
    std::string_view text;
    int64_t ms;
  };
  const Case cases[] = {
      {"2024-03-01T10:00:00.000Z", k20240301T10},
      {"2024-03-01T10:00:00Z", k20240301T10},
      {"2024-03-01T10:00:00", k20240301T10},  // no zone: UTC
      {"2024-03-01t10:00:00z", k20240301T10},
      {"2024-03-01T11:00:00+01:00", k20240301T10},
      {"2024-03-01T05:30:00.250-04:30", k20240301T10 + 250},
      {"2024-03-01T10:00:00.5Z", k20240301T10 + 500},
      {"2024-03-01T10:00:00.123456789+00:00", k20240301T10 + 123},
      {"2024-03-01T23:59:59.999-23:59", 1709423939999},
      {"0001-01-01T00:00:00Z", kMinDateTimeMs},
      {"9999-12-31T23:59:59.999Z", kMaxDateTimeMs},
  };
  for (const Case& c : cases) {
    Result<int64_t> ms = ParseIsoMs(c.text);
    REQUIRE_MESSAGE(ms.ok(), c.text << ": " << ms.status().message());
    CHECK_MESSAGE(*ms == c.ms, c.text);
  }
}

TEST_CASE("ParseIsoMs: what only the lenient parser takes is invalidArgument, naming the fault") {
  struct Case {
    std::string_view text;
    std::string_view fault;
  };
  const Case cases[] = {
      {"1709287200000", "expected an ISO 8601 date YYYY-MM-DD"},
      {"Fri Mar 01 2024 10:00:00 GMT", "expected an ISO 8601 date YYYY-MM-DD"},
      {" 2024-03-01T10:00:00Z", "expected an ISO 8601 date YYYY-MM-DD"},
      {"2024-03-01", "expected 'T' between the date and the time"},
      {"2024-03-01 10:00:00Z", "expected 'T' between the date and the time"},
      {"2024-03-01T10:00Z", "expected the time as hh:mm:ss[.fff]"},
      {"2024-03-01T10:00:00,5Z", "unexpected text after the time"},
      {"2024-03-01T11:00:00+0100", "malformed zone offset: expected Z, +hh:mm or -hh:mm"},
      {"2024-03-01T11:00:00+01", "malformed zone offset: expected Z, +hh:mm or -hh:mm"},
      {"2024-03-01T10:00:00Z ", "unexpected text after the time"},
      {"2024-02-30T10:00:00Z", "day is not in the month"},
      {"2024-03-01T10:00:60Z", "second must be 00 to 59"},
      {"0001-01-01T00:00:00+00:01", "out of range"},
      {"", "expected an ISO 8601 date YYYY-MM-DD"},
  };
  for (const Case& c : cases) {
    Result<int64_t> ms = ParseIsoMs(c.text);
    REQUIRE_MESSAGE(!ms.ok(), c.text);
    CHECK(ms.status().kind() == ErrorKind::kInvalidArgument);
    const std::string& message = ms.status().message();
    CHECK_MESSAGE(Contains(message, std::string("invalid datetime '").append(c.text).append("'")), message);
    CHECK_MESSAGE(Contains(message, c.fault), message);
  }
}

TEST_CASE("ParseDateTime: a long or binary value is quoted safely in the message") {
  const std::string long_text(500, '9');
  Result<int64_t> ms = ParseDateTime(long_text + "x");
  REQUIRE(!ms.ok());
  CHECK(ms.status().message().size() < 250);
  CHECK(Contains(ms.status().message(), "...'"));
  Result<int64_t> binary = ParseDateTime("2024\x01\xFF");
  REQUIRE(!binary.ok());
  CHECK_MESSAGE(Contains(binary.status().message(), "'2024\\x01\\xFF'"), binary.status().message());
}

TEST_CASE("NowMs: the real clock, or the time SetClockForTest fixed") {
  const int64_t before = NowMs();
  CHECK(before > 1'700'000'000'000);  // after November 2023
  SetClockForTest(k20240301T10);
  CHECK(NowMs() == k20240301T10);
  SetClockForTest(std::nullopt);
  CHECK(NowMs() >= before);
}

}  // namespace
}  // namespace folio::storage
