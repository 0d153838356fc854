// The JSON cache never serves a file that changed.
#include <doctest/doctest.h>

#include <filesystem>

#include "storage/atomic_write.h"
#include "storage/change_set.h"
#include "storage/json_cache.h"
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

TEST_CASE("JsonCache: bounded by bytes as well as by count, the newest kept") {
  JsonCache cache(100, 1000);
  auto remember = [&](const std::string& path, uint64_t size) {
    FileStat st;
    st.type = FileType::kFile;
    st.size = size;
    st.inode = std::hash<std::string>{}(path);
    cache.Remember(path, st, std::make_shared<const Json>(Json{{"path", path}}));
  };
  for (int i = 0; i < 20; ++i) remember("f" + std::to_string(i), 100);
  CHECK(cache.size() == 10);  // 10 x 100 bytes: the budget, not the count of 100
  CHECK(cache.bytes() == 1000);
  CHECK(cache.Peek("f19") != nullptr);  // the newest stay
  CHECK(cache.Peek("f10") != nullptr);
  CHECK(cache.Peek("f9") == nullptr);  // the oldest went
  // Replacing an entry counts its new size only.
  remember("f19", 300);
  CHECK(cache.bytes() <= 1000);
  CHECK(cache.Peek("f19") != nullptr);
  // One entry over the whole budget is still kept, alone.
  remember("huge", 5000);
  CHECK(cache.size() == 1);
  CHECK(cache.bytes() == 5000);
  CHECK(cache.Peek("huge") != nullptr);
  remember("small", 10);
  CHECK(cache.size() == 1);
  CHECK(cache.Peek("small") != nullptr);
  cache.Clear();
  CHECK(cache.size() == 0);
  CHECK(cache.bytes() == 0);
}
