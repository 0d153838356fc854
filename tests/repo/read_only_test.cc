// A read-only repository (serve --read-only, inspect) and a repository on a read-only
// filesystem: files and folders made by hand are adopted in memory only, reads are
// served, writes are refused, and not one byte of the data directory changes.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "folio/store.h"
#include "storage/mem_fs.h"
#include "storage/overlay_fs.h"
#include "support/faulty_fs.h"
#include "support/repo_fixture.h"
#include "support/tree_snapshot.h"

using namespace folio;
using folio::testing::ContentOf;
using folio::testing::FaultyFs;
using folio::testing::RepoFixture;
using folio::testing::TreeSnapshot;
using folio::testing::WriteFile;

namespace {

// A repository with a document, then files made by hand: a folder with a file, an
// edit of the document's file (a new inode, as editors make), and a file re-stamped.
struct HandMadeFixture : RepoFixture {
  ObjectData edited, touched;
  HandMadeFixture() {
    edited = Doc(root, "edited.txt", "before");
    touched = Doc(root, "touched.txt", "same bytes");
    REQUIRE(repo->Checkpoint().ok());  // the commit log empty: what a stopped server leaves
    std::filesystem::create_directories(RepoPath("Handmade/deeper"));
    WriteFile(RepoPath("Handmade/new.txt"), "made by hand");
    WriteFile(RepoPath("Handmade/deeper/x.bin"), std::string("\0\1\2", 3));
    std::filesystem::remove(RepoPath("edited.txt"));
    WriteFile(RepoPath("edited.txt"), "after, longer");
    std::filesystem::last_write_time(RepoPath("touched.txt"),
                                     std::filesystem::file_time_type::clock::now() + std::chrono::hours(1));
  }
};

// Everything a reader may ask of the hand-made files, each twice (the second time from
// what the first adopted in memory).
void ReadEverything(Repository& repo, const ObjectData& edited, const ObjectData& touched) {
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    auto page = repo.GetChildren(repo.info().root_folder_id, 0, 10);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    REQUIRE(page->objects.size() == 3);
    CHECK(page->objects[0].name == "Handmade");
    auto hand = repo.GetObjectByPath("Handmade/new.txt");
    REQUIRE_MESSAGE(hand.ok(), hand.status().ToString());
    CHECK(hand->properties["cmis:versionLabel"] == "1.0");
    CHECK(ContentOf(repo, hand->id) == "made by hand");
    auto by_id = repo.GetObject(hand->id);  // the id index, in memory too
    REQUIRE_MESSAGE(by_id.ok(), by_id.status().ToString());
    CHECK(by_id->name == "new.txt");
    auto inner = repo.GetChildren(page->objects[0].id, 0, 10);
    REQUIRE_MESSAGE(inner.ok(), inner.status().ToString());
    CHECK(inner->objects.size() == 2);
    auto deep = repo.GetObjectByPath("Handmade/deeper/x.bin");
    REQUIRE_MESSAGE(deep.ok(), deep.status().ToString());
    CHECK(ContentOf(repo, deep->id) == std::string("\0\1\2", 3));
    auto e = repo.GetObject(edited.series_id);
    REQUIRE_MESSAGE(e.ok(), e.status().ToString());
    CHECK(e->properties["cmis:contentStreamLength"] == 13);
    CHECK(ContentOf(repo, e->id) == "after, longer");
    auto t = repo.GetObject(touched.series_id);
    REQUIRE_MESSAGE(t.ok(), t.status().ToString());
    CHECK(t->properties["cmis:lastModificationDate"] == touched.properties["cmis:lastModificationDate"]);
    CHECK(ContentOf(repo, t->id) == "same bytes");
  }
}

}  // namespace

TEST_CASE("Read-only: files made by hand are adopted in memory; not one byte of the data directory changes") {
  HandMadeFixture f;
  const std::string before = TreeSnapshot(f.dir.path());
  {
    auto store = Store::Open(f.dir.path(), StoreOptions{.read_only = true, .create = false});
    REQUIRE(store.ok());
    auto repo = (*store)->GetRepository("demo", "main");
    REQUIRE(repo.ok());
    ReadEverything(**repo, f.edited, f.touched);
    NewObject folder;
    folder.name = "refused";
    auto made = (*repo)->CreateFolder((*repo)->info().root_folder_id, folder, "alice", WriteCheck::Trusted());
    CHECK(made.status().kind() == ErrorKind::kPermissionDenied);
  }
  CHECK(TreeSnapshot(f.dir.path()) == before);
  // folio inspect, the process, on the same directory.
  const std::string cmd = std::string(FOLIO_BINARY) + " inspect " + f.dir.path() + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK(::pclose(p) == 0);
  CHECK_MESSAGE(out.find("new.txt") != std::string::npos, out);
  CHECK_MESSAGE(out.find("x.bin") != std::string::npos, out);
  CHECK(TreeSnapshot(f.dir.path()) == before);
}

