// PosixFs: confinement to the root, no symlinks, and the error causes callers rely on.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>

#include "folio/fs.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::TempDir;
using folio::testing::WriteFile;

TEST_CASE("PosixFs: refuses paths that leave the root or are not normal") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  for (const char* bad : {"/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", "a/", "/"}) {
    CAPTURE(bad);
    auto r = (*fs)->Open(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().kind() == ErrorKind::kInvalidArgument);
    CHECK((*fs)->MakeDir(bad).kind() == ErrorKind::kInvalidArgument);
  }
}

TEST_CASE("PosixFs: never follows a symlink, inside or outside the root") {
  TempDir dir, outside;
  WriteFile(outside / "secret", "s");
  std::filesystem::create_directory(dir / "real");
  WriteFile(dir / "real/f", "f");
  std::filesystem::create_symlink(outside.path(), dir / "out");
  std::filesystem::create_symlink(dir / "real", dir / "in");
  std::filesystem::create_symlink(dir / "real/f", dir / "flink");
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  for (const char* p : {"out/secret", "in/f", "flink"}) {
    CAPTURE(p);
    auto r = (*fs)->Open(p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().kind() == ErrorKind::kStorage);
  }
  CHECK_FALSE((*fs)->CreateNew("out/new").ok());
  CHECK_FALSE(std::filesystem::exists(outside / "new"));
  auto st = (*fs)->Stat("flink");
  REQUIRE(st.ok());
  CHECK(st->type == FileType::kSymlink);
  CHECK((*fs)->Open("real/f").ok());
  // Removing a tree with a symlink inside removes the link, not what it points to.
  std::filesystem::create_symlink(outside.path(), dir / "real/evil");
  CHECK((*fs)->RemoveTree("real").ok());
  CHECK(std::filesystem::exists(outside / "secret"));
}

TEST_CASE("PosixFs: a FIFO or device in the data directory is refused, not waited on") {
  TempDir dir;
  REQUIRE(::mkfifo((dir.path() + "/pipe").c_str(), 0644) == 0);
  REQUIRE(::mkdir((dir.path() + "/d").c_str(), 0755) == 0);
  REQUIRE(::mkfifo((dir.path() + "/d/1.0.json").c_str(), 0644) == 0);
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  // Opening a FIFO for reading blocks until a writer comes: these would hang.
  CHECK((*fs)->Open("pipe").status().Is(std::errc::invalid_argument));
  CHECK((*fs)->Open("d").status().Is(std::errc::is_a_directory));
  auto d = (*fs)->OpenDirectory("d");
  REQUIRE(d.ok());
  std::string bytes;
  CHECK((*d)->ReadFile("1.0.json", bytes).Is(std::errc::invalid_argument));
}

TEST_CASE("PosixFs: error causes distinguish exists from missing") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  auto f = (*fs)->CreateNew("a");
  REQUIRE(f.ok());
  REQUIRE((*f)->Append("abc").ok());
  REQUIRE((*f)->Close().ok());
  CHECK((*fs)->CreateNew("a").status().Is(std::errc::file_exists));
  CHECK((*fs)->Open("nope").status().Is(std::errc::no_such_file_or_directory));
  CHECK((*fs)->Remove("nope").Is(std::errc::no_such_file_or_directory));
  REQUIRE((*fs)->MakeDir("d").ok());
  CHECK((*fs)->MakeDir("d").Is(std::errc::file_exists));
  auto g = (*fs)->CreateNew("b");
  REQUIRE(g.ok());
  REQUIRE((*g)->Close().ok());
  CHECK((*fs)->RenameNoReplace("a", "b").Is(std::errc::file_exists));
  CHECK((*fs)->Rename("a", "b").ok());
  CHECK(*ReadWholeFile(**fs, "b") == "abc");
  CHECK((*fs)->RemoveTree("missing/tree").ok());
}
