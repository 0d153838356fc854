// OverlayFs: changes kept in memory above a filesystem that is never changed.
#include <doctest/doctest.h>

#include "storage/change_set.h"
#include "storage/mem_fs.h"
#include "storage/overlay_fs.h"
#include "support/fs_worlds.h"

using namespace folio;
using folio::testing::Get;
using folio::testing::Put;

TEST_CASE("OverlayFs: files, directories and links live above; the filesystem below is never changed") {
  storage::MemFs below;
  REQUIRE(below.MakeDir("d").ok());
  Put(below, "d/a.txt", "below");
  const std::string before = Get(below, "d/a.txt");
  storage::OverlayFs fs(below);
  // A new directory and file above, listed with what is below.
  REQUIRE(fs.MakeDir("d/new").ok());
  Put(fs, "d/new/b.txt", "above");
  CHECK(Get(fs, "d/new/b.txt") == "above");
  auto list = fs.List("d");
  REQUIRE(list.ok());
  CHECK(list->size() == 2);
  // A file renamed onto a path below shadows it.
  Put(fs, "d/tmp", "shadow");
  REQUIRE(fs.Rename("d/tmp", "d/a.txt").ok());
  CHECK(Get(fs, "d/a.txt") == "shadow");
  CHECK(Get(below, "d/a.txt") == before);
  // A link to a file below is that file: the same identity, its bytes read below.
  REQUIRE(fs.Link("d/new/b.txt", "d/new/c.txt").ok());
  CHECK(Get(fs, "d/new/c.txt") == "above");
  Put(below, "d/z.txt", "zzz");
  REQUIRE(fs.Link("d/z.txt", "d/new/z-link").ok());
  auto st_link = fs.Stat("d/new/z-link");
  auto st_below = below.Stat("d/z.txt");
  REQUIRE(st_link.ok());
  REQUIRE(st_below.ok());
  CHECK(st_link->inode == st_below->inode);
  CHECK(Get(fs, "d/new/z-link") == "zzz");
  // Nothing below may be renamed or removed through it.
  Status renamed = fs.Rename("d/z.txt", "d/y.txt");
  CHECK(renamed.kind() == ErrorKind::kStorage);
  CHECK(renamed.Is(std::errc::read_only_file_system));
  CHECK(fs.Remove("d/z.txt").Is(std::errc::read_only_file_system));
  CHECK(fs.RemoveTree("d").Is(std::errc::read_only_file_system));
  // Creating where a file exists (above or below) fails as on a disk.
  CHECK(fs.CreateNew("d/z.txt").status().Is(std::errc::file_exists));
  CHECK(fs.MakeDir("d/new").Is(std::errc::file_exists));
  CHECK(fs.CreateNew("nowhere/x").status().Is(std::errc::no_such_file_or_directory));
  // What it holds may be removed.
  REQUIRE(fs.RemoveTree("d/new").ok());
  CHECK(!Exists(fs, "d/new/b.txt"));
  CHECK(!Exists(below, "d/new"));
  CHECK(fs.List("d")->size() == 2);  // a.txt (shadowed) and z.txt
  auto below_list = below.List("d");
  REQUIRE(below_list.ok());
  CHECK(below_list->size() == 2);
}

