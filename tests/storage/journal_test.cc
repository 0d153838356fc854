// The journal of older data directories: idempotent recovery of committed records;
// atomic writes.
#include <doctest/doctest.h>

#include <filesystem>

#include "folio/fs.h"
#include "storage/atomic_write.h"
#include "storage/journal.h"
#include "storage/layout.h"
#include "storage/mem_fs.h"
#include "support/faulty_fs.h"
#include "support/fs_worlds.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::storage;
using folio::testing::FaultyFs;
using folio::testing::ReadFile;
using folio::testing::TempDir;
using folio::testing::WriteFile;

namespace {
size_t CountTemps(const std::string& dir) {
  size_t n = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (IsTempName(e.path().filename().string())) ++n;
  }
  return n;
}
}  // namespace

TEST_CASE("Journal: recovery re-applies a committed record, twice if need be") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  WriteFile(dir / "a.txt", "a");
  WriteFile(dir / ".folio-tmp-staged", "staged");
  std::filesystem::create_directory(dir / "journal");
  // A record as a process that died after the commit point would leave it.
  WriteFile(dir / "journal/000000000000001-1-000001.json",
            R"({"format":1,"actions":[{"op":"rename","from":".folio-tmp-staged","to":"a.txt"},
                {"op":"remove","path":"b.txt"}]})");
  WriteFile(dir / "b.txt", "b");
  WriteFile(dir / "journal/.folio-tmp-halfwritten", "{\"act");
  auto n = RecoverJournal(**fs, "journal");
  REQUIRE(n.ok());
  CHECK(*n == 1);
  CHECK(ReadFile(dir / "a.txt") == "staged");
  CHECK_FALSE(std::filesystem::exists(dir / "b.txt"));
  CHECK(std::filesystem::is_empty(dir / "journal"));
  // Replaying the same record again (a crash during recovery) is harmless.
  WriteFile(dir / "journal/000000000000001-1-000001.json",
            R"({"format":1,"actions":[{"op":"rename","from":".folio-tmp-staged","to":"a.txt"},
                {"op":"remove","path":"b.txt"}]})");
  REQUIRE(RecoverJournal(**fs, "journal").ok());
  CHECK(ReadFile(dir / "a.txt") == "staged");
}

TEST_CASE("Journal: recovery of a move left under both names removes the source name") {
  // A power loss between syncing a move's destination directory and its source's.
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  std::filesystem::create_directories(dir / "journal");
  WriteFile(dir / "a/x", "X");
  REQUIRE((*fs)->Link("a/x", "b/x").ok());
  WriteFile(dir / "journal/000000000000001-1-000001.json",
            R"({"format":1,"actions":[{"op":"rename","from":"a/x","to":"b/x"}]})");
  auto n = RecoverJournal(**fs, "journal");
  REQUIRE(n.ok());
  CHECK(*n == 1);
  CHECK_FALSE(std::filesystem::exists(dir / "a/x"));
  CHECK(ReadFile(dir / "b/x") == "X");
  CHECK(std::filesystem::is_empty(dir / "journal"));
}

TEST_CASE("Journal: a malformed record is a storage error, not a crash") {
  TempDir dir;
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  std::filesystem::create_directory(dir / "journal");
  WriteFile(dir / "journal/1.json", R"({"actions":[{"op":"explode"}]})");
  auto n = RecoverJournal(**fs, "journal");
  REQUIRE_FALSE(n.ok());
  CHECK(n.status().kind() == ErrorKind::kStorage);
  CHECK(folio::testing::Contains(n.status().message(), "journal/1.json"));
}

TEST_CASE("AtomicWrite: a failure at any step leaves the old bytes and no temp file") {
  TempDir dir;
  auto real = OpenPosixFs(dir.path());
  REQUIRE(real.ok());
  WriteFile(dir / "f.txt", "old");
  for (int step = 0;; ++step) {
    FaultyFs fs(**real, step, FaultyFs::Mode::kOnlyN);
    Status s = WriteFileAtomically(fs, "f.txt", "new");
    if (!fs.fired()) {
      REQUIRE(s.ok());
      break;
    }
    CHECK(s.kind() == ErrorKind::kStorage);
    const std::string now = ReadFile(dir / "f.txt");
    // The rename is the commit point: before it "old", after it (failing sync) "new".
    CHECK((now == "old" || now == "new"));
    if (now == "new") WriteFile(dir / "f.txt", "old");
    CHECK(CountTemps(dir.path()) == 0);
  }
  CHECK(ReadFile(dir / "f.txt") == "new");
}

TEST_CASE("AtomicWrite: a power loss at any step leaves the old bytes or the new ones") {
  using folio::storage::MemFs;
  using folio::storage::PowerLoss;
  MemFs fixture;
  folio::testing::Put(fixture, "f.txt", "old");
  REQUIRE(fixture.SyncAll().ok());
  for (PowerLoss model : {PowerLoss::kDropUnsynced, PowerLoss::kKeepPrefix}) {
    CAPTURE(static_cast<int>(model));
    bool done = false;
    for (int step = 0; !done; ++step) {
      for (size_t keep = 0;; ++keep) {
        CAPTURE(step);
        CAPTURE(keep);
        MemFs disk = fixture.Clone();
        FaultyFs fs(disk, FaultyFs::CutPowerAt(step, model, keep));
        Status s = WriteFileAtomically(fs, "f.txt", "new");
        if (!fs.fired()) {
          REQUIRE(s.ok());
          disk.LosePower(model, 0);  // done means durable
          CHECK(folio::storage::DumpTree(disk) == "f.txt = \"new\"\n");
          done = true;
          break;
        }
        CHECK(s.kind() == ErrorKind::kStorage);
        const std::string tree = folio::storage::DumpTree(disk);
        // A leftover temp file is fine (fsck removes it); f.txt is whole, old or new.
        CAPTURE(tree);
        CHECK((tree.find("f.txt = \"old\"\n") != std::string::npos ||
               tree.find("f.txt = \"new\"\n") != std::string::npos));
        if (model == PowerLoss::kDropUnsynced || keep >= fs.ops_at_cut()) break;
      }
    }
  }
}
