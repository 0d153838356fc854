// fsck and subfolder markers (docs/STORAGE.md §3, §10): every folder with a record has
// its marker in its parent holding its id, and no marker names a folder that is not
// there (folder-marker-mismatch, a warning); --repair writes and removes markers.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

namespace {

// The message of the folder-marker-mismatch finding at `path` of a check (required).
std::string MessageOf(const std::string& dir, const std::string& path) {
  const FsckReport report = RunCheck(dir);
  const Finding* found = Find(report, "folder-marker-mismatch", path);
  REQUIRE_MESSAGE(found != nullptr, "expected folder-marker-mismatch at " << path << ", got:\n" << Dump(report));
  CHECK(found->severity == Severity::kWarning);
  return found->message;
}

}  // namespace

TEST_CASE("Fsck: plants folder-marker-mismatch and reports folder-marker-mismatch") {
  FsckFixture f;
  const std::string reports = f.Data(".folio/folders/reports");
  const std::string archive = f.Data(".folio/folders/archive");
  auto year = f.repo->GetObjectByPath("reports/2024");
  REQUIRE(year.ok());
  const std::string year_marker = f.Data("reports/.folio/folders/2024");
  REQUIRE(ReadFile(f.Abs(year_marker)) == year->id + "\n");
  SUBCASE("missing") {
    fs::remove(f.Abs(reports));
    const std::string message = MessageOf(f.dir.path(), reports);
    CHECK(message == "missing folder marker '" + reports + "' of folder '/reports' ('" + f.reports.id + "')");
    CHECK(ExpectRepaired(f.dir.path(), "folder-marker-mismatch", reports) ==
          "wrote the marker with id '" + f.reports.id + "'");
    CHECK(ReadFile(f.Abs(reports)) == f.reports.id + "\n");
  }
  SUBCASE("holding another folder's id") {
    WriteFile(f.Abs(archive), f.reports.id + "\n");
    CHECK(MessageOf(f.dir.path(), archive) == "folder marker '" + archive + "' holds '" + f.reports.id +
                                                  "' instead of the id of folder '/archive' ('" + f.archive.id + "')");
    ExpectRepaired(f.dir.path(), "folder-marker-mismatch", archive);
    CHECK(ReadFile(f.Abs(archive)) == f.archive.id + "\n");
  }
  SUBCASE("holding no id") {
    WriteFile(f.Abs(archive), "");
    CHECK(MessageOf(f.dir.path(), archive) ==
          "folder marker '" + archive + "' holds no id instead of the id of folder '/archive' ('" + f.archive.id +
              "')");
    ExpectRepaired(f.dir.path(), "folder-marker-mismatch", archive);
    CHECK(ReadFile(f.Abs(archive)) == f.archive.id + "\n");
  }
  SUBCASE("a directory instead of a file") {
    fs::remove(f.Abs(archive));
    fs::create_directories(f.Abs(archive) + "/inside");
    CHECK(MessageOf(f.dir.path(), archive).find("holds no id") != std::string::npos);
    ExpectRepaired(f.dir.path(), "folder-marker-mismatch", archive);
    CHECK(ReadFile(f.Abs(archive)) == f.archive.id + "\n");
  }
  SUBCASE("stale: no folder of that name") {
    const std::string ghost = f.Data(".folio/folders/ghost");
    WriteFile(f.Abs(ghost), f.archive.id + "\n");
    CHECK(MessageOf(f.dir.path(), ghost) == "stale folder marker '" + ghost + "' (holding '" + f.archive.id +
                                                "'): no folder with a record is at '/ghost'");
    CHECK(ExpectRepaired(f.dir.path(), "folder-marker-mismatch", ghost) == "removed");
    CHECK_FALSE(fs::exists(f.Abs(ghost)));
    CHECK(f.repo->GetObject(f.archive.id).ok());
  }
  SUBCASE("the markers directory is a file") {
    const std::string dir = f.Data("reports/.folio/folders");
    fs::remove_all(f.Abs(dir));
    WriteFile(f.Abs(dir), "not a directory");
    CHECK(MessageOf(f.dir.path(), dir) == "folder marker directory '" + dir + "' is not a directory");
    CHECK(MessageOf(f.dir.path(), year_marker).find("missing folder marker") != std::string::npos);
    ExpectRepaired(f.dir.path(), "folder-marker-mismatch", dir);
    CHECK(ReadFile(f.Abs(year_marker)) == year->id + "\n");
  }
  // The repaired store works as before: the folders list and a removal is noticed.
  auto page = f.repo->GetChildren(f.root, 0, 100);
  REQUIRE(page.ok());
  CHECK(f.repo->GetObjectByPath("reports/2024/old.txt").ok());
}

TEST_CASE("Fsck: a folder's marker is not reported while its parent has no record yet") {
  FsckFixture f;
  // The root's record set aside: its subfolders' markers are written by its adoption.
  f.repo.reset();
  f.store.reset();
  const std::string marker = f.Data("reports/.folio/folders/2024");
  fs::remove(f.Abs(f.Data("reports/.folio/folder.json")));
  fs::remove(f.Abs(marker));
  const FsckReport before = RunCheck(f.dir.path());
  CHECK_MESSAGE(Find(before, "folder-marker-mismatch", marker) == nullptr, Dump(before));
  // The repair adopts reports/ again (a new id), and its subfolder gets its marker.
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK_MESSAGE(repaired.problems() == 0, Dump(repaired));
  CHECK(RunCheck(f.dir.path()).clean());
  CHECK(fs::exists(f.Abs(marker)));
}
