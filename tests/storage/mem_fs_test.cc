// MemFs beyond the Fs contract (fs_conformance_test.cc): the two power loss models
// with exact expected trees, handles dying with the boot, identities, Clone, and
// importing and dumping trees.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "storage/mem_fs.h"
#include "support/fs_worlds.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::storage::DumpTree;
using folio::storage::ImportTree;
using folio::storage::MemFs;
using folio::testing::Contains;
using folio::testing::Get;
using folio::testing::Put;
using folio::testing::TempDir;

namespace {

// Creates `path` holding `bytes` and syncs it (not its directory).
void PutSynced(Fs& fs, const std::string& path, const std::string& bytes) {
  auto file = fs.CreateNew(path);
  REQUIRE(file.ok());
  REQUIRE((*file)->Append(bytes).ok());
  REQUIRE((*file)->Sync().ok());
  REQUIRE((*file)->Close().ok());
}

// The state of `fs` after a power loss of model (b) keeping `n` changes, `fs` untouched.
std::string AfterKeeping(const MemFs& fs, size_t n) {
  MemFs copy = fs.Clone();
  copy.KeepPrefix(n);
  return DumpTree(copy);
}

std::string AfterDropping(const MemFs& fs) {
  MemFs copy = fs.Clone();
  copy.DropUnsynced();
  return DumpTree(copy);
}

}  // namespace

TEST_CASE("MemFs (a): a created file's bytes are lost without Sync, its name without SyncDir") {
  MemFs fs;
  Put(fs, "unsynced", "data");
  PutSynced(fs, "synced", "data");
  REQUIRE(fs.SyncDir("").ok());
  PutSynced(fs, "late", "data");  // its directory is not synced again
  CHECK(AfterDropping(fs) == "synced = \"data\"\nunsynced = \"\"\n");
}

TEST_CASE("MemFs (a): write, sync, rename without SyncDir is lost; with it, kept") {
  MemFs fs;
  PutSynced(fs, "f", "old");
  REQUIRE(fs.SyncDir("").ok());
  PutSynced(fs, "tmp", "new");
  REQUIRE(fs.Rename("tmp", "f").ok());
  CHECK(DumpTree(fs) == "f = \"new\"\n");
  CHECK(AfterDropping(fs) == "f = \"old\"\n");
  REQUIRE(fs.SyncDir("").ok());
  CHECK(AfterDropping(fs) == "f = \"new\"\n");
}

TEST_CASE("MemFs (a): a directory never synced comes back empty") {
  MemFs fs;
  REQUIRE(fs.MakeDir("d").ok());
  REQUIRE(fs.MakeDir("d/e").ok());
  PutSynced(fs, "d/f", "F");
  REQUIRE(fs.SyncDir("").ok());
  CHECK(AfterDropping(fs) == "d/\n");
  REQUIRE(fs.SyncDir("d").ok());
  CHECK(AfterDropping(fs) == "d/\nd/e/\nd/f = \"F\"\n");
}

TEST_CASE("MemFs (a): a removed name comes back with its synced bytes until its directory is synced") {
  MemFs fs;
  PutSynced(fs, "f", "kept");
  REQUIRE(fs.SyncDir("").ok());
  REQUIRE(fs.Remove("f").ok());
  CHECK(DumpTree(fs).empty());
  CHECK(AfterDropping(fs) == "f = \"kept\"\n");
  REQUIRE(fs.SyncDir("").ok());
  CHECK(AfterDropping(fs).empty());
}

TEST_CASE("MemFs (a): a move synced only at its destination leaves two names of one file") {
  MemFs fs;
  REQUIRE(fs.MakeDir("a").ok());
  REQUIRE(fs.MakeDir("b").ok());
  PutSynced(fs, "a/f", "F");
  REQUIRE(fs.SyncAll().ok());
  REQUIRE(fs.Rename("a/f", "b/f").ok());
  REQUIRE(fs.SyncDir("b").ok());
  MemFs lost = fs.Clone();
  lost.DropUnsynced();
  CHECK(DumpTree(lost) == "a/\na/f = \"F\"\nb/\nb/f = \"F\"\n");
  CHECK(*lost.LinkCount("a/f") == 2);
  CHECK(lost.Stat("a/f")->inode == lost.Stat("b/f")->inode);
}

