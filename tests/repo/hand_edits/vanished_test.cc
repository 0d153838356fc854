// Folders removed or moved by hand (docs/STORAGE.md §9): every object of a folder tree
// removed with `rm -r` is one "deleted" event (its own type), recorded once, whichever
// way it is noticed, however many processes notice it, and also when it happened while
// no Folio ran (the folder's marker in its parent tells the first listing); a folder
// moved by hand keeps its id and is one "updated" event.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "folio/fsck.h"
#include "storage/ids.h"
#include "storage/layout.h"
#include "support/change_events.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

std::vector<std::string> TypedEvents(Repository& r, uint64_t after) {
  auto page = r.ReadChanges(after + 1, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) out.push_back(e.type + " " + e.object_id + " " + e.type_id);
  std::sort(out.begin(), out.end());
  return out;
}

// A folder "gone" holding a document of a custom type, a checked-out document, an
// item and a subfolder with a document; "kept" beside it. A document's deletion names
// each of its objects the change log named (its version, its working copy).
struct Tree {
  ObjectData gone, sub, memo, plain, item, deep, kept, kept_doc;
  std::vector<std::string> Deleted() const {
    std::vector<std::string> out = {"deleted " + gone.id + " cmis:folder",
                                    "deleted " + sub.id + " acme:box",
                                    "deleted " + memo.id + " acme:memo",
                                    "deleted " + plain.id + " cmis:document",
                                    "deleted " + storage::PwcId(plain.series_id) + " cmis:document",
                                    "deleted " + item.id + " cmis:item",
                                    "deleted " + deep.id + " cmis:document"};
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::string> Ids() const {
    return {gone.id, sub.id, memo.series_id, memo.id, plain.series_id, item.id, deep.series_id};
  }
};

Tree MakeTree(RepoFixture& f) {
  Repository& r = *f.repo;
  REQUIRE(r.CreateType(Json{{"id", "acme:box"}, {"parentId", "cmis:folder"}, {"displayName", "box"}},
                       WriteCheck::Trusted()).ok());
  REQUIRE(r.CreateType(Json{{"id", "acme:memo"}, {"parentId", "cmis:document"}, {"displayName", "memo"}},
                       WriteCheck::Trusted()).ok());
  Tree t;
  t.gone = f.Folder(f.root, "gone");
  NewObject box;
  box.name = "sub";
  box.type_id = "acme:box";
  auto sub = r.CreateFolder(t.gone.id, box, "alice", WriteCheck::Trusted());
  REQUIRE(sub.ok());
  t.sub = *sub;
  NewObject memo;
  memo.name = "memo.txt";
  memo.type_id = "acme:memo";
  auto m = r.CreateDocument(t.gone.id, memo, ContentSource::FromBytes("m"), VersioningState::kMajor, "alice",
                            WriteCheck::Trusted());
  REQUIRE(m.ok());
  t.memo = *m;
  t.plain = f.Doc(t.gone.id, "plain.txt", "p");
  REQUIRE(r.CheckOut(t.plain.id, "alice", WriteCheck::Trusted()).ok());
  NewObject item;
  item.name = "card";
  item.type_id = "cmis:item";
  auto it = r.CreateItem(t.gone.id, item, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(it.ok(), it.status().ToString());
  t.item = *it;
  t.deep = f.Doc(t.sub.id, "deep.txt", "d");
  t.kept = f.Folder(f.root, "kept");
  t.kept_doc = f.Doc(t.kept.id, "k.txt", "k");
  return t;
}

void CheckGone(Repository& r, const Tree& t) {
  for (const std::string& id : t.Ids()) {
    CAPTURE(id);
    CHECK(r.GetObject(id).status().kind() == ErrorKind::kObjectNotFound);
  }
  CHECK(r.GetObject(t.kept_doc.id).ok());
  CHECK(r.GetObjectByPath("kept/k.txt").ok());
  auto out = r.GetCheckedOut("");
  REQUIRE(out.ok());
  CHECK(out->empty());
}

TEST_CASE("Vanished: a folder tree removed by hand is one deleted event per object, once") {
  RepoFixture f;
  Repository& r = *f.repo;
  const Tree t = MakeTree(f);
  REQUIRE(r.GetChildren(f.root, 0, 100).ok());  // this process lists the root: it knows "gone"
  const uint64_t mark = *r.LatestChangeToken();
  std::filesystem::remove_all(f.RepoPath("gone"));

  SUBCASE("noticed by a listing of its parent") {
    auto page = r.GetChildren(f.root, 0, 100);
    REQUIRE(page.ok());
    CHECK(page->objects.size() == 1);
    CHECK(TypedEvents(r, mark) == t.Deleted());
  }
  SUBCASE("noticed by a lookup of a path below it") {
    CHECK(r.GetObjectByPath("gone/sub/deep.txt").status().kind() == ErrorKind::kObjectNotFound);
    CHECK(TypedEvents(r, mark) == t.Deleted());
  }
  SUBCASE("noticed by a lookup of an id that was below it") {
    CHECK(r.GetObject(t.deep.id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(TypedEvents(r, mark) == t.Deleted());
  }
  // Seen again, every way there is: nothing more.
  CheckGone(r, t);
  CHECK(r.GetObjectByPath("gone").status().kind() == ErrorKind::kObjectNotFound);
  REQUIRE(r.GetChildren(f.root, 0, 100).ok());
  CHECK(TypedEvents(r, mark).size() == t.Deleted().size());
  for (const std::string& id : t.Ids()) {
    CHECK_FALSE(f.Has(".folio/index/" + id.substr(id.size() - 2) + "/" + id + ".json"));
  }
  // A restart: nothing more either.
  f.repo.reset();
  auto again = Repository::Open(f.fs(), "demo/main");
  REQUIRE(again.ok());
  CheckGone(**again, t);
  CHECK(TypedEvents(**again, mark).size() == t.Deleted().size());
}

TEST_CASE("Vanished: two processes noticing the same removal record it once") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  DemoMain other = f.SecondProcess();
  std::filesystem::remove_all(f.RepoPath("gone"));
  CHECK(other.repo->GetObject(t.gone.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.memo.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.gone.id).status().kind() == ErrorKind::kObjectNotFound);
  CheckGone(*f.repo, t);
  CheckGone(*other.repo, t);
  CHECK(TypedEvents(*f.repo, mark) == t.Deleted());
  CHECK(TypedEvents(*other.repo, mark) == t.Deleted());
}

TEST_CASE("Vanished: a removal by hand among many objects is recorded in batches, all of it") {
  RepoFixture f;
  Repository& r = *f.repo;
  const ObjectData big = f.Folder(f.root, "big");
  std::vector<std::string> expected = {"deleted " + big.id + " cmis:folder"};
  // More files than one change takes (kAdoptionBatch): adopted, then removed.
  std::filesystem::create_directories(f.RepoPath("big/inner"));
  for (int i = 0; i < 1100; ++i) {
    std::ofstream(f.RepoPath("big/inner/f" + std::to_string(i) + ".txt")) << i;
  }
  auto inner = r.GetObjectByPath("big/inner");
  REQUIRE(inner.ok());
  expected.push_back("deleted " + inner->id + " cmis:folder");
  for (uint64_t skip = 0;; skip += 500) {
    auto page = r.GetChildren(inner->id, skip, 500);
    REQUIRE(page.ok());
    for (const ObjectData& d : page->objects) expected.push_back("deleted " + d.id + " cmis:document");
    if (!page->has_more) break;
  }
  REQUIRE(expected.size() == 1102);
  std::sort(expected.begin(), expected.end());
  const uint64_t mark = *r.LatestChangeToken();
  std::filesystem::remove_all(f.RepoPath("big"));
  CHECK(r.GetObject(big.id).status().kind() == ErrorKind::kObjectNotFound);
  auto page = r.ReadChanges(mark + 1, 2000);
  REQUIRE(page.ok());
  std::vector<std::string> got;
  for (const ChangeEventInfo& e : page->events) got.push_back(e.type + " " + e.object_id + " " + e.type_id);
  // The folder that was looked up comes last: an interrupted sweep resumes on its next lookup.
  REQUIRE_FALSE(got.empty());
  CHECK(got.back() == "deleted " + big.id + " cmis:folder");
  std::sort(got.begin(), got.end());
  CHECK(got == expected);
}

TEST_CASE("Vanished: a folder moved or renamed by hand keeps its id and everything in it") {
  RepoFixture f;
  Repository& r = *f.repo;
  const Tree t = MakeTree(f);
  REQUIRE(r.GetChildren(f.root, 0, 100).ok());
  const uint64_t mark = *r.LatestChangeToken();
  std::string where;
  SUBCASE("renamed, noticed by a listing") {
    std::filesystem::rename(f.RepoPath("gone"), f.RepoPath("renamed"));
    where = "renamed";
    auto page = r.GetChildren(f.root, 0, 100);
    REQUIRE(page.ok());
    CHECK(page->objects.size() == 2);
  }
  SUBCASE("moved into another folder, noticed by its id") {
    std::filesystem::rename(f.RepoPath("gone"), f.RepoPath("kept/moved"));
    where = "kept/moved";
    CHECK(r.GetObject(t.gone.id).ok());
  }
  CHECK(TypedEvents(r, mark) == std::vector<std::string>{"updated " + t.gone.id + " cmis:folder"});
  auto folder = r.GetObject(t.gone.id);
  REQUIRE(folder.ok());
  CHECK(folder->path == where);
  auto deep = r.GetObject(t.deep.id);
  REQUIRE_MESSAGE(deep.ok(), deep.status().ToString());
  CHECK(deep->path == where + "/sub/deep.txt");
  CHECK(r.GetObject(t.item.id).ok());
  CHECK(r.GetObjectByPath(where + "/memo.txt")->series_id == t.memo.series_id);
  REQUIRE(r.GetChildren(f.root, 0, 100).ok());
  CHECK(TypedEvents(r, mark).size() == 1);
}

std::string MarkerOf(const std::string& id) { return id + "\n"; }

TEST_CASE("Vanished: a folder tree removed by hand while no Folio ran is noticed by the first listing of its parent") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::string parent_id, removed;
  std::vector<std::string> want;
  SUBCASE("a folder of the root") {
    parent_id = f.root;
    removed = "gone";
    want = t.Deleted();
  }
  SUBCASE("a folder below another") {
    parent_id = t.gone.id;
    removed = "gone/sub";
    want = {"deleted " + t.sub.id + " acme:box", "deleted " + t.deep.id + " cmis:document"};
    std::sort(want.begin(), want.end());
  }
  f.Restart([&] { std::filesystem::remove_all(f.RepoPath(removed)); });
  // Nothing looked up yet: a listing of the parent is all it takes.
  auto page = f.repo->GetChildren(parent_id, 0, 100);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(TypedEvents(*f.repo, mark) == want);
  const std::string parent = storage::ParentPath(removed);
  CHECK_FALSE(f.Has(storage::JoinPath(parent, ".folio/folders/" + storage::BaseName(removed))));
  CHECK(f.repo->GetObject(t.deep.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.kept_doc.id).ok());
  // Listed again, by this process and after another restart: nothing more.
  REQUIRE(f.repo->GetChildren(parent_id, 0, 100).ok());
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  if (parent_id != f.root) REQUIRE(f.repo->GetChildren(parent_id, 0, 100).ok());
  CHECK(TypedEvents(*f.repo, mark) == want);
  CHECK(f.Visible(".folio/folders/kept") == MarkerOf(t.kept.id));
}

TEST_CASE("Vanished: a folder tree removed by hand while no Folio ran is noticed by a lookup of a path below it") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  f.Restart([&] { std::filesystem::remove_all(f.RepoPath("gone")); });
  CHECK(f.repo->GetObjectByPath("gone/sub/deep.txt").status().kind() == ErrorKind::kObjectNotFound);
  CHECK(TypedEvents(*f.repo, mark) == t.Deleted());
  CHECK_FALSE(f.Has(".folio/folders/gone"));
}

TEST_CASE("Vanished: a folder removed by hand and made again under its name is its tree's deletion and a new folder") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  SUBCASE("while Folio runs") {
    std::filesystem::remove_all(f.RepoPath("gone"));
    std::filesystem::create_directories(f.RepoPath("gone"));
  }
  SUBCASE("while no Folio runs") {
    f.Restart([&] {
      std::filesystem::remove_all(f.RepoPath("gone"));
      std::filesystem::create_directories(f.RepoPath("gone"));
    });
  }
  auto page = f.repo->GetChildren(f.root, 0, 100);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  auto made = f.repo->GetObjectByPath("gone");
  REQUIRE(made.ok());
  CHECK(made->id != t.gone.id);
  std::vector<std::string> want = t.Deleted();
  want.push_back("created " + made->id + " cmis:folder");
  std::sort(want.begin(), want.end());
  CHECK(TypedEvents(*f.repo, mark) == want);
  CHECK(f.Visible(".folio/folders/gone") == MarkerOf(made->id));
  CheckGone(*f.repo, t);
}