TEST_CASE("Read-only filesystem: reads are served without --read-only; writes answer storage naming the cause") {
  HandMadeFixture f;
  storage::MemFs mem;
  REQUIRE(storage::ImportTree(mem, f.dir.path()).ok());
  // Every changing call fails as on a read-only mount (the lock file exists: EROFS
  // comes from opening it for writing; here from the first changing call).
  FaultyFs ro(mem, FaultyFs::FailFrom(0, std::errc::read_only_file_system));
  auto repo = Repository::Open(ro, "demo/main", /*read_only=*/false);
  REQUIRE_MESSAGE(repo.ok(), repo.status().ToString());
  ReadEverything(**repo, f.edited, f.touched);
  NewObject folder;
  folder.name = "refused";
  auto made = (*repo)->CreateFolder((*repo)->info().root_folder_id, folder, "alice", WriteCheck::Trusted());
  REQUIRE(!made.ok());
  CHECK(made.status().kind() == ErrorKind::kStorage);
  CHECK(made.status().Is(std::errc::read_only_file_system));
  CHECK_MESSAGE(made.status().message().find("read-only") != std::string::npos, made.status().message());
  CHECK_MESSAGE(made.status().message().find("demo/main") != std::string::npos, made.status().message());
  Status del = (*repo)->Delete(f.edited.series_id, true, WriteCheck::Trusted());
  CHECK(del.kind() == ErrorKind::kStorage);
  CHECK(ro.calls() > 0);  // writes were tried, and none landed:
  CHECK(!Exists(mem, "demo/main/refused"));
  CHECK(ContentOf(**repo, f.edited.series_id) == "after, longer");
}

namespace {

// Sets the memory limit of every OverlayFs of the process for one test.
struct OverlayLimit {
  explicit OverlayLimit(uint64_t bytes) { storage::OverlayFs::SetMemoryLimit(bytes); }
  ~OverlayLimit() { storage::OverlayFs::SetMemoryLimit(storage::kOverlayMemoryLimit); }
};

}  // namespace

TEST_CASE("Read-only: memory for adoptions is bounded; past it a file made by hand answers storage, the rest is served") {
  RepoFixture f;
  const ObjectData doc = f.Doc(f.root, "kept.txt", "adopted long ago");
  REQUIRE(f.repo->Checkpoint().ok());
  std::filesystem::create_directories(f.RepoPath("Handmade"));
  constexpr int kFiles = 20;
  auto name = [](int i) { return "f" + std::to_string(100 + i) + ".txt"; };
  for (int i = 0; i < kFiles; ++i) WriteFile(f.RepoPath("Handmade/" + name(i)), "by hand " + std::to_string(i));
  const std::string before = TreeSnapshot(f.dir.path());
  const uint64_t base = storage::OverlayFs::MemoryUsedByAll();
  auto open_ro = [&] {
    auto store = Store::Open(f.dir.path(), StoreOptions{.read_only = true, .create = false});
    REQUIRE_MESSAGE(store.ok(), store.status().ToString());
    return std::move(*store);
  };
  // What the folder and its 20 files cost, adopted together without a limit.
  uint64_t folder_cost = 0, batch_cost = 0;
  {
    auto store = open_ro();
    auto repo = store->GetRepository("demo", "main");
    REQUIRE(repo.ok());
    REQUIRE((*repo)->GetObjectByPath("Handmade").ok());
    folder_cost = storage::OverlayFs::MemoryUsedByAll() - base;
    REQUIRE((*repo)->GetObjectByPath("Handmade/" + name(0)).ok());
    batch_cost = storage::OverlayFs::MemoryUsedByAll() - base - folder_cost;
  }
  CHECK(storage::OverlayFs::MemoryUsedByAll() == base);
  REQUIRE(batch_cost > 0);
  // Room for the folder and about half the batch: the batch's one table does not fit,
  // tables of one file each do, a few (docs/STORAGE.md §4.1).
  const uint64_t limit = base + folder_cost + batch_cost / 2;
  OverlayLimit guard(limit);
  auto store = open_ro();
  auto repo = store->GetRepository("demo", "main");
  REQUIRE(repo.ok());
  int served = 0, refused = 0;
  for (int i = 0; i < kFiles; ++i) {
    CAPTURE(i);
    auto o = (*repo)->GetObjectByPath("Handmade/" + name(i));
    CHECK(storage::OverlayFs::MemoryUsedByAll() <= limit);
    if (o.ok()) {
      CHECK(refused == 0);  // once full, it stays full
      CHECK(ContentOf(**repo, o->id) == "by hand " + std::to_string(i));
      ++served;
      continue;
    }
    ++refused;
    CHECK(o.status().kind() == ErrorKind::kStorage);
    CHECK(o.status().Is(std::errc::not_enough_memory));
    CHECK_MESSAGE(o.status().message().find("read-only repository 'demo/main'") != std::string::npos,
                  o.status().message());
    CHECK_MESSAGE(o.status().message().find("that a read-only process keeps for all its repositories") != std::string::npos,
                  o.status().message());
  }
  // The batch did not fit, single files did, until the limit.
  CHECK(served >= 2);
  CHECK(served < kFiles);
  CHECK(refused == kFiles - served);
  // What was adopted, and what needed no adoption, is still served; the folder lists
  // the adopted files and says which it could not take.
  auto kept = (*repo)->GetObject(doc.series_id);
  REQUIRE(kept.ok());
  CHECK(ContentOf(**repo, kept->id) == "adopted long ago");
  auto hand = (*repo)->GetObjectByPath("Handmade");
  REQUIRE(hand.ok());
  auto page = (*repo)->GetChildren(hand->id, 0, 100);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(page->objects.size() == static_cast<size_t>(served));
  CHECK(page->damaged.size() == static_cast<size_t>(refused));
  CHECK(storage::OverlayFs::MemoryUsedByAll() <= limit);
  CHECK(TreeSnapshot(f.dir.path()) == before);
}