TEST_CASE("MemFs (a): a directory durably named twice is kept under the first name only") {
  MemFs fs;
  REQUIRE(fs.MakeDir("A").ok());
  REQUIRE(fs.MakeDir("B").ok());
  REQUIRE(fs.SyncAll().ok());
  REQUIRE(fs.Rename("B", "A/B").ok());
  REQUIRE(fs.SyncDir("A").ok());  // the root still durably names B
  CHECK(AfterDropping(fs) == "A/\nB/\n");
}

TEST_CASE("MemFs (a): DataSync keeps the bytes written before it, not after") {
  MemFs fs;
  {
    auto f = fs.OpenRandomAccess("log");
    REQUIRE(f.ok());
    REQUIRE(fs.SyncDir("").ok());
    REQUIRE((*f)->WriteAt(0, "one;").ok());
    REQUIRE((*f)->DataSync().ok());
    REQUIRE((*f)->WriteAt(4, "two;").ok());
    REQUIRE((*f)->WriteAt(0, "ONE;").ok());
  }
  CHECK(DumpTree(fs) == "log = \"ONE;two;\"\n");
  CHECK(AfterDropping(fs) == "log = \"one;\"\n");
}

TEST_CASE("MemFs (a): a hard link is an entry like any other") {
  MemFs fs;
  PutSynced(fs, "a", "A");
  REQUIRE(fs.SyncDir("").ok());
  REQUIRE(fs.Link("a", "b").ok());
  CHECK(AfterDropping(fs) == "a = \"A\"\n");
  REQUIRE(fs.SyncDir("").ok());
  CHECK(AfterDropping(fs) == "a = \"A\"\nb = \"A\"\n");
  REQUIRE(fs.Remove("a").ok());
  REQUIRE(fs.SyncDir("").ok());
  MemFs lost = fs.Clone();
  lost.DropUnsynced();
  CHECK(DumpTree(lost) == "b = \"A\"\n");
  CHECK(*lost.LinkCount("b") == 1);
}

TEST_CASE("MemFs (a): SyncAll makes everything durable") {
  MemFs fs;
  REQUIRE(fs.MakeDir("d").ok());
  Put(fs, "d/f", "F");
  REQUIRE(fs.SyncAll().ok());
  Put(fs, "g", "G");
  CHECK(AfterDropping(fs) == "d/\nd/f = \"F\"\n");
}

TEST_CASE("MemFs (b): every prefix of the changes after a barrier gives its tree") {
  MemFs fs;
  PutSynced(fs, "old", "O");
  REQUIRE(fs.SyncAll().ok());
  CHECK(fs.OpsSinceBarrier() == 0);
  REQUIRE(fs.MakeDir("d").ok());        // 1
  auto f = fs.CreateNew("d/f");         // 2
  REQUIRE(f.ok());
  REQUIRE((*f)->Append("x").ok());      // 3
  REQUIRE((*f)->Append("y").ok());      // 4
  REQUIRE((*f)->Close().ok());
  REQUIRE(fs.Rename("d/f", "d/g").ok());  // 5
  REQUIRE(fs.Remove("old").ok());       // 6
  REQUIRE(fs.Link("d/g", "h").ok());    // 7
  REQUIRE(fs.OpsSinceBarrier() == 7);
  const std::vector<std::string> expected = {
      "old = \"O\"\n",
      "d/\nold = \"O\"\n",
      "d/\nd/f = \"\"\nold = \"O\"\n",
      "d/\nd/f = \"x\"\nold = \"O\"\n",
      "d/\nd/f = \"xy\"\nold = \"O\"\n",
      "d/\nd/g = \"xy\"\nold = \"O\"\n",
      "d/\nd/g = \"xy\"\n",
      "d/\nd/g = \"xy\"\nh = \"xy\"\n",
  };
  for (size_t n = 0; n < expected.size(); ++n) {
    CAPTURE(n);
    CHECK(AfterKeeping(fs, n) == expected[n]);
  }
  CHECK(AfterKeeping(fs, 100) == expected.back());
  CHECK(DumpTree(fs) == expected.back());  // Clone left the original as it was
}

