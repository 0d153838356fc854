// Layout names and the reserved-name rules.
#include <doctest/doctest.h>

#include "storage/ids.h"
#include "storage/layout.h"
#include "storage/name_rules.h"

using namespace folio;
using namespace folio::storage;

TEST_CASE("Layout: every path of a document series is under its folder's .folio") {
  RepoLayout l("demo/main");
  CHECK(l.Child("a/b", "x.txt") == "demo/main/a/b/x.txt");
  CHECK(l.SeriesFile("a/b", "x.txt") == "demo/main/a/b/.folio/docs/x.txt/series.json");
  CHECK(l.VersionContent("", "x.txt", "2.1") == "demo/main/.folio/docs/x.txt/2.1.content");
  CHECK(l.PwcProps("a", "x.txt") == "demo/main/a/.folio/docs/x.txt/pwc.json");
  CHECK(l.FolderFile("") == "demo/main/.folio/folder.json");
  CHECK(l.FolderMarkersDir("") == "demo/main/.folio/folders");
  CHECK(l.FolderMarkersDir("a/b") == "demo/main/a/b/.folio/folders");
  CHECK(l.FolderMarker("a") == "demo/main/.folio/folders/a");
  CHECK(l.FolderMarker("a/b/c d") == "demo/main/a/b/.folio/folders/c d");
  CHECK(l.IndexEntry("fabcdef") == "demo/main/.folio/index/ef/fabcdef.json");
  CHECK(l.TypeFile("acme:a/b") == "demo/main/.folio/types/acme:a%2Fb.json");
  CHECK(l.QueryIndexFile() == "demo/main/.folio/query.sqlite");
  CHECK(l.QueryIndexLockFile() == "demo/main/.folio/query.lock");
}

TEST_CASE("Layout: change log segments are named by their first token, 20 digits, and parse back") {
  CHECK(ChangeLogSegmentName(1) == "00000000000000000001.jsonl");
  CHECK(ChangeLogSegmentName(UINT64_MAX) == "18446744073709551615.jsonl");
  CHECK(ChangeLogSegmentName(0) == "00000000000000000000.jsonl");
  for (uint64_t t : {uint64_t{0}, uint64_t{1}, uint64_t{123456789}, UINT64_MAX}) {
    CHECK(ChangeLogSegmentFirst(ChangeLogSegmentName(t)) == t);
  }
  // Name order is token order.
  CHECK(ChangeLogSegmentName(9) < ChangeLogSegmentName(10));
  CHECK(!ChangeLogSegmentFirst("1.jsonl"));
  CHECK(!ChangeLogSegmentFirst("0000000000000000000a.jsonl"));
  CHECK(!ChangeLogSegmentFirst("00000000000000000001.json"));
  CHECK(!ChangeLogSegmentFirst("00000000000000000001.jsonl.folio-tmp-1"));
  CHECK(!ChangeLogSegmentFirst("99999999999999999999.jsonl"));  // beyond a uint64_t
  CHECK(!ChangeLogSegmentFirst(kChangeLogTruncatedName));
}

TEST_CASE("Layout: classifies the files of a series directory") {
  CHECK(ClassifySeriesFile("series.json").kind == SeriesFileName::Kind::kSeries);
  auto v = ClassifySeriesFile("2.10.json");
  CHECK(v.kind == SeriesFileName::Kind::kVersionProps);
  CHECK(v.label == "2.10");
  CHECK(ClassifySeriesFile("1.0.content").kind == SeriesFileName::Kind::kVersionContent);
  CHECK(ClassifySeriesFile("pwc.content").kind == SeriesFileName::Kind::kPwcContent);
  CHECK(ClassifySeriesFile(".folio-tmp-1-2-abc").kind == SeriesFileName::Kind::kTemp);
  CHECK(ClassifySeriesFile("notes.txt").kind == SeriesFileName::Kind::kUnknown);
  CHECK(ClassifySeriesFile("1.json").kind == SeriesFileName::Kind::kUnknown);
}

TEST_CASE("NameRules: reserved names are refused case-insensitively, others pass") {
  for (const char* bad : {".folio", ".Folio", ".FOLIO-tmp-x", ".folioX"}) {
    CAPTURE(bad);
    CHECK(ValidateName(bad).kind() == ErrorKind::kNameConstraintViolation);
  }
  for (const char* good : {"folio", "a.folio", ".fol", "versions", "Quärz – plan.pdf", "日本語.txt", ".hidden"}) {
    CAPTURE(good);
    CHECK(ValidateName(good).ok());
  }
}

TEST_CASE("Ids: new ids are URL-safe and unique; version and pwc ids parse back") {
  std::string a = NewId('d'), b = NewId('d');
  CHECK(a != b);
  CHECK(a.size() == 17);
  for (char c : a) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')));
  auto v = ParseObjectId(VersionId(a, "2.1"));
  REQUIRE(v.has_value());
  CHECK(v->base == a);
  CHECK(*v->label == "2.1");
  CHECK(ParseObjectId(PwcId(a))->is_pwc());
  for (const char* bad : {"", ";1.0", "a;", "a;b;c", "../x", "a/b", "a b", ".hidden"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseObjectId(bad).has_value());
  }
}
