#include "repo/versions/version_label.h"

#include <doctest/doctest.h>

using folio::repo::versions::VersionLabel;

TEST_CASE("VersionLabel: parses major.minor and refuses everything else") {
  CHECK(VersionLabel::Parse("1.0") == VersionLabel{1, 0});
  CHECK(VersionLabel::Parse("0.1") == VersionLabel{0, 1});
  CHECK(VersionLabel::Parse("12.34") == VersionLabel{12, 34});
  for (const char* bad : {"", "1", "1.", ".1", "1.x", "-1.0", "+1.0", "01.0", "1.00", "0.0", "1.0.0", "a.b",
                          "1 .0", "99999999999.0"}) {
    CAPTURE(bad);
    CHECK_FALSE(VersionLabel::Parse(bad).has_value());
  }
}

TEST_CASE("VersionLabel: major check-in increments major and restarts minor at 0") {
  CHECK(VersionLabel{1, 0}.NextMajor().ToString() == "2.0");
  CHECK(VersionLabel{2, 1}.NextMajor().ToString() == "3.0");
  CHECK(VersionLabel{0, 3}.NextMajor().ToString() == "1.0");
}

TEST_CASE("VersionLabel: minor check-in after 2.0 gives 2.1") {
  CHECK(VersionLabel{2, 0}.NextMinor().ToString() == "2.1");
  CHECK(VersionLabel{2, 1}.NextMinor().ToString() == "2.2");
  CHECK(VersionLabel{0, 1}.NextMinor().ToString() == "0.2");
}

TEST_CASE("VersionLabel: first versions and majors per seed rules 1-2") {
  CHECK(VersionLabel::Next(std::nullopt, true).ToString() == "1.0");
  CHECK(VersionLabel::Next(std::nullopt, false).ToString() == "0.1");
  CHECK(VersionLabel{3, 0}.IsMajor());
  CHECK_FALSE(VersionLabel{3, 1}.IsMajor());
  CHECK(VersionLabel{1, 9} < VersionLabel{2, 0});
  CHECK(VersionLabel{1, 9} < VersionLabel{1, 10});
}