TEST_CASE("Vanished: a folder moved by hand while no Folio ran keeps its id, noticed by the first listing") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::string where;
  SUBCASE("renamed") {
    where = "renamed";
  }
  SUBCASE("moved into another folder") {
    where = "kept/moved";
  }
  f.Restart([&] { std::filesystem::rename(f.RepoPath("gone"), f.RepoPath(where)); });
  auto page = f.repo->GetChildren(f.root, 0, 100);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(TypedEvents(*f.repo, mark) == std::vector<std::string>{"updated " + t.gone.id + " cmis:folder"});
  // Its marker moved with it; what it holds kept theirs.
  CHECK_FALSE(f.Has(".folio/folders/gone"));
  CHECK(f.Visible(storage::JoinPath(storage::ParentPath(where), ".folio/folders/" + storage::BaseName(where))) ==
        MarkerOf(t.gone.id));
  CHECK(f.Visible(where + "/.folio/folders/sub") == MarkerOf(t.sub.id));
  auto deep = f.repo->GetObject(t.deep.id);
  REQUIRE_MESSAGE(deep.ok(), deep.status().ToString());
  CHECK(deep->path == where + "/sub/deep.txt");
  CHECK(f.repo->GetObject(t.gone.id)->path == where);
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  REQUIRE(f.repo->GetChildren(t.kept.id, 0, 100).ok());
  CHECK(TypedEvents(*f.repo, mark).size() == 1);
}

