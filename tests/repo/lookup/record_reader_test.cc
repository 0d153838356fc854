// The record reader's memo of decoded series (src/repo/lookup/record_reader.h): a hit for the
// same parsed JSON, and no decoding kept after its JSON is gone (a busy document's
// series.json is written anew at every change; the memo once kept each state).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "repo/lookup/record_reader.h"
#include "storage/mem_fs.h"

namespace folio::repo::lookup {
namespace {

std::shared_ptr<const storage::Json> SeriesJson(int versions) {
  storage::Json labels = storage::Json::array();
  for (int v = 1; v <= versions; ++v) labels.push_back("1." + std::to_string(v));
  return std::make_shared<const storage::Json>(storage::Json{{"seriesId", "dtmvro9p6di483537"},
                                                             {"versionable", true},
                                                             {"versions", labels},
                                                             {"checkedOut", nullptr},
                                                             {"file", nullptr}});
}

TEST_CASE("RecordReader: a series is decoded once per parsed JSON, and not kept past it") {
  storage::MemFs fs;
  storage::RepoLayout layout("r");
  RecordReader reader(fs, layout);

  auto first = SeriesJson(1);
  auto a = reader.DecodeSeries(first, "r/.folio/docs/a/series.json");
  REQUIRE(a.ok());
  auto again = reader.DecodeSeries(first, "r/.folio/docs/a/series.json");
  REQUIRE(again.ok());
  CHECK(a->get() == again->get());  // the memo's decoding, not a second one
  CHECK((*a)->versions.size() == 1);

  // A document checked out and in 3,000 times: each state a new JSON, the old one dropped
  // (as the JSON cache drops a replaced file's parse).
  for (int i = 2; i <= 3000; ++i) {
    auto state = SeriesJson(i);
    auto s = reader.DecodeSeries(state, "r/.folio/docs/a/series.json");
    REQUIRE(s.ok());
    REQUIRE((*s)->versions.size() == static_cast<size_t>(i));
  }
  // Only live JSONs keep their decodings: the first (still held here) and the few since
  // the last sweep, never the 3,000 states.
  CHECK(reader.SeriesMemoSize() <= 129);
  auto still = reader.DecodeSeries(first, "r/.folio/docs/a/series.json");
  REQUIRE(still.ok());
  CHECK(still->get() == a->get());

  // A new JSON at a freed JSON's address is not taken for it.
  for (int i = 0; i < 50; ++i) {
    auto state = SeriesJson(i % 2 ? 2 : 3);
    auto s = reader.DecodeSeries(state, "r/.folio/docs/b/series.json");
    REQUIRE(s.ok());
    CHECK((*s)->versions.size() == (i % 2 ? 2u : 3u));
  }
}

}  // namespace
}  // namespace folio::repo::lookup