TEST_CASE("MemFs (b): any sync is a barrier for every change before it") {
  for (int kind = 0; kind < 4; ++kind) {
    CAPTURE(kind);
    MemFs fs;
    REQUIRE(fs.MakeDir("d").ok());
    Put(fs, "d/a", "A");
    auto f = fs.OpenRandomAccess("d/log");
    REQUIRE(f.ok());
    REQUIRE((*f)->WriteAt(0, "L").ok());
    REQUIRE(fs.OpsSinceBarrier() > 0);
    switch (kind) {
      case 0: REQUIRE((*f)->DataSync().ok()); break;
      case 1: REQUIRE(fs.SyncDir("").ok()); break;
      case 2: REQUIRE(fs.SyncAll().ok()); break;
      case 3: {
        auto g = fs.CreateNew("g");
        REQUIRE(g.ok());
        REQUIRE((*g)->Sync().ok());
        break;
      }
    }
    CHECK(fs.OpsSinceBarrier() == 0);
    REQUIRE(fs.Rename("d/a", "d/b").ok());
    CHECK(fs.OpsSinceBarrier() == 1);
    const std::string head = "d/\nd/a = \"A\"\nd/log = \"L\"\n";
    const std::string tail = kind == 3 ? "g = \"\"\n" : "";
    CHECK(AfterKeeping(fs, 0) == head + tail);
    CHECK(AfterKeeping(fs, 1) == "d/\nd/b = \"A\"\nd/log = \"L\"\n" + tail);
  }
}

TEST_CASE("MemFs (b): RemoveTree is one change per name, children first") {
  MemFs fs;
  REQUIRE(fs.MakeDir("t").ok());
  REQUIRE(fs.MakeDir("t/a").ok());
  Put(fs, "t/a/f", "F");
  Put(fs, "t/g", "G");
  REQUIRE(fs.SyncAll().ok());
  REQUIRE(fs.RemoveTree("t").ok());
  REQUIRE(fs.OpsSinceBarrier() == 4);
  CHECK(AfterKeeping(fs, 1) == "t/\nt/a/\nt/g = \"G\"\n");
  CHECK(AfterKeeping(fs, 2) == "t/\nt/g = \"G\"\n");
  CHECK(AfterKeeping(fs, 3) == "t/\n");
  CHECK(AfterKeeping(fs, 4).empty());
}

TEST_CASE("MemFs (b): writes to a file removed while open change nothing that survives") {
  MemFs fs;
  auto f = fs.CreateNew("f");
  REQUIRE(f.ok());
  REQUIRE(fs.Remove("f").ok());
  REQUIRE((*f)->Append("ghost").ok());
  REQUIRE(fs.OpsSinceBarrier() == 3);
  for (size_t n = 0; n <= 3; ++n) CHECK(AfterKeeping(fs, n) == (n == 1 ? "f = \"\"\n" : ""));
}

TEST_CASE("MemFs: a power loss changes the boot id and kills every handle of the old boot") {
  for (auto model : {storage::PowerLoss::kDropUnsynced, storage::PowerLoss::kKeepPrefix}) {
    CAPTURE(static_cast<int>(model));
    MemFs fs;
    REQUIRE(fs.MakeDir("d").ok());
    PutSynced(fs, "d/r", "R");
    REQUIRE(fs.SyncAll().ok());
    const std::string boot = fs.BootId();
    auto reader = fs.Open("d/r");
    auto writer = fs.CreateNew("d/w");
    auto random = fs.OpenRandomAccess("d/ra");
    auto dir = fs.OpenDirectory("d");
    auto lock = fs.Lock("lock");
    REQUIRE((reader.ok() && writer.ok() && random.ok() && dir.ok() && lock.ok()));
    fs.LosePower(model);
    CHECK(fs.BootId() != boot);
    CHECK(fs.BootId() == fs.BootId());
    char buf[4];
    std::string out;
    CHECK((*reader)->Read(buf, 4).status().kind() == ErrorKind::kStorage);
    CHECK((*reader)->Stat().status().kind() == ErrorKind::kStorage);
    CHECK((*writer)->Append("x").kind() == ErrorKind::kStorage);
    CHECK((*writer)->Sync().kind() == ErrorKind::kStorage);
    CHECK((*random)->WriteAt(0, "x").kind() == ErrorKind::kStorage);
    CHECK((*random)->ReadAt(0, buf, 4).status().kind() == ErrorKind::kStorage);
    CHECK((*random)->Size().status().kind() == ErrorKind::kStorage);
    const Status read = (*dir)->ReadFile("r", out);
    CHECK(read.kind() == ErrorKind::kStorage);
    CHECK(Contains(read.message(), "power loss"));
    // The dead process's lock is gone with it.
    auto again = fs.Lock("lock");
    REQUIRE(again.ok());
    CHECK(Get(fs, "d/r") == "R");
  }
}