TEST_CASE("OverlayFs: what every overlay holds is counted against one limit; a change is asked room for first") {
  storage::MemFs below;
  REQUIRE(below.MakeDir("d").ok());
  const uint64_t all_before = storage::OverlayFs::MemoryUsedByAll();
  {
    storage::OverlayFs fs(below);
    CHECK(fs.memory_used() == 0);
    // A change as a read-only repository applies it: its cost bounds what it adds.
    storage::ChangeSet change;
    change.MakeDir("d/meta");
    change.Put("d/meta/record.json", std::string(10000, 'x'));
    Put(below, "d/file.txt", "below");
    change.Link("d/meta/1.0.content", "d/file.txt", storage::Guard::None());
    const uint64_t cost = storage::OverlayFs::CostOf(change);
    REQUIRE(storage::ApplyChangeSet(fs, change, storage::ApplyOptions{}, nullptr).ok());
    const uint64_t held = fs.memory_used();
    CHECK(held > 10000);
    CHECK(held <= cost);
    CHECK(storage::OverlayFs::MemoryUsedByAll() == all_before + held);
    // Replacing a file's bytes counts the new bytes instead of the old.
    Put(fs, "d/meta/small.tmp", "1234");
    REQUIRE(fs.Rename("d/meta/small.tmp", "d/meta/record.json").ok());
    CHECK(fs.memory_used() < held - 9000);
    // Removed: uncounted.
    REQUIRE(fs.RemoveTree("d/meta").ok());
    CHECK(fs.memory_used() == 0);
    Put(fs, "d/kept.txt", std::string(5000, 'k'));
    CHECK(fs.memory_used() > 5000);
  }
  // A destroyed overlay gives back all it held.
  CHECK(storage::OverlayFs::MemoryUsedByAll() == all_before);

  // Past the limit a change is refused whole, naming the repository and the limit.
  const uint64_t saved = storage::OverlayFs::MemoryLimit();
  storage::OverlayFs::SetMemoryLimit(all_before + 1000);
  CHECK(storage::OverlayFs::CheckRoom(1000, "demo/main").ok());
  Status refused = storage::OverlayFs::CheckRoom(1001, "demo/main");
  storage::OverlayFs::SetMemoryLimit(saved);
  CHECK(refused.kind() == ErrorKind::kStorage);
  CHECK(refused.Is(std::errc::not_enough_memory));
  CHECK(refused.message().find("read-only repository 'demo/main'") != std::string::npos);
  CHECK(refused.message().find(" that a read-only process keeps for all its repositories") != std::string::npos);
  CHECK(refused.message().find("folio fsck --repair") != std::string::npos);
  CHECK(storage::OverlayFs::MemoryLimit() == storage::kOverlayMemoryLimit);
  Status too_big = storage::OverlayFs::CheckRoom(storage::kOverlayMemoryLimit + 1, "d/r");
  CHECK(too_big.Is(std::errc::not_enough_memory));
  CHECK(too_big.message().find("than the 256 MiB that") != std::string::npos);
}

// What is kept by a directory's identity (the adoption tables' numbers, listings) must
// see names added through the overlay: a read-only process once adopted a file in
// memory and then could not find it (the model test's kKnownBugReadOnlyListing).
TEST_CASE("OverlayFs: a directory's mtime changes with each name added or removed above it") {
  storage::MemFs below;
  REQUIRE(below.MakeDir("d").ok());
  Put(below, "d/a.txt", "below");
  storage::OverlayFs fs(below);
  const auto mtime = [&](const std::string& dir) {
    auto st = fs.Stat(dir);
    REQUIRE(st.ok());
    return st->mtime_ns;
  };
  const int64_t d0 = mtime("d");
  CHECK(d0 == below.Stat("d")->mtime_ns);  // nothing changed above: the directory below
  Put(fs, "d/new.txt", "above");
  const int64_t d1 = mtime("d");
  CHECK(d1 != d0);
  REQUIRE(fs.MakeDir("d/sub").ok());
  const int64_t sub0 = mtime("d/sub");
  const int64_t d2 = mtime("d");
  CHECK(d2 != d1);
  Put(fs, "d/sub/x", "x");
  CHECK(mtime("d/sub") != sub0);
  REQUIRE(fs.Rename("d/new.txt", "d/sub/moved.txt").ok());
  CHECK(mtime("d") != d2);
  const int64_t d3 = mtime("d");
  REQUIRE(fs.Remove("d/sub/moved.txt").ok());
  CHECK(mtime("d") == d3);
  CHECK(below.Stat("d")->mtime_ns == d0);  // below, nothing changed
}
