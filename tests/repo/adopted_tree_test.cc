// Adopted documents (docs/STORAGE.md §4.1) of a folder tree that goes: deleted through
// Folio (deleteTree), or removed by hand (`rm -r`, §9). Each adopted document is one
// "deleted" event naming its series id, recorded once, and its folder's adoption
// tables (named by the folder's id, outside the folder) go with the last of them.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "folio/repository.h"
#include "repo/hand_edits/adoption_table.h"
#include "storage/atomic_write.h"
#include "storage/ids.h"
#include "storage/json_file.h"
#include "storage/layout.h"
#include "storage/mem_fs.h"
#include "support/faulty_fs.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

const storage::RepoLayout kLayout("demo/main");

std::string Zeros(size_t i, size_t width) {
  std::string s = std::to_string(i);
  return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

// Documents adopted in the folder `folder` (repository-relative, id `folder_id`) as
// adoption writes them: a file each (holding its name), and tables `first_table`,
// `first_table` + 1, ... of at most `per_table` entries, in the order of `names`.
// Returns their series ids, in the same order.
std::vector<std::string> AdoptByHand(Fs& fs, const std::string& folder, const std::string& folder_id,
                                     const std::vector<std::string>& names, size_t per_table = 1000,
                                     uint64_t first_table = 1) {
  std::vector<std::string> ids;
  REQUIRE(storage::EnsureDir(fs, kLayout.AdoptedDir()).ok());
  REQUIRE(storage::EnsureDir(fs, kLayout.AdoptedFolderDir(folder_id)).ok());
  repo::hand_edits::AdoptionTable table{folder_id, {}};
  uint64_t n = first_table;
  const auto flush = [&] {
    if (table.documents.empty()) return;
    REQUIRE(storage::WriteFileAtomically(fs, kLayout.AdoptionTable(folder_id, n++),
                                         repo::hand_edits::AdoptionTableText(table))
                .ok());
    table.documents.clear();
  };
  for (const std::string& name : names) {
    const std::string file = storage::JoinPath(kLayout.base(), storage::JoinPath(folder, name));
    REQUIRE(storage::WriteFileAtomically(fs, file, name).ok());
    auto st = fs.Stat(file);
    REQUIRE(st.ok());
    repo::hand_edits::AdoptedEntry e;
    e.series_id = storage::NewAdoptedSeriesId(folder_id);
    e.mime_type = "text/plain";
    e.created_ms = e.modified_ms = st->mtime_ns / 1000000;
    e.file_size = st->size;
    e.file_mtime_ns = st->mtime_ns;
    e.file_inode = st->inode;
    ids.push_back(e.series_id);
    table.documents.emplace(name, e);
    if (table.documents.size() >= per_table) flush();
  }
  flush();
  return ids;
}

// Every event after token `after`: "type objectId typeId", in order.
std::vector<std::string> EventsSince(Repository& r, uint64_t after) {
  std::vector<std::string> out;
  for (uint64_t from = after + 1;;) {
    auto page = r.ReadChanges(from, 1000);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    for (const ChangeEventInfo& e : page->events) {
      out.push_back(e.type + " " + e.object_id + " " + e.type_id);
      from = e.token + 1;
    }
    if (!page->has_more || page->events.empty()) return out;
  }
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::string Deleted(const std::string& id, const std::string& type = "cmis:document") {
  return "deleted " + id + " " + type;
}

// The "deleted" event of the adopted document of series `series_id`: it names its one
// version, 1.0, as its "created" event did.
std::string DeletedAdopted(const std::string& series_id) { return Deleted(storage::VersionId(series_id, "1.0")); }

std::string TablesOf(const std::string& folder_id) { return ".folio/adopted/" + folder_id; }

// A folder "gone" holding a document made through Folio, three adopted documents (in
// two tables) and a subfolder "sub" with one adopted document; "kept" beside it, with
// an adopted document of its own.
struct Tree {
  ObjectData gone, sub, plain, kept;
  std::vector<std::string> gone_adopted, sub_adopted, kept_adopted;

  std::vector<std::string> Deleted() const {
    std::vector<std::string> out = {testing::Deleted(gone.id, "cmis:folder"), testing::Deleted(sub.id, "cmis:folder"),
                                    testing::Deleted(plain.id)};
    for (const std::string& id : gone_adopted) out.push_back(testing::DeletedAdopted(id));
    for (const std::string& id : sub_adopted) out.push_back(testing::DeletedAdopted(id));
    return Sorted(out);
  }
};

Tree MakeTree(RepoFixture& f) {
  Tree t;
  t.gone = f.Folder(f.root, "gone");
  t.sub = f.Folder(t.gone.id, "sub");
  t.plain = f.Doc(t.gone.id, "plain.txt", "p");
  t.kept = f.Folder(f.root, "kept");
  t.gone_adopted = AdoptByHand(f.fs(), "gone", t.gone.id, {"a.txt", "b.txt"});
  const auto c = AdoptByHand(f.fs(), "gone", t.gone.id, {"c.txt"}, 1000, 2);
  t.gone_adopted.push_back(c.front());
  t.sub_adopted = AdoptByHand(f.fs(), "gone/sub", t.sub.id, {"d.txt"});
  t.kept_adopted = AdoptByHand(f.fs(), "kept", t.kept.id, {"k.txt"});
  return t;
}

// What must be left after the tree of `t` is gone, however it went.
void CheckTreeGone(RepoFixture& f, const Tree& t) {
  CHECK_FALSE(f.Has(TablesOf(t.gone.id)));
  CHECK_FALSE(f.Has(TablesOf(t.sub.id)));
  CHECK(f.Has(TablesOf(t.kept.id) + "/1.json"));
  CHECK(f.Visible("kept/k.txt") == "k.txt");
  CHECK_FALSE(f.Has("gone"));
  CHECK(f.repo->GetObject(t.gone.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.sub.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.kept.id).ok());
}

TEST_CASE("Adopted: an id is found in whichever table holds it, unless a lower table has its name") {
  // A lookup by id goes to the table holding the id (a listing makes one per child),
  // and must still agree with the folder's listing: a name in two tables, which only a
  // hand edit makes, is the lowest table's document.
  RepoFixture f;
  const ObjectData two = f.Folder(f.root, "two");
  const auto first = AdoptByHand(f.fs(), "two", two.id, {"a.txt", "same.txt"});
  const auto second = AdoptByHand(f.fs(), "two", two.id, {"b.txt", "same.txt"}, 1000, 2);
  // A plain pair, not a structured binding: clang 14 cannot capture a binding in the
  // lambda REQUIRE_MESSAGE expands to.
  for (const auto& expected : std::vector<std::pair<std::string, std::string>>{
           {first[0], "a.txt"}, {second[0], "b.txt"}, {first[1], "same.txt"}}) {
    const std::string& id = expected.first;
    const std::string& name = expected.second;
    auto o = f.repo->GetObject(id);
    REQUIRE_MESSAGE(o.ok(), name << ": " << o.status().ToString());
    CHECK(o->name == name);
    CHECK(o->series_id == id);
  }
  CHECK(f.repo->GetObject(second[1]).status().kind() == ErrorKind::kObjectNotFound);
  auto page = f.repo->GetChildren(two.id, 0, 100);
  REQUIRE(page.ok());
  std::vector<std::string> ids;
  for (const ObjectData& o : page->objects) ids.push_back(o.series_id);
  CHECK(Sorted(ids) == Sorted({first[0], first[1], second[0]}));
}

TEST_CASE("Adopted tree: deleteTree records one deleted event per adopted document and removes the tables") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  auto failed = f.repo->DeleteTree(t.gone.id, WriteCheck::Trusted());
  REQUIRE_MESSAGE(failed.ok(), failed.status().ToString());
  CHECK(failed->empty());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == t.Deleted());
  CheckTreeGone(f, t);
  // Seen again, and after a restart: nothing more.
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(EventsSince(*f.repo, mark).size() == t.Deleted().size());
}

