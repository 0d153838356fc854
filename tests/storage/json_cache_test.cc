// The JSON cache never serves a file that changed.
#include <doctest/doctest.h>

#include <malloc.h>

#include <filesystem>
#include <vector>

#include "storage/atomic_write.h"
#include "storage/change_set.h"
#include "storage/json_cache.h"
#include "storage/json_footprint.h"
#include "support/sanitizers.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::storage;
using folio::testing::TempDir;
using folio::testing::WriteFile;

TEST_CASE("JsonCache: a replaced or edited file is read again") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  JsonCache cache(16);
  WriteFile(dir / "a.json", R"({"v": 1})");
  // Make it old enough to be cached (files changed in the last 100 ms are not).
  auto old = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(5);
  std::filesystem::last_write_time(dir / "a.json", old);
  CHECK((*cache.Read(**fs, "a.json").value())["v"] == 1);
  CHECK((*cache.Read(**fs, "a.json").value())["v"] == 1);
  REQUIRE(WriteFileAtomically(**fs, "a.json", R"({"v": 2})").ok());
  CHECK((*cache.Read(**fs, "a.json").value())["v"] == 2);
  // Same size, same inode, edited in place: the mtime tells.
  std::filesystem::last_write_time(dir / "a.json", old);
  CHECK((*cache.Read(**fs, "a.json").value())["v"] == 2);
  WriteFile(dir / "a.json", R"({"v": 3})");
  CHECK((*cache.Read(**fs, "a.json").value())["v"] == 3);
  std::filesystem::remove(dir / "a.json");
  CHECK(cache.Read(**fs, "a.json").status().Is(std::errc::no_such_file_or_directory));
}

TEST_CASE("JsonCache: what the commit path wrote is kept without a read, and a later change is still seen") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  JsonCache cache(16);
  ChangeSet change;
  change.PutJson("s.json", Json{{"v", 1}});
  change.Put("plain.txt", "not JSON");
  std::vector<std::pair<std::string, std::shared_ptr<const Json>>> told;
  ApplyOptions options;
  options.on_json_written = [&](const std::string& path, const FileStat& st, std::shared_ptr<const Json> value) {
    told.emplace_back(path, value);
    cache.Remember(path, st, value);
  };
  REQUIRE(ApplyChangeSet(**fs, change, options, nullptr).ok());
  // Only the JSON record is told, with its bytes as a reader parses them.
  REQUIRE(told.size() == 1);
  CHECK(told[0].first == "s.json");
  CHECK((*told[0].second)["v"] == 1);
  // Just written (a "racy" file Read would not keep), yet served from the cache.
  auto read = cache.Read(**fs, "s.json");
  REQUIRE(read.ok());
  CHECK(read->get() == told[0].second.get());
  // Replaced by hand: another identity, read again.
  WriteFile(dir / "s.json", R"({"v": 22})");
  CHECK((*cache.Read(**fs, "s.json").value())["v"] == 22);
}

TEST_CASE("JsonCache: bounded by the memory its parses take as well as by count, the newest kept") {
  // Each entry is {"path": "<3 characters>"} under a 3-character path: the same cost.
  const Json one{{"path", "f10"}};
  const uint64_t cost = JsonFootprint(one) + 2 * 4 + JsonCache::kEntryOverhead;
  JsonCache cache(100, 10 * cost);
  auto remember = [&](const std::string& path, Json json) {
    FileStat st;
    st.type = FileType::kFile;
    st.size = 1;  // the size on disk does not count
    st.inode = std::hash<std::string>{}(path);
    cache.Remember(path, st, std::make_shared<const Json>(std::move(json)));
  };
  for (int i = 10; i < 30; ++i) remember("f" + std::to_string(i), Json{{"path", "f" + std::to_string(i)}});
  CHECK(cache.size() == 10);  // the budget, not the count of 100
  CHECK(cache.bytes() == 10 * cost);
  CHECK(cache.Peek("f29") != nullptr);  // the newest stay
  CHECK(cache.Peek("f20") != nullptr);
  CHECK(cache.Peek("f19") == nullptr);  // the oldest went
  // Replacing an entry counts its new parse only: a larger one pushes out the oldest.
  remember("f29", Json{{"path", std::string(200, 'x')}});
  CHECK(cache.bytes() <= 10 * cost);
  CHECK(cache.size() < 10);
  CHECK(cache.Peek("f29") != nullptr);
  // A series listing thousands of versions: small on disk, large once parsed. One entry
  // over the whole budget is still kept, alone.
  Json series{{"versions", Json::array()}};
  for (int i = 0; i < 5000; ++i) series["versions"].push_back("1." + std::to_string(i));
  remember("big", series);
  CHECK(cache.size() == 1);
  CHECK(cache.bytes() > 5000 * 32);
  CHECK(cache.Peek("big") != nullptr);
  remember("f10", one);
  CHECK(cache.size() == 1);
  CHECK(cache.Peek("f10") != nullptr);
  cache.Clear();
  CHECK(cache.size() == 0);
  CHECK(cache.bytes() == 0);
}

TEST_CASE("JsonFootprint: close to what the allocator gives a parse") {
  const std::string records[] = {
      // a version record
      R"({"label":"1.1","major":false,"properties":{"cmis:objectTypeId":"cmis:document","cmis:name":"q3.txt",)"
      R"("cmis:createdBy":"alice","cmis:creationDate":"2026-11-21T19:40:00.000Z","cmis:lastModifiedBy":"alice",)"
      R"("cmis:lastModificationDate":"2026-11-21T19:40:00.000Z","cmis:checkinComment":"typo fixed"},)"
      R"("content":{"length":1234,"mimeType":"text/plain","fileName":"q3.txt"},"acl":[]})",
      // a long series
      [] {
        std::string s = R"({"seriesId":"dq81m2k0x9c7b3v5n","versionable":true,"versions":[)";
        for (int i = 0; i < 3000; ++i) s += (i ? ",\"1." : "\"1.") + std::to_string(i) + "\"";
        return s + R"(],"checkedOut":null})";
      }(),
  };
  for (const std::string& text : records) {
    CAPTURE(text.size());
    std::vector<Json> parses;
    parses.reserve(50);
    const size_t before = mallinfo2().uordblks;
    for (int i = 0; i < 50; ++i) parses.push_back(Json::parse(text));
    const double measured = static_cast<double>(mallinfo2().uordblks - before) / 50;
    const double estimated = static_cast<double>(JsonFootprint(parses.front()));
    CAPTURE(measured);
    CAPTURE(estimated);
    CHECK(estimated > 4.0 * static_cast<double>(text.size()));  // why the size on disk is no measure
#ifndef FOLIO_OTHER_ALLOCATOR
    // A sanitizer's allocator has other block sizes, and mallinfo2 does not see it.
    CHECK(estimated > 0.8 * measured);
    CHECK(estimated < 1.2 * measured);
#endif
  }
}
