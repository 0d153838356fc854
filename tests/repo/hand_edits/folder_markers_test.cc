// Subfolder markers (docs/STORAGE.md §3): every change that makes a folder appear under
// a name writes `<parent>/.folio/folders/<name>` holding its id, every change that
// takes it away removes it; data written before markers gets them from its first
// listing; a stale marker is removed once; a read-only repository writes none.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli/folio_run.h"
#include "support/change_events.h"
#include "support/repo_fixture.h"
#include "support/tree_snapshot.h"

namespace folio::testing {
namespace {

std::string MarkerOf(const std::string& id) { return id + "\n"; }

// Every `.folio/folders` directory of the repository removed, as in data written by a
// Folio before markers.
void RemoveAllMarkers(RepoFixture& f) {
  std::vector<std::filesystem::path> dirs;
  for (auto it = std::filesystem::recursive_directory_iterator(f.RepoPath());
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "folders" && it->path().parent_path().filename() == ".folio") {
      dirs.push_back(it->path());
    }
  }
  for (const auto& d : dirs) std::filesystem::remove_all(d);
}

TEST_CASE_TEMPLATE("FolderMarkers: create, rename, move, delete and deleteTree keep a folder's marker in its parent",
                   F, RepoFixture, MemRepoFixture) {
  F f;
  Repository& r = *f.repo;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData b = f.Folder(a.id, "b");
  CHECK(f.Visible(".folio/folders/a") == MarkerOf(a.id));
  CHECK(f.Visible("a/.folio/folders/b") == MarkerOf(b.id));
  // Renamed: the old name's marker goes, the new one holds the same id.
  REQUIRE(r.UpdateProperties(a.id, Json{{"cmis:name", "c"}}, "alice", WriteCheck::Trusted()).ok());
  CHECK_FALSE(f.Has(".folio/folders/a"));
  CHECK(f.Visible(".folio/folders/c") == MarkerOf(a.id));
  CHECK(f.Visible("c/.folio/folders/b") == MarkerOf(b.id));
  // Moved: from the old parent to the new one.
  REQUIRE(r.Move(b.id, f.root, a.id, "alice", WriteCheck::Trusted()).ok());
  CHECK_FALSE(f.Has("c/.folio/folders/b"));
  CHECK(f.Visible(".folio/folders/b") == MarkerOf(b.id));
  // Renaming a document or changing a folder's other properties leaves markers alone.
  const ObjectData doc = f.Doc(a.id, "x.txt", "x");
  REQUIRE(r.UpdateProperties(doc.id, Json{{"cmis:name", "y.txt"}}, "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.UpdateProperties(a.id, Json{{"cmis:description", "d"}}, "alice", WriteCheck::Trusted()).ok());
  CHECK(f.Visible(".folio/folders/c") == MarkerOf(a.id));
  // Deleted: its marker goes with it.
  REQUIRE(r.Delete(b.id, true, WriteCheck::Trusted()).ok());
  CHECK_FALSE(f.Has(".folio/folders/b"));
  const ObjectData d = f.Folder(a.id, "d");
  f.Folder(d.id, "e");
  REQUIRE(r.DeleteTree(a.id, WriteCheck::Trusted()).ok());
  CHECK_FALSE(f.Has(".folio/folders/c"));
  CHECK_FALSE(f.Has("c"));
  // A folder made again under a name that was used holds the new id.
  const ObjectData again = f.Folder(f.root, "b");
  CHECK(f.Visible(".folio/folders/b") == MarkerOf(again.id));
}

TEST_CASE("FolderMarkers: a folder made by hand gets its marker when it is adopted") {
  RepoFixture f;
  std::filesystem::create_directories(f.RepoPath("hand/deeper"));
  auto deeper = f.repo->GetObjectByPath("hand/deeper");
  REQUIRE_MESSAGE(deeper.ok(), deeper.status().ToString());
  auto hand = f.repo->GetObjectByPath("hand");
  REQUIRE(hand.ok());
  CHECK(f.Visible(".folio/folders/hand") == MarkerOf(hand->id));
  CHECK(f.Visible("hand/.folio/folders/deeper") == MarkerOf(deeper->id));
  // Adopted by a listing of its parent, too.
  std::filesystem::create_directories(f.RepoPath("listed"));
  auto page = f.repo->GetChildren(f.root, 0, 100);
  REQUIRE(page.ok());
  auto listed = f.repo->GetObjectByPath("listed");
  REQUIRE(listed.ok());
  CHECK(f.Visible(".folio/folders/listed") == MarkerOf(listed->id));
}

TEST_CASE("FolderMarkers: data written before markers gets them from its first listing, then removals are noticed") {
  RepoFixture f;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData b = f.Folder(f.root, "b");
  const ObjectData c = f.Folder(b.id, "c");
  const ObjectData doc = f.Doc(c.id, "doc.txt", "x");
  f.Restart([&] {
    RemoveAllMarkers(f);
    // A directory made by hand beside them (adopted, with its marker, when built).
    std::filesystem::create_directories(f.RepoPath("hand"));
  });
  const uint64_t mark = *f.repo->LatestChangeToken();
  CHECK_FALSE(f.Has(".folio/folders"));
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(f.Visible(".folio/folders/a") == MarkerOf(a.id));
  CHECK(f.Visible(".folio/folders/b") == MarkerOf(b.id));
  CHECK_FALSE(f.Has("b/.folio/folders/c"));  // b's own listing writes those
  auto hand = f.repo->GetObjectByPath("hand");
  REQUIRE(hand.ok());
  CHECK(f.Visible(".folio/folders/hand") == MarkerOf(hand->id));
  REQUIRE(f.repo->GetChildren(b.id, 0, 100).ok());
  CHECK(f.Visible("b/.folio/folders/c") == MarkerOf(c.id));
  // Writing markers records no event (only the adoption of "hand" does).
  CHECK(EventsAfter(*f.repo, mark) == std::vector<std::string>{"created " + hand->id});
  // From now on a removal while no Folio runs is noticed by the listing.
  f.Restart([&] { std::filesystem::remove_all(f.RepoPath("b")); });
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  auto events = EventsAfter(*f.repo, mark + 1);
  std::sort(events.begin(), events.end());
  std::vector<std::string> want = {"deleted " + b.id, "deleted " + c.id, "deleted " + doc.id};
  std::sort(want.begin(), want.end());
  CHECK(events == want);
}

TEST_CASE("FolderMarkers: a stale marker is removed by the listing that finds it, once") {
  RepoFixture f;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData b = f.Folder(a.id, "b");
  const uint64_t mark = *f.repo->LatestChangeToken();
  SUBCASE("its id is a folder elsewhere") {
    WriteFile(f.RepoPath(".folio/folders/ghost"), MarkerOf(b.id));
  }
  SUBCASE("its id is not indexed") {
    WriteFile(f.RepoPath(".folio/folders/ghost"), MarkerOf("fnotindexed000000"));
  }
  SUBCASE("it holds no id") {
    WriteFile(f.RepoPath(".folio/folders/ghost"), "not an id at all\n");
  }
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK_FALSE(f.Has(".folio/folders/ghost"));
  CHECK(f.Visible(".folio/folders/a") == MarkerOf(a.id));
  CHECK(f.Visible("a/.folio/folders/b") == MarkerOf(b.id));
  CHECK(f.repo->GetObject(b.id).ok());
  CHECK(EventsAfter(*f.repo, mark).empty());
}

TEST_CASE("FolderMarkers: a read-only repository writes nothing for missing, stale or orphaned markers") {
  RepoFixture f;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData b = f.Folder(a.id, "b");
  const ObjectData gone = f.Folder(f.root, "gone");
  f.Doc(gone.id, "doc.txt", "x");
  const uint64_t mark = *f.repo->LatestChangeToken();
  f.repo.reset();
  f.store.reset();
  std::filesystem::remove_all(f.RepoPath("a/.folio/folders"));                   // missing
  WriteFile(f.RepoPath(".folio/folders/ghost"), MarkerOf("fnotindexed000000"));  // stale
  std::filesystem::remove_all(f.RepoPath("gone"));                               // orphaned
  std::filesystem::create_directories(f.RepoPath("hand"));                       // made by hand
  const std::string before = TreeSnapshot(f.dir.path());
  {
    auto store = Store::Open(f.dir.path(), StoreOptions{.read_only = true, .create = false});
    REQUIRE(store.ok());
    auto repo = (*store)->GetRepository("demo", "main");
    REQUIRE(repo.ok());
    for (int i = 0; i < 2; ++i) {
      auto root = (*repo)->GetChildren((*repo)->info().root_folder_id, 0, 100);
      REQUIRE_MESSAGE(root.ok(), root.status().ToString());
      CHECK(root->objects.size() == 2);  // a, hand
      REQUIRE((*repo)->GetChildren(a.id, 0, 100).ok());
      CHECK((*repo)->GetObjectByPath("a/b")->id == b.id);
    }
    CHECK(*(*repo)->LatestChangeToken() == mark);
  }
  CHECK(TreeSnapshot(f.dir.path()) == before);
  // folio inspect, the process, on the same directory.
  const Run inspect = Folio("inspect " + Quote(f.dir.path()));
  CHECK_MESSAGE(inspect.code == 0, inspect.err);
  CHECK_MESSAGE(inspect.out.find("hand") != std::string::npos, inspect.out);
  CHECK(TreeSnapshot(f.dir.path()) == before);
}

}  // namespace
}  // namespace folio::testing