TEST_CASE("Adopted tree: deleteTree checks each adopted document as an object below the folder") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::map<std::string, std::string> below;  // id -> "type path acl-size"
  const std::string refused = t.sub_adopted.front();
  bool refuse = false;
  const WriteCheck check = [&](WriteRole role, const ObjectData& o) -> Status {
    if (role != WriteRole::kBelow) return OkStatus();
    below[o.id] = o.type_id + " " + o.path + " " + std::to_string(o.acl.size());
    if (refuse && o.id == refused) return PermissionDenied("no write on '" + o.path + "'");
    return OkStatus();
  };
  SUBCASE("refused: nothing is deleted") {
    refuse = true;
    auto failed = f.repo->DeleteTree(t.gone.id, check);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.status().kind() == ErrorKind::kPermissionDenied);
    CHECK(Contains(failed.status().message(), "gone/sub/d.txt"));
    CHECK(EventsSince(*f.repo, mark).empty());
    CHECK(f.Has(TablesOf(t.gone.id) + "/1.json"));
    CHECK(f.Has(TablesOf(t.gone.id) + "/2.json"));
    CHECK(f.Has(TablesOf(t.sub.id) + "/1.json"));
    CHECK(f.Visible("gone/sub/d.txt") == "d.txt");
    CHECK(f.repo->GetObject(t.gone.id).ok());
  }
  SUBCASE("allowed") {
    auto failed = f.repo->DeleteTree(t.gone.id, check);
    REQUIRE_MESSAGE(failed.ok(), failed.status().ToString());
    CHECK(Sorted(EventsSince(*f.repo, mark)) == t.Deleted());
    CheckTreeGone(f, t);
    // Every object below was asked about: the adopted ones as documents of their own
    // type and path, with no ACL entries of their own.
    CHECK(below.size() == 6);
    CHECK(below[t.gone_adopted[0]] == "cmis:document gone/a.txt 0");
    CHECK(below[t.gone_adopted[1]] == "cmis:document gone/b.txt 0");
    CHECK(below[t.gone_adopted[2]] == "cmis:document gone/c.txt 0");
    CHECK(below[t.sub_adopted[0]] == "cmis:document gone/sub/d.txt 0");
    CHECK(below.count(t.sub.id) == 1);
    CHECK(below.count(t.plain.series_id) == 1);
  }
}

