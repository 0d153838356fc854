// OverlayFs: changes kept in memory above a filesystem that is never changed.
#include <doctest/doctest.h>

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
