// FaultyFs: which calls count, failing from call N on or only at N, a full disk, and
// a power cut at call N under both MemFs power loss models.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "storage/mem_fs.h"
#include "support/faulty_fs.h"
#include "support/fs_worlds.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::storage::DumpTree;
using folio::storage::MemFs;
using folio::storage::PowerLoss;
using folio::testing::Contains;
using folio::testing::FaultyFs;
using folio::testing::Get;
using folio::testing::Put;

namespace {

// One of each changing call, in order; returns the first error (or OK). Requires a
// file "src".
Status EveryChange(Fs& fs) {
  FOLIO_ASSIGN_OR_RETURN(auto file, fs.CreateNew("f"));  // 0
  FOLIO_RETURN_IF_ERROR(file->Append("ab"));            // 1
  {
    FOLIO_ASSIGN_OR_RETURN(auto src, fs.Open("src"));
    FOLIO_RETURN_IF_ERROR(file->AppendFrom(*src));  // 2
  }
  FOLIO_RETURN_IF_ERROR(file->Sync());               // 3
  FOLIO_RETURN_IF_ERROR(file->Close());              // 4
  FOLIO_RETURN_IF_ERROR(fs.Rename("f", "g"));        // 5
  FOLIO_RETURN_IF_ERROR(fs.RenameNoReplace("g", "h"));  // 6
  FOLIO_RETURN_IF_ERROR(fs.SyncDir(""));             // 7
  FOLIO_RETURN_IF_ERROR(fs.MakeDir("d"));            // 8
  FOLIO_RETURN_IF_ERROR(fs.Link("h", "d/h"));        // 9
  FOLIO_RETURN_IF_ERROR(fs.Remove("h"));             // 10
  {
    FOLIO_ASSIGN_OR_RETURN(auto lock, fs.Lock("lock"));  // 11
  }
  FOLIO_ASSIGN_OR_RETURN(auto log, fs.OpenRandomAccess("d/log"));  // 12
  FOLIO_RETURN_IF_ERROR(log->WriteAt(0, "L"));   // 13
  FOLIO_RETURN_IF_ERROR(log->DataSync());        // 14
  FOLIO_RETURN_IF_ERROR(fs.SyncAll());           // 15
  FOLIO_RETURN_IF_ERROR(fs.RemoveTree("d"));     // 16
  return OkStatus();
}
constexpr int kChanges = 17;

// Reads, which never count.
void EveryRead(Fs& fs) {
  (void)fs.Stat("");
  (void)fs.IdentityStat("");
  (void)fs.List("");
  (void)fs.Open("lock");
  (void)fs.OpenDirectory("");
  (void)fs.BootId();
}

}  // namespace

TEST_CASE("FaultyFs: counts every changing call, files' included, and no read") {
  MemFs mem;
  Put(mem, "src", "S");
  FaultyFs fs(mem, FaultyFs::FailFrom(-1));
  REQUIRE(EveryChange(fs).ok());
  CHECK(fs.calls() == kChanges);
  EveryRead(fs);
  CHECK(fs.calls() == kChanges);
  CHECK_FALSE(fs.fired());
  {
    auto lock = fs.Lock("lock");  // exists now: writes nothing
    REQUIRE(lock.ok());
  }
  CHECK(fs.calls() == kChanges);
}

TEST_CASE("FaultyFs: from call N on, every changing call fails and changes nothing") {
  for (int n = 0; n < kChanges; ++n) {
    CAPTURE(n);
    MemFs mem;
    Put(mem, "src", "S");
    FaultyFs fs(mem, FaultyFs::FailFrom(n));
    Status s = EveryChange(fs);
    CHECK(fs.fired());
    CHECK(s.kind() == ErrorKind::kStorage);
    CHECK(s.Is(std::errc::io_error));
    CHECK(Contains(s.message(), "injected failure"));
    CHECK(fs.calls() == n + 1);
    const std::string tree = DumpTree(mem);
    CHECK(fs.CreateNew("later").status().Is(std::errc::io_error));
    CHECK(fs.MakeDir("later").Is(std::errc::io_error));
    CHECK(DumpTree(mem) == tree);
    CHECK(fs.List("").ok());  // reads keep working
  }
}

TEST_CASE("FaultyFs: only call N fails; the existing constructor still works") {
  MemFs mem;
  FaultyFs fs(mem, 1, FaultyFs::Mode::kOnlyN);
  auto file = fs.CreateNew("f");
  REQUIRE(file.ok());
  const Status s = (*file)->Append("lost");
  CHECK(s.Is(std::errc::io_error));
  CHECK(Contains(s.message(), "'f'"));
  REQUIRE((*file)->Append("kept").ok());
  REQUIRE((*file)->Close().ok());
  CHECK(Get(mem, "f") == "kept");
  CHECK(fs.fired());
  CHECK(fs.calls() == 4);
}