TEST_CASE("Adopted tree: deleteTree refuses a tree whose adoption table cannot be read, naming it") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  const std::string bad = TablesOf(t.sub.id) + "/2.json";
  WriteFile(f.RepoPath(bad), "{\"folder\": ");
  auto failed = f.repo->DeleteTree(t.gone.id, WriteCheck::Trusted());
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(failed.status().message(), bad));
  CHECK(EventsSince(*f.repo, mark).empty());
  CHECK(f.repo->GetObject(t.gone.id).ok());
  CHECK(f.Has(TablesOf(t.gone.id) + "/1.json"));
}

TEST_CASE("Adopted tree: an entry shadowed by a series directory is not a document of its own") {
  RepoFixture f;
  const ObjectData top = f.Folder(f.root, "top");
  const ObjectData doc = f.Doc(top.id, "same.txt", "made by Folio");
  // A table entry under the name of a document that has a series (fsck's
  // adopted-entry-shadowed): the series wins, the entry stands for nothing.
  REQUIRE(storage::EnsureDir(f.fs(), kLayout.AdoptedDir()).ok());
  REQUIRE(storage::EnsureDir(f.fs(), kLayout.AdoptedFolderDir(top.id)).ok());
  repo::hand_edits::AdoptedEntry e;
  e.series_id = storage::NewAdoptedSeriesId(top.id);
  e.mime_type = "text/plain";
  REQUIRE(storage::WriteFileAtomically(
              f.fs(), kLayout.AdoptionTable(top.id, 1),
              repo::hand_edits::AdoptionTableText(repo::hand_edits::AdoptionTable{top.id, {{"same.txt", e}}}))
              .ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  REQUIRE(f.repo->DeleteTree(top.id, WriteCheck::Trusted()).ok());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == Sorted({Deleted(top.id, "cmis:folder"), Deleted(doc.id)}));
  CHECK_FALSE(f.Has(TablesOf(top.id)));
}

TEST_CASE("Adopted tree: deleting an empty folder takes what is left of its tables along") {
  RepoFixture f;
  const ObjectData empty = f.Folder(f.root, "empty");
  // An entry whose file was removed by hand and whose removal no listing has taken in.
  const auto ids = AdoptByHand(f.fs(), "empty", empty.id, {"x.txt"});
  std::filesystem::remove(f.RepoPath("empty/x.txt"));
  const uint64_t mark = *f.repo->LatestChangeToken();
  Status s = f.repo->Delete(empty.id, true, WriteCheck::Trusted());
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == Sorted({Deleted(empty.id, "cmis:folder"), DeletedAdopted(ids.front())}));
  CHECK_FALSE(f.Has(TablesOf(empty.id)));
  CHECK_FALSE(f.Has("empty"));
}