TEST_CASE("MemFs: a Lock waiting at a power loss wakes and fails") {
  MemFs fs;
  auto held = fs.Lock("lock");
  REQUIRE(held.ok());
  Status waited;
  std::thread other([&] { waited = fs.Lock("lock").status(); });
  while (fs.LockWaitersForTest() == 0) std::this_thread::yield();
  fs.DropUnsynced();
  other.join();
  CHECK(waited.kind() == ErrorKind::kStorage);
  CHECK(Contains(waited.message(), "'lock'"));
  CHECK(fs.LockWaitersForTest() == 0);
}

TEST_CASE("MemFs: every change gives a new identity; inode numbers are never reused") {
  MemFs fs;
  Put(fs, "f", "abc");
  auto before = fs.Stat("f");
  REQUIRE(before.ok());
  auto dir_before = fs.Stat("");
  {
    auto f = fs.OpenRandomAccess("f");
    REQUIRE(f.ok());
    REQUIRE((*f)->WriteAt(0, "xyz").ok());  // same size
  }
  auto after = fs.Stat("f");
  CHECK(after->size == before->size);
  CHECK(after->mtime_ns > before->mtime_ns);
  CHECK(after->inode == before->inode);
  CHECK(fs.Stat("")->mtime_ns == dir_before->mtime_ns);  // no entry changed
  REQUIRE(fs.Rename("f", "g").ok());
  CHECK(fs.Stat("g")->mtime_ns == after->mtime_ns);  // a rename leaves the file as it is
  CHECK(fs.Stat("")->mtime_ns > dir_before->mtime_ns);
  REQUIRE(fs.Remove("g").ok());
  Put(fs, "f", "abc");
  CHECK(fs.Stat("f")->inode != before->inode);
  CHECK(*fs.LinkCount("f") == 1);
  REQUIRE(fs.Link("f", "f2").ok());
  CHECK(*fs.LinkCount("f") == 2);
  CHECK(*fs.LinkCount("") == 1);
  CHECK(fs.LinkCount("missing").status().Is(std::errc::no_such_file_or_directory));
}

TEST_CASE("MemFs: Clone copies contents and what a power loss would keep, not handles or locks") {
  MemFs fs;
  PutSynced(fs, "f", "F");
  REQUIRE(fs.SyncDir("").ok());
  Put(fs, "g", "G");
  auto lock = fs.Lock("lock");
  REQUIRE(lock.ok());
  auto open = fs.Open("g");
  REQUIRE(open.ok());
  REQUIRE(fs.Remove("g").ok());  // alive only through `open`
  MemFs copy = fs.Clone();
  CHECK(copy.OpsSinceBarrier() == fs.OpsSinceBarrier());
  CHECK(copy.BootId() == fs.BootId());
  CHECK(DumpTree(copy) == DumpTree(fs));
  auto copy_lock = copy.Lock("lock");  // not held in the copy
  CHECK(copy_lock.ok());
  Put(copy, "h", "H");
  CHECK_FALSE(Exists(fs, "h"));
  copy.DropUnsynced();
  CHECK(DumpTree(copy) == "f = \"F\"\n");
  CHECK(DumpTree(fs) == "f = \"F\"\nlock = \"\"\n");
  CHECK(folio::testing::ReadAll(**open) == "G");
}

TEST_CASE("MemFs: ImportTree copies a real tree and DumpTree shows it") {
  TempDir dir;
  std::filesystem::create_directories(dir / "a/b");
  folio::testing::WriteFile(dir / "a/b/f.txt", "line\n\"q\"\x01");
  folio::testing::WriteFile(dir / "big", std::string(100, 'z'));
  std::filesystem::create_symlink("a", dir / "link");
  MemFs fs;
  REQUIRE(fs.MakeDir("in").ok());
  REQUIRE(ImportTree(fs, dir.path(), "in").ok());
  CHECK(fs.OpsSinceBarrier() == 0);
  CHECK(DumpTree(fs) ==
        "in/\n"
        "in/a/\n"
        "in/a/b/\n"
        "in/a/b/f.txt = \"line\\n\\\"q\\\"\\x01\"\n"
        "in/big = \"" + std::string(64, 'z') + "...\" (100 bytes)\n"
        "in/link@\n");
  CHECK(AfterDropping(fs) == DumpTree(fs));  // imported durable
  CHECK(DumpTree(fs, "in/a") == "in/a/b/\nin/a/b/f.txt = \"line\\n\\\"q\\\"\\x01\"\n");
  MemFs other;
  Status missing = ImportTree(other, dir / "missing");
  CHECK(missing.kind() == ErrorKind::kStorage);
  CHECK(Contains(missing.message(), dir / "missing"));
}