TEST_CASE("FaultyFs: a full disk answers ENOSPC") {
  MemFs mem;
  FaultyFs fs(mem, FaultyFs::FailCallAt(0, std::errc::no_space_on_device));
  const Status s = fs.MakeDir("d");
  CHECK(s.kind() == ErrorKind::kStorage);
  CHECK(s.Is(std::errc::no_space_on_device));
  CHECK(Contains(s.message(), "'d'"));
  CHECK(fs.MakeDir("d").ok());
}

TEST_CASE("FaultyFs: a failed Close still releases the file") {
  MemFs mem;
  FaultyFs fs(mem, FaultyFs::FailCallAt(2));
  auto file = fs.CreateNew("f");
  REQUIRE(file.ok());
  REQUIRE((*file)->Append("x").ok());
  CHECK((*file)->Close().Is(std::errc::io_error));
  CHECK((*file)->Append("y").kind() == ErrorKind::kStorage);  // closed
  CHECK(Get(mem, "f") == "x");
}

TEST_CASE("FaultyFs: a power cut at call N loses what model (a) loses, and the process is dead") {
  MemFs mem;
  Put(mem, "old", "O");
  REQUIRE(mem.SyncAll().ok());
  const std::string boot = mem.BootId();
  // Calls: 0 create, 1 append, 2 sync, 3 close, 4 rename, 5 syncdir.
  FaultyFs fs(mem, FaultyFs::CutPowerAt(5, PowerLoss::kDropUnsynced));
  auto file = fs.CreateNew("tmp");
  REQUIRE(file.ok());
  REQUIRE((*file)->Append("new").ok());
  REQUIRE((*file)->Sync().ok());
  REQUIRE((*file)->Close().ok());
  REQUIRE(fs.Rename("tmp", "old").ok());
  CHECK_FALSE(fs.fired());
  const Status cut = fs.SyncDir("");
  CHECK(cut.kind() == ErrorKind::kStorage);
  CHECK(Contains(cut.message(), "power lost"));
  CHECK(fs.fired());
  CHECK(mem.BootId() != boot);
  CHECK(DumpTree(mem) == "old = \"O\"\n");  // the rename was never made durable
  // Every later call fails, reads included.
  CHECK(fs.Open("old").status().kind() == ErrorKind::kStorage);
  CHECK(fs.List("").status().kind() == ErrorKind::kStorage);
  CHECK(fs.Stat("old").status().kind() == ErrorKind::kStorage);
  CHECK(fs.MakeDir("d").kind() == ErrorKind::kStorage);
  CHECK(fs.calls() == 6);
}

TEST_CASE("FaultyFs: a power cut under model (b) keeps the prefix asked for") {
  MemFs base;
  Put(base, "old", "O");
  REQUIRE(base.SyncAll().ok());
  // 0 mkdir (op 1), 1 create (op 2), 2 append (op 3), 3 rename (op 4), 4 the cut.
  const std::vector<std::string> expected = {
      "old = \"O\"\n",
      "d/\nold = \"O\"\n",
      "d/\nd/f = \"\"\nold = \"O\"\n",
      "d/\nd/f = \"F\"\nold = \"O\"\n",
      "d/\nd/g = \"F\"\nold = \"O\"\n",
  };
  for (size_t keep = 0; keep < expected.size(); ++keep) {
    CAPTURE(keep);
    MemFs mem = base.Clone();
    FaultyFs fs(mem, FaultyFs::CutPowerAt(4, PowerLoss::kKeepPrefix, keep));
    REQUIRE(fs.MakeDir("d").ok());
    auto file = fs.CreateNew("d/f");
    REQUIRE(file.ok());
    REQUIRE((*file)->Append("F").ok());
    REQUIRE(fs.Rename("d/f", "d/g").ok());
    CHECK((*file)->Close().kind() == ErrorKind::kStorage);
    CHECK(fs.fired());
    CHECK(fs.ops_at_cut() == 4);
    CHECK(DumpTree(mem) == expected[keep]);
  }
}

TEST_CASE("FaultyFs: no call of the dead process lands after a power cut, whatever the threads") {
  MemFs mem;
  FaultyFs fs(mem, FaultyFs::CutPowerAt(100, PowerLoss::kDropUnsynced));
  std::vector<std::thread> threads;
  std::atomic<int> made{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0;; ++k) {
        if (!fs.MakeDir("t" + std::to_string(t) + "-" + std::to_string(k)).ok()) return;
        ++made;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(fs.fired());
  CHECK(made.load() == 100);
  // None of them was synced: a directory here would be a call made after the cut.
  CHECK(DumpTree(mem).empty());
}