TEST_CASE("Adopted tree: a folder tree removed by hand is one deleted event per adopted document, once") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());  // this process knows "gone"
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::filesystem::remove_all(f.RepoPath("gone"));
  // The tables are outside the folder: the removal left them.
  REQUIRE(f.Has(TablesOf(t.gone.id) + "/2.json"));

  SUBCASE("noticed by a listing of its parent") {
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE(page.ok());
    CHECK(page->objects.size() == 1);
  }
  SUBCASE("noticed by a lookup of a path below it") {
    CHECK(f.repo->GetObjectByPath("gone/sub/d.txt").status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("noticed by a lookup of an id that was below it") {
    CHECK(f.repo->GetObject(t.sub.id).status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("not noticed by the process that ran then: by the first listing of its parent after a restart") {
    f.Restart();
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    CHECK(page->objects.size() == 1);
  }
  const std::vector<std::string> events = EventsSince(*f.repo, mark);
  CHECK(Sorted(events) == t.Deleted());
  // A folder's documents before the folder: a sweep cut short finds the rest through it.
  const auto at = [&](const std::string& e) { return std::find(events.begin(), events.end(), e) - events.begin(); };
  for (const std::string& id : t.gone_adopted) CHECK(at(DeletedAdopted(id)) < at(Deleted(t.gone.id, "cmis:folder")));
  CHECK(at(DeletedAdopted(t.sub_adopted.front())) < at(Deleted(t.sub.id, "cmis:folder")));
  CheckTreeGone(f, t);
  // Seen again, and after a restart: nothing more.
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(f.repo->GetObject(t.gone.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(EventsSince(*f.repo, mark).size() == t.Deleted().size());
}

TEST_CASE("Adopted tree: a folder removed by hand below another while no Folio ran is noticed by the first listing of its parent") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  // Listed before (its documents found): what the listing after the removal records is
  // the removal alone.
  REQUIRE(f.repo->GetChildren(t.gone.id, 0, 100).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const std::vector<std::string> want = Sorted({Deleted(t.sub.id, "cmis:folder"), DeletedAdopted(t.sub_adopted.front())});
  f.Restart([&] { std::filesystem::remove_all(f.RepoPath("gone/sub")); });
  auto page = f.repo->GetChildren(t.gone.id, 0, 100);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == want);
  CHECK_FALSE(f.Has(TablesOf(t.sub.id)));
  CHECK(f.Has(TablesOf(t.gone.id) + "/2.json"));
  CHECK(f.Has(TablesOf(t.kept.id) + "/1.json"));
  f.Restart();
  REQUIRE(f.repo->GetChildren(t.gone.id, 0, 100).ok());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == want);
}

TEST_CASE("Adopted tree: two processes noticing the same removal record each adopted document once") {
  RepoFixture f;
  const Tree t = MakeTree(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  DemoMain other = f.SecondProcess();
  std::filesystem::remove_all(f.RepoPath("gone"));
  CHECK(other.repo->GetObject(t.sub.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(t.gone.id).status().kind() == ErrorKind::kObjectNotFound);
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  REQUIRE(other.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(Sorted(EventsSince(*f.repo, mark)) == t.Deleted());
  CHECK(Sorted(EventsSince(*other.repo, mark)) == t.Deleted());
  CheckTreeGone(f, t);
}

// A folder "big" with `count` adopted documents f0000.txt, ... in tables of 800 (so
// that the sweep's batches of 1,000 end inside tables, which are then rewritten).
struct Big {
  ObjectData folder;
  std::vector<std::string> adopted;
  std::vector<std::string> Deleted() const {
    std::vector<std::string> out = {testing::Deleted(folder.id, "cmis:folder")};
    for (const std::string& id : adopted) out.push_back(testing::DeletedAdopted(id));
    return Sorted(out);
  }
};

Big MakeBig(RepoFixture& f, size_t count) {
  Big b;
  b.folder = f.Folder(f.root, "big");
  std::vector<std::string> names;
  for (size_t i = 0; i < count; ++i) names.push_back("f" + Zeros(i, 4) + ".txt");
  b.adopted = AdoptByHand(f.fs(), "big", b.folder.id, names, 800);
  return b;
}

TEST_CASE("Adopted tree: a folder removed by hand with 2,500 adopted documents is recorded in batches, each once") {
  RepoFixture f;
  const Big b = MakeBig(f, 2500);
  REQUIRE(f.Has(TablesOf(b.folder.id) + "/4.json"));
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::filesystem::remove_all(f.RepoPath("big"));
  CHECK(f.repo->GetObject(b.folder.id).status().kind() == ErrorKind::kObjectNotFound);
  const std::vector<std::string> events = EventsSince(*f.repo, mark);
  REQUIRE(events.size() == 2501);
  // The folder that was looked up comes last, after all of its documents.
  CHECK(events.back() == Deleted(b.folder.id, "cmis:folder"));
  CHECK(Sorted(events) == b.Deleted());
  CHECK(std::set<std::string>(events.begin(), events.end()).size() == events.size());
  CHECK_FALSE(f.Has(TablesOf(b.folder.id)));
  CHECK_FALSE(f.Has(".folio/folders/big"));
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(f.repo->GetObject(b.folder.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(EventsSince(*f.repo, mark).size() == 2501);
}

TEST_CASE("Adopted tree: a sweep of 2,500 adopted documents cut short by a power loss is resumed, never repeated") {
  // The fixture on disk, then in memory (all durable), the folder removed.
  RepoFixture f;
  const Big b = MakeBig(f, 2500);
  const uint64_t mark = *f.repo->LatestChangeToken();
  REQUIRE(f.repo->Checkpoint().ok());
  std::filesystem::remove_all(f.RepoPath("big"));
  // The sweep's tables are larger than a record holds inline: rewritten through upload
  // files, whose directory the first of them makes (durably: the walk covers it too).
  storage::MemFs fixture;
  REQUIRE(storage::ImportTree(fixture, f.dir.path()).ok());
  f.repo.reset();
  const std::vector<std::string> want = b.Deleted();
  std::set<size_t> seen;  // events found after a power loss, before the sweep resumed
  for (int step = 0;; ++step) {
    CAPTURE(step);
    storage::MemFs disk = fixture.Clone();
    FaultyFs faulty(disk, FaultyFs::CutPowerAt(step));
    {
      auto repo = Repository::Open(faulty, "demo/main");
      if (repo.ok()) {
        auto got = (*repo)->GetObject(b.folder.id);
        CHECK_FALSE(got.ok());
        if (!faulty.fired()) CHECK(got.status().kind() == ErrorKind::kObjectNotFound);
      }
    }
    auto after = Repository::Open(disk, "demo/main");
    REQUIRE_MESSAGE(after.ok(), after.status().ToString());
    const std::vector<std::string> before = EventsSince(**after, mark);
    // Whole changes of at most 1,000 objects survive, or none.
    CHECK((before.size() == 0 || before.size() == 1000 || before.size() == 2000 || before.size() == 2501));
    seen.insert(before.size());
    // The next lookup resumes the sweep: every document once, the folder once.
    CHECK((*after)->GetObject(b.folder.id).status().kind() == ErrorKind::kObjectNotFound);
    const std::vector<std::string> events = EventsSince(**after, mark);
    CHECK(events.size() == want.size());
    CHECK(Sorted(events) == want);
    CHECK_FALSE(Exists(disk, storage::JoinPath(kLayout.base(), TablesOf(b.folder.id))));
    if (!faulty.fired()) break;
    REQUIRE(step < 400);
  }
  // Every batch boundary was a state a power loss could leave.
  CHECK(seen == std::set<size_t>{0, 1000, 2000, 2501});
}

// --- End to end: files added by hand, adopted by a listing of their folder ----------

// The documents of the folder `folder_id`, listed (which adopts the files added by hand
// into its tables): their series ids, by name.
std::map<std::string, std::string> ListDocuments(RepoFixture& f, const std::string& folder_id) {
  std::map<std::string, std::string> out;
  for (uint64_t skip = 0;; skip += 500) {
    auto page = f.repo->GetChildren(folder_id, skip, 500);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    for (const ObjectData& o : page->objects) {
      if (o.base == BaseType::kDocument) out[o.name] = o.series_id;
    }
    if (!page->has_more) return out;
  }
}

// A folder "inbox" made through Folio holding files added by hand (a.txt, b.txt), a
// subfolder "deep" made through Folio with c.txt, and a directory "handmade" made by
// hand with h.txt, each folder listed; b.txt then changed through Folio (it has a
// series of its own since). "kept" beside it.
struct HandTree {
  ObjectData inbox, deep, kept;
  std::string handmade;                          // its id
  std::map<std::string, std::string> documents;  // series ids by path
  std::vector<std::string> Deleted() const {
    std::vector<std::string> out = {testing::Deleted(inbox.id, "cmis:folder"),
                                    testing::Deleted(deep.id, "cmis:folder"),
                                    testing::Deleted(handmade, "cmis:folder")};
    for (const auto& [path, id] : documents) out.push_back(testing::DeletedAdopted(id));
    return Sorted(out);
  }
};

HandTree MakeHandTree(RepoFixture& f) {
  HandTree t;
  t.inbox = f.Folder(f.root, "inbox");
  t.deep = f.Folder(t.inbox.id, "deep");
  t.kept = f.Folder(f.root, "kept");
  std::filesystem::create_directories(f.RepoPath("inbox/handmade"));
  for (const char* path : {"inbox/a.txt", "inbox/b.txt", "inbox/deep/c.txt", "inbox/handmade/h.txt"}) {
    WriteFile(f.RepoPath(path), path);
  }
  for (const auto& [name, id] : ListDocuments(f, t.inbox.id)) t.documents["inbox/" + name] = id;
  auto handmade = f.repo->GetObjectByPath("inbox/handmade");
  REQUIRE_MESSAGE(handmade.ok(), handmade.status().ToString());
  t.handmade = handmade->id;
  for (const auto& [name, id] : ListDocuments(f, t.deep.id)) t.documents["inbox/deep/" + name] = id;
  for (const auto& [name, id] : ListDocuments(f, t.handmade)) t.documents["inbox/handmade/" + name] = id;
  REQUIRE(t.documents.size() == 4);
  // Adopted: an entry each in their folders' tables, no index entry.
  for (const auto& doc : t.documents) {
    const std::string& path = doc.first;  // named: clang 14's lambdas (CAPTURE) take no structured binding
    const std::string& id = doc.second;
    CAPTURE(path);
    CHECK(storage::AdoptedFolderOf(id).has_value());
    CHECK_FALSE(f.Has(".folio/index/" + id.substr(id.size() - 2) + "/" + id + ".json"));
  }
  CHECK(f.Has(TablesOf(t.inbox.id) + "/1.json"));
  CHECK(f.Has(TablesOf(t.deep.id) + "/1.json"));
  CHECK(f.Has(TablesOf(t.handmade) + "/1.json"));
  // Changed through Folio: a series of its own, under the same id.
  auto changed = f.repo->SetContent(t.documents["inbox/b.txt"], ContentSource::FromBytes("b2", "text/plain"), true,
                                    "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(changed.ok(), changed.status().ToString());
  CHECK(changed->series_id == t.documents["inbox/b.txt"]);
  CHECK(f.Has("inbox/.folio/docs/b.txt/series.json"));
  return t;
}

void CheckHandTreeGone(RepoFixture& f, const HandTree& t) {
  for (const std::string& folder : {t.inbox.id, t.deep.id, t.handmade}) CHECK_FALSE(f.Has(TablesOf(folder)));
  for (const auto& doc : t.documents) {
    const std::string& path = doc.first;
    const std::string& id = doc.second;
    CAPTURE(path);
    CHECK(f.repo->GetObject(id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(f.repo->GetObjectByPath(path).status().kind() == ErrorKind::kObjectNotFound);
  }
  CHECK(f.repo->GetObject(t.kept.id).ok());
}

TEST_CASE("Adopted tree, end to end: a folder whose files were added by hand, deleted through Folio or by hand") {
  RepoFixture f;
  const HandTree t = MakeHandTree(f);
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const auto remove = [&] { std::filesystem::remove_all(f.RepoPath("inbox")); };
  SUBCASE("deleteTree") {
    auto failed = f.repo->DeleteTree(t.inbox.id, WriteCheck::Trusted());
    REQUIRE_MESSAGE(failed.ok(), failed.status().ToString());
    CHECK(failed->empty());
  }
  SUBCASE("removed by hand, noticed by a lookup of an adopted document's id") {
    remove();
    CHECK(f.repo->GetObject(t.documents.at("inbox/deep/c.txt")).status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("removed by hand, noticed by a lookup of an adopted document's path") {
    remove();
    CHECK(f.repo->GetObjectByPath("inbox/handmade/h.txt").status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("removed by hand, noticed by a listing of its parent") {
    remove();
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE(page.ok());
    CHECK(page->objects.size() == 1);
  }
  SUBCASE("removed by hand while no Folio ran, noticed by a listing of its parent") {
    f.Restart(remove);
    REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  }
  CHECK(Sorted(EventsSince(*f.repo, mark)) == t.Deleted());
  CheckHandTreeGone(f, t);
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CheckHandTreeGone(f, t);
  CHECK(EventsSince(*f.repo, mark).size() == t.Deleted().size());
}

TEST_CASE("Adopted tree, end to end: a folder moved by hand keeps its adopted documents, by path and by id") {
  RepoFixture f;
  const HandTree t = MakeHandTree(f);
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const std::string a = t.documents.at("inbox/a.txt");
  const std::string h = t.documents.at("inbox/handmade/h.txt");
  std::string where;
  SUBCASE("renamed, found by path") {
    std::filesystem::rename(f.RepoPath("inbox"), f.RepoPath("renamed"));
    where = "renamed";
    auto got = f.repo->GetObjectByPath("renamed/handmade/h.txt");
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    CHECK(got->series_id == h);
  }
  SUBCASE("moved into another folder, found by id") {
    std::filesystem::rename(f.RepoPath("inbox"), f.RepoPath("kept/moved"));
    where = "kept/moved";
    auto got = f.repo->GetObject(a);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    CHECK(got->path == "kept/moved/a.txt");
  }
  SUBCASE("moved while no Folio ran, found by a listing of its new parent") {
    f.Restart([&] { std::filesystem::rename(f.RepoPath("inbox"), f.RepoPath("kept/moved")); });
    where = "kept/moved";
    auto page = f.repo->GetChildren(t.kept.id, 0, 100);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    CHECK(page->objects.size() == 1);
  }
  // Its tables are named by its id, which it kept: every document is where it went,
  // under its id, with its content; the move is the folder's one "updated" event.
  const auto check_all = [&] {
    for (const auto& [path, id] : t.documents) {
      const std::string now = where + path.substr(std::string("inbox").size());
      CAPTURE(now);
      auto by_id = f.repo->GetObject(id);
      REQUIRE_MESSAGE(by_id.ok(), by_id.status().ToString());
      CHECK(by_id->path == now);
      auto by_path = f.repo->GetObjectByPath(now);
      REQUIRE_MESSAGE(by_path.ok(), by_path.status().ToString());
      CHECK(by_path->series_id == id);
      CHECK(ContentOf(*f.repo, id) == (path == "inbox/b.txt" ? "b2" : path));
    }
    CHECK(ListDocuments(f, t.inbox.id).size() == 2);
    CHECK(EventsSince(*f.repo, mark) == std::vector<std::string>{"updated " + t.inbox.id + " cmis:folder"});
    CHECK(f.Has(TablesOf(t.inbox.id) + "/1.json"));
    CHECK(f.Has(TablesOf(t.handmade) + "/1.json"));
  };
  check_all();
  f.Restart();
  check_all();
}

TEST_CASE("Adopted tree, end to end: 2,100 files added by hand, adopted, then removed by hand with their folder") {
  RepoFixture f;
  const ObjectData bulk = f.Folder(f.root, "bulk");
  for (int i = 0; i < 2100; ++i) WriteFile(f.RepoPath("bulk/f" + Zeros(i, 4) + ".txt"), std::to_string(i));
  const auto docs = ListDocuments(f, bulk.id);
  REQUIRE(docs.size() == 2100);
  CHECK(f.Has(TablesOf(bulk.id) + "/3.json"));  // a table per batch of 1,000
  std::vector<std::string> want = {Deleted(bulk.id, "cmis:folder")};
  for (const auto& [name, id] : docs) want.push_back(DeletedAdopted(id));
  want = Sorted(want);
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::filesystem::remove_all(f.RepoPath("bulk"));
  CHECK(f.repo->GetObject(docs.begin()->second).status().kind() == ErrorKind::kObjectNotFound);
  const std::vector<std::string> events = EventsSince(*f.repo, mark);
  REQUIRE(events.size() == 2101);
  CHECK(events.back() == Deleted(bulk.id, "cmis:folder"));
  CHECK(Sorted(events) == want);
  CHECK_FALSE(f.Has(TablesOf(bulk.id)));
  f.Restart();
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());
  CHECK(EventsSince(*f.repo, mark).size() == 2101);
}

}  // namespace
}  // namespace folio::testing