TEST_CASE("Vanished: a read-only repository records nothing for a folder removed by hand") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  auto ro = Repository::Open(f.fs(), "demo/main", true);
  REQUIRE(ro.ok());
  std::filesystem::remove_all(f.RepoPath("gone"));
  CHECK((*ro)->GetObject(t.deep.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(*f.repo->LatestChangeToken() == mark);
  CHECK(f.Has(".folio/index/" + t.deep.series_id.substr(t.deep.series_id.size() - 2) + "/" + t.deep.series_id +
              ".json"));
}

TEST_CASE("Vanished: a folder moved by hand to the path its index entry last recorded gets its new parent") {
  // Renaming its parent rewrote only the parent's entry, so the folder's entry still
  // holds the old path (a hint). Moved by hand to exactly that path, under a new folder
  // of the old name, the folder is found there by a lookup, though its parent is
  // another folder now: the listing of its old parent, whose marker names it, takes the
  // move in (one "updated" event, its entry and marker at the new place).
  RepoFixture f;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData x = f.Folder(a.id, "x");
  auto renamed = f.repo->UpdateProperties(a.id, Json{{"cmis:name", "c"}}, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(renamed.ok(), renamed.status().ToString());
  const ObjectData a2 = f.Folder(f.root, "a");
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::filesystem::rename(f.RepoPath("c/x"), f.RepoPath("a/x"));
  for (const std::string& id : {f.root, a.id, a2.id}) REQUIRE(f.repo->GetChildren(id, 0, 100).ok());
  CHECK(TypedEvents(*f.repo, mark) == std::vector<std::string>{"updated " + x.id + " cmis:folder"});
  auto moved = f.repo->GetObject(x.id);
  REQUIRE_MESSAGE(moved.ok(), moved.status().ToString());
  CHECK(moved->path == "a/x");
  CHECK_FALSE(f.Has("c/.folio/folders/x"));
  CHECK(f.Visible("a/.folio/folders/x") == MarkerOf(x.id));
  REQUIRE(f.repo->Checkpoint().ok());
  auto report = RunFsck(f.dir.path(), {});
  REQUIRE(report.ok());
  for (const Finding& finding : report->findings) CHECK_MESSAGE(finding.severity == Severity::kNote, finding.message);
}

}  // namespace
}  // namespace folio::testing
