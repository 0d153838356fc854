// The JSON cache never serves a file that changed.
#include <doctest/doctest.h>

#include <filesystem>

#include "storage/atomic_write.h"
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
