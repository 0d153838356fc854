// Adopted documents (docs/STORAGE.md §4.1): files found in a folder are one entry of
// the folder's adoption table until their first change through Folio.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/adoption_table.h"
#include "storage/atomic_write.h"
#include "storage/change_set.h"
#include "storage/ids.h"
#include "storage/json_file.h"
#include "storage/layout.h"
#include "storage/mem_fs.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::DemoMain;
using folio::testing::ReadFile;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;
namespace fs = std::filesystem;

namespace {

// The adoption tables of the folder `folder_id`, by number.
std::map<uint64_t, repo::hand_edits::AdoptionTable> Tables(RepoFixture& f, const std::string& folder_id) {
  std::map<uint64_t, repo::hand_edits::AdoptionTable> out;
  const fs::path dir = f.RepoPath(".folio/adopted/" + folder_id);
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto n = storage::AdoptionTableNumber(e.path().filename().string());
    REQUIRE_MESSAGE(n, e.path().string());
    auto j = storage::Json::parse(ReadFile(e.path().string()));
    auto t = repo::hand_edits::AdoptionTableFromJson(j, e.path().string());
    REQUIRE_MESSAGE(t.ok(), t.status().ToString());
    out.emplace(*n, std::move(*t));
  }
  return out;
}

std::vector<ChangeEventInfo> Events(RepoFixture& f) {
  auto page = f.repo->ReadChanges(0, 100000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  return page->events;
}

size_t CountEvents(RepoFixture& f, const std::string& type, const std::string& object_id) {
  size_t n = 0;
  for (const auto& e : Events(f)) n += e.type == type && e.object_id == object_id;
  return n;
}

// Every index entry file of the repository.
size_t IndexEntries(RepoFixture& f) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(f.RepoPath(".folio/index"))) n += e.is_regular_file();
  return n;
}

ObjectData Child(RepoFixture& f, const std::string& folder_id, const std::string& name) {
  auto page = f.repo->GetChildren(folder_id, 0, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  for (const ObjectData& o : page->objects) {
    if (o.name == name) return o;
  }
  FAIL("no child " << name);
  return {};
}

}  // namespace

TEST_CASE("Adopted: a folder's new files become one table, no series, version file or index entry") {
  RepoFixture f;
  const size_t index_before = IndexEntries(f);
  for (int i = 0; i < 30; ++i) WriteFile(f.RepoPath("f" + std::to_string(i) + ".txt"), "file " + std::to_string(i));
  auto page = f.repo->GetChildren(f.root, 0, 10);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(page->total == 30);
  // One table holding all thirty; nothing per document.
  auto tables = Tables(f, f.root);
  REQUIRE(tables.size() == 1);
  CHECK(tables.begin()->first == 1);
  CHECK(tables.begin()->second.folder_id == f.root);
  CHECK(tables.begin()->second.documents.size() == 30);
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/docs/f0.txt")));
  CHECK(IndexEntries(f) == index_before);
  // Each is a document: version 1.0, its file as content, an id naming its folder.
  const ObjectData d = Child(f, f.root, "f7.txt");
  CHECK(d.base == BaseType::kDocument);
  CHECK(storage::AdoptedFolderOf(d.series_id) == f.root);
  CHECK(d.id == d.series_id + ";1.0");
  CHECK(d.properties["cmis:versionLabel"] == "1.0");
  CHECK(d.properties["cmis:isLatestVersion"] == true);
  CHECK(d.properties["cmis:isMajorVersion"] == true);
  CHECK(d.properties["cmis:createdBy"] == "system");
  CHECK(d.properties["cmis:contentStreamLength"] == 6);
  CHECK(d.properties["cmis:contentStreamMimeType"] == "text/plain");
  CHECK(d.properties["cmis:isVersionSeriesCheckedOut"] == false);
  CHECK(d.parent_id == f.root);
  CHECK(f.Content(d.id) == "file 7");
  CHECK(f.Content(d.series_id) == "file 7");
  // One "created" event each, naming version 1.0.
  CHECK(CountEvents(f, "created", d.id) == 1);
  size_t created = 0;
  for (const auto& e : Events(f)) created += e.type == "created" && e.base_type_id == "cmis:document";
  CHECK(created == 30);
  // Found by path and by id, the same, also after a restart; nothing adopted twice.
  CHECK(f.repo->GetObjectByPath("f7.txt")->id == d.id);
  CHECK(f.repo->GetObject(d.series_id)->name == "f7.txt");
  f.Restart();
  CHECK(f.repo->GetObject(d.id)->name == "f7.txt");
  CHECK(f.repo->GetObjectByPath("f7.txt")->id == d.id);
  CHECK(f.repo->GetChildren(f.root, 0, 100)->total == 30);
  CHECK(Tables(f, f.root).size() == 1);
  created = 0;
  for (const auto& e : Events(f)) created += e.type == "created" && e.base_type_id == "cmis:document";
  CHECK(created == 30);
  // All its versions: one.
  auto versions = f.repo->GetAllVersions(d.series_id);
  REQUIRE_MESSAGE(versions.ok(), versions.status().ToString());
  REQUIRE(versions->size() == 1);
  CHECK((*versions)[0].id == d.id);
  // An id that is no adopted document of that folder, or of a folder that does not exist.
  CHECK(f.repo->GetObject(storage::NewAdoptedSeriesId(f.root)).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(storage::NewAdoptedSeriesId("fnosuchfolder0000")).status().kind() ==
        ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(d.series_id + ";2.0").status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetObject(d.series_id + ";pwc").status().kind() == ErrorKind::kObjectNotFound);
}

TEST_CASE("Adopted: more than a batch of new files makes one table per batch") {
  RepoFixture f;
  fs::create_directories(f.RepoPath("many"));
  for (int i = 0; i < 2500; ++i) WriteFile(f.RepoPath("many/" + std::to_string(i)), "x");
  auto folder = f.repo->GetObjectByPath("many");
  REQUIRE(folder.ok());
  std::set<std::string> ids;
  for (uint64_t skip = 0;; skip += 500) {
    auto page = f.repo->GetChildren(folder->id, skip, 500);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    for (const ObjectData& o : page->objects) ids.insert(o.id);
    if (!page->has_more) break;
  }
  CHECK(ids.size() == 2500);
  auto tables = Tables(f, folder->id);
  CHECK(tables.size() == 3);
  size_t entries = 0;
  for (const auto& [n, t] : tables) entries += t.documents.size();
  CHECK(entries == 2500);
}

TEST_CASE("Adopted: an edit by hand is taken into the entry, with an updated event") {
  RepoFixture f;
  WriteFile(f.RepoPath("e.txt"), "before");
  const ObjectData d = *f.repo->GetObjectByPath("e.txt");
  fs::remove(f.RepoPath("e.txt"));  // a new inode, as editors do
  WriteFile(f.RepoPath("e.txt"), "after, longer");
  fs::last_write_time(f.RepoPath("e.txt"), fs::file_time_type::clock::now() + std::chrono::hours(1));
  auto o = f.repo->GetObject(d.series_id);
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  CHECK(o->id == d.id);
  CHECK(o->properties["cmis:contentStreamLength"] == 13);
  CHECK(o->properties["cmis:lastModificationDate"].get<int64_t>() >
        d.properties["cmis:lastModificationDate"].get<int64_t>());
  CHECK(o->properties["cmis:creationDate"] == d.properties["cmis:creationDate"]);
  CHECK(o->properties["cmis:lastModifiedBy"] == "system");
  CHECK(f.Content(o->id) == "after, longer");
  CHECK(CountEvents(f, "updated", d.id) == 1);
  // Still adopted (an edit by hand is no change through Folio), the entry up to date:
  // the next read records nothing more.
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/docs/e.txt")));
  const auto tables = Tables(f, f.root);
  REQUIRE(tables.size() == 1);
  CHECK(tables.begin()->second.documents.at("e.txt").file_size == 13);
  CHECK(f.repo->GetObject(d.id).ok());
  CHECK(CountEvents(f, "updated", d.id) == 1);
}

TEST_CASE("Adopted: a file removed by hand is a deletion; its entry and an empty table go") {
  RepoFixture f;
  WriteFile(f.RepoPath("a.txt"), "a");
  WriteFile(f.RepoPath("b.txt"), "b");
  const ObjectData a = *f.repo->GetObjectByPath("a.txt");
  const ObjectData b = *f.repo->GetObjectByPath("b.txt");
  fs::remove(f.RepoPath("a.txt"));
  SUBCASE("noticed by a listing") {
    auto page = f.repo->GetChildren(f.root, 0, 10);
    REQUIRE(page.ok());
    CHECK(page->total == 1);
  }
  SUBCASE("noticed by a lookup by id") {
    CHECK(f.repo->GetObject(a.id).status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("noticed by a lookup by path") {
    CHECK(f.repo->GetObjectByPath("a.txt").status().kind() == ErrorKind::kObjectNotFound);
  }
  CHECK(CountEvents(f, "deleted", a.id) == 1);
  CHECK(f.repo->GetObject(a.id).status().kind() == ErrorKind::kObjectNotFound);
  auto tables = Tables(f, f.root);
  REQUIRE(tables.size() == 1);
  CHECK(tables.begin()->second.documents.count("a.txt") == 0);
  CHECK(tables.begin()->second.documents.count("b.txt") == 1);
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/lost+found")));
  // The last one gone: no table, no table directory.
  fs::remove(f.RepoPath("b.txt"));
  CHECK(f.repo->GetChildren(f.root, 0, 10)->total == 0);
  CHECK(CountEvents(f, "deleted", b.id) == 1);
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/adopted/" + f.root)));
  f.Restart();
  CHECK(CountEvents(f, "deleted", a.id) == 1);
}

TEST_CASE("Adopted: the first change gives the document its series, under the same id") {
  RepoFixture f;
  WriteFile(f.RepoPath("c.txt"), "content");
  WriteFile(f.RepoPath("other.txt"), "stays adopted");
  const ObjectData d = *f.repo->GetObjectByPath("c.txt");
  const size_t events_before = Events(f).size();

  SUBCASE("a property update") {
    auto u = f.repo->UpdateProperties(d.id, Json{{"cmis:description", "described"}}, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(u.ok(), u.status().ToString());
    CHECK(u->id == d.id);
    CHECK(u->properties["cmis:description"] == "described");
    CHECK(u->properties["cmis:lastModifiedBy"] == "alice");
    CHECK(u->properties["cmis:creationDate"] == d.properties["cmis:creationDate"]);
    CHECK(Events(f).size() == events_before + 1);  // the update's, and nothing for the series
  }
  SUBCASE("a check-out and a check-in") {
    auto pwc = f.repo->CheckOut(d.id, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
    CHECK(f.Content(pwc->id) == "content");
    CheckInRequest req;
    req.major = false;
    req.content = ContentSource::FromBytes("new content", "text/plain");
    auto in = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(in.ok(), in.status().ToString());
    CHECK(in->properties["cmis:versionLabel"] == "1.1");
    CHECK(in->series_id == d.series_id);
    CHECK(f.Content(d.id) == "content");  // version 1.0 kept its bytes
    CHECK(ReadFile(f.RepoPath("c.txt")) == "new content");
  }
  SUBCASE("a rename") {
    auto u = f.repo->UpdateProperties(d.id, Json{{"cmis:name", "renamed.txt"}}, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(u.ok(), u.status().ToString());
    CHECK(f.repo->GetObjectByPath("renamed.txt")->id == d.id);
    CHECK_FALSE(fs::exists(f.RepoPath("c.txt")));
  }
  SUBCASE("an ACL") {
    auto u = f.repo->SetAcl(d.id, {Ace{"bob", {"cmis:read"}}}, WriteCheck::Trusted());
    REQUIRE_MESSAGE(u.ok(), u.status().ToString());
    REQUIRE(u->acl.size() == 1);
    CHECK(u->acl[0].principal == "bob");
  }
  SUBCASE("a move") {
    const ObjectData sub = f.Folder(f.root, "sub");
    auto m = f.repo->Move(d.id, sub.id, f.root, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(m.ok(), m.status().ToString());
    CHECK(f.repo->GetObjectByPath("sub/c.txt")->id == d.id);
    CHECK(f.repo->GetObject(d.series_id)->path == "sub/c.txt");
  }
  SUBCASE("a deletion") {
    REQUIRE(f.repo->Delete(d.id, true, WriteCheck::Trusted()).ok());
    CHECK(f.repo->GetObject(d.id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(f.repo->GetObjectByPath("c.txt").status().kind() == ErrorKind::kObjectNotFound);
    CHECK(CountEvents(f, "deleted", d.id) == 1);
    CHECK(f.repo->GetChildren(f.root, 0, 10)->total == 1);
    f.Restart();
    CHECK(f.repo->GetObject(d.id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(f.repo->GetChildren(f.root, 0, 10)->total == 1);
    return;
  }
  // The document now has the files of any other, its id indexed; its entry is gone,
  // the other file's stays.
  const std::string id = d.series_id;
  CHECK(fs::exists(f.RepoPath(".folio/index/" + id.substr(id.size() - 2) + "/" + id + ".json")));
  auto tables = Tables(f, f.root);
  REQUIRE(tables.size() == 1);
  CHECK(tables.begin()->second.documents.count("c.txt") == 0);
  CHECK(tables.begin()->second.documents.count("other.txt") == 1);
  CHECK(f.repo->GetObject(d.series_id).ok());
  f.Restart();
  CHECK(f.repo->GetObject(d.series_id).ok());
  CHECK(CountEvents(f, "created", d.id) == 1);
}

TEST_CASE("Adopted: content is read from the document's own file, while that is still the document's") {
  RepoFixture f;
  WriteFile(f.RepoPath("c.txt"), "content");
  WriteFile(f.RepoPath("e.txt"), "before");
  const ObjectData d = *f.repo->GetObjectByPath("c.txt");
  const ObjectData e = *f.repo->GetObjectByPath("e.txt");
  CHECK(d.content_in_document_file);
  const auto read = [&](const ObjectData& o) {
    auto s = f.repo->OpenContent(o);
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    CHECK(s->info.length == s->file->size());
    return folio::testing::ReadAll(*s->file);
  };
  CHECK(read(d) == "content");

  // Edited by hand (a new inode, as editors make) after `e` was built: the edit is
  // taken in, and the object built before reads what the document now holds.
  fs::remove(f.RepoPath("e.txt"));
  WriteFile(f.RepoPath("e.txt"), "after, longer");
  fs::last_write_time(f.RepoPath("e.txt"), fs::file_time_type::clock::now() + std::chrono::hours(1));
  CHECK(read(e) == "after, longer");

  // The first change through Folio gives the document its files; its own file then
  // holds version 1.1. Version 1.0, built before that change, still reads 1.0's bytes.
  auto pwc = f.repo->CheckOut(d.id, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  CHECK_FALSE(pwc->content_in_document_file);
  CheckInRequest req;
  req.major = false;
  req.content = ContentSource::FromBytes("new content", "text/plain");
  auto in = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(in.ok(), in.status().ToString());
  REQUIRE(ReadFile(f.RepoPath("c.txt")) == "new content");
  CHECK(read(d) == "content");
  CHECK_FALSE(in->content_in_document_file);
  CHECK(read(*in) == "new content");
  auto again = f.repo->GetObject(d.id);
  REQUIRE_MESSAGE(again.ok(), again.status().ToString());
  CHECK_FALSE(again->content_in_document_file);
  CHECK(read(*again) == "content");
}

TEST_CASE("Adopted: a table another process adds is seen by a process that keeps the folder's table numbers") {
  RepoFixture f;
  WriteFile(f.RepoPath("a.txt"), "a");
  auto first = f.repo->GetChildren(f.root, 0, 10);
  REQUIRE_MESSAGE(first.ok(), first.status().ToString());
  REQUIRE(first->total == 1);
  REQUIRE(Tables(f, f.root).size() == 1);
  // Changed long ago: the listing of the table directory is kept (one changed within
  // the last 100 ms is listed again every time).
  fs::last_write_time(f.RepoPath(".folio/adopted/" + f.root),
                      fs::file_time_type::clock::now() - std::chrono::hours(1));
  auto a = f.repo->GetObjectByPath("a.txt");
  REQUIRE_MESSAGE(a.ok(), a.status().ToString());
  CHECK(f.repo->GetObject(a->series_id).ok());

  DemoMain second = f.SecondProcess();
  WriteFile(f.RepoPath("b.txt"), "b");
  auto listed = second.repo->GetChildren(f.root, 0, 10);
  REQUIRE_MESSAGE(listed.ok(), listed.status().ToString());
  REQUIRE(listed->total == 2);
  REQUIRE(Tables(f, f.root).size() == 2);
  auto b = second.repo->GetObjectByPath("b.txt");
  REQUIRE_MESSAGE(b.ok(), b.status().ToString());
  // This process finds the other's table: the same document, not adopted again.
  auto by_id = f.repo->GetObject(b->series_id);
  CHECK_MESSAGE(by_id.ok(), by_id.status().ToString());
  auto by_path = f.repo->GetObjectByPath("b.txt");
  REQUIRE_MESSAGE(by_path.ok(), by_path.status().ToString());
  CHECK(by_path->id == b->id);
  CHECK(f.Content(b->id) == "b");
  CHECK(Tables(f, f.root).size() == 2);
}

TEST_CASE("Adopted: a read-only repository adopts in memory only") {
  RepoFixture f;
  WriteFile(f.RepoPath("r.txt"), "read only");
  DemoMain read_only = f.ReopenReadOnly();
  const std::shared_ptr<Repository>& r = read_only.repo;
  auto o = r->GetObjectByPath("r.txt");
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  CHECK(r->GetObject(o->id)->name == "r.txt");
  auto c = r->OpenContent(o->id);
  REQUIRE(c.ok());
  CHECK(folio::testing::ReadAll(*c->file) == "read only");
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/adopted")));
  CHECK(r->UpdateProperties(o->id, Json{{"cmis:description", "x"}}, "alice", WriteCheck::Trusted()).status().kind() ==
        ErrorKind::kPermissionDenied);
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/adopted")));
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/docs/r.txt")));
}

// A MemFs that counts the opens of each file (a read of a record opens it).
class CountingMemFs : public storage::MemFs {
 public:
  Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++opens_[path];
    }
    return MemFs::Open(path);
  }
  int opens(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    return opens_[path];
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> opens_;
};

// A repository directory with the adoption tables' directories, in `mem`.
void MakeTableDirs(Fs& mem, const storage::RepoLayout& layout, const std::string& folder) {
  REQUIRE(storage::EnsureDir(mem, "r").ok());
  REQUIRE(storage::EnsureDir(mem, layout.MetaDir()).ok());
  REQUIRE(storage::EnsureDir(mem, layout.AdoptedDir()).ok());
  REQUIRE(storage::EnsureDir(mem, layout.AdoptedFolderDir(folder)).ok());
}

repo::hand_edits::AdoptedEntry Entry(const std::string& folder, uint64_t size) {
  repo::hand_edits::AdoptedEntry e;
  e.series_id = storage::NewAdoptedSeriesId(folder);
  e.mime_type = "text/plain";
  e.file_size = size;
  return e;
}

// AdoptedDocs over a filesystem in memory, with the table directory of `folder` made.
template <typename MemFsT = storage::MemFs>
struct MemTables {
  MemFsT mem;
  const storage::RepoLayout layout{"r"};
  repo::lookup::RecordReader reader{mem, layout};
  repo::hand_edits::AdoptedDocs docs{mem, layout, reader};
  const std::string folder = storage::NewId('f');
  MemTables() { MakeTableDirs(mem, layout, folder); }
};

TEST_CASE("Adopted: a table's old decoding goes when its file is rewritten") {
  // What hangs off a decoded table is large (each document's entry, and the records
  // made of it while anything holds them). A memo that kept decodings of tables that
  // had been replaced grew by that much per folder read (to 185 MB for 20,000 files,
  // bench/RESULTS.md): the memo holds one decoding per table file.
  MemTables<> m;
  auto& mem = m.mem;
  const storage::RepoLayout& layout = m.layout;
  repo::hand_edits::AdoptedDocs& docs = m.docs;
  const std::string& folder = m.folder;
  for (int round = 0; round < 10; ++round) {
    // The table rewritten (as an edit taken in does): a new file, a new decoding.
    const repo::hand_edits::AdoptedEntry e = Entry(folder, static_cast<uint64_t>(round));
    repo::hand_edits::AdoptionTable table{folder, {{"x.txt", e}}};
    const std::string text = repo::hand_edits::AdoptionTableText(table);
    REQUIRE(storage::WriteFileAtomically(mem, layout.AdoptionTable(folder, 1), text).ok());
    auto found = docs.Find(folder, "x.txt");
    REQUIRE_MESSAGE(found.ok(), found.status().ToString());
    REQUIRE(*found != nullptr);
    CHECK((*found)->entry.series_id == e.series_id);
    CHECK(docs.TableMemoSize() <= 1);
  }
}

TEST_CASE("Adopted: a table this process writes is kept as staged, not read back; a table changed by hand is read") {
  // A folder's new files are adopted in one table of up to kAdoptionBatch entries, and
  // a listing then looks each one up: reading the table back, or keeping its JSON,
  // took four times the memory of its decoding (bench/RESULTS.md).
  MemTables<CountingMemFs> m;
  auto& mem = m.mem;
  const storage::RepoLayout& layout = m.layout;
  repo::hand_edits::AdoptedDocs& docs = m.docs;
  const std::string& folder = m.folder;
  const std::string path = layout.AdoptionTable(folder, 1);
  const repo::hand_edits::AdoptedEntry a = Entry(folder, 1), b = Entry(folder, 2);
  storage::ChangeSet change;
  REQUIRE(docs.StageNewTable(change, folder, {{"a.txt", a}, {"b.txt", b}}).ok());
  CHECK(docs.TableMemoSize() == 0);  // staged, not yet written: nothing is kept
  REQUIRE(storage::ApplyChangeSet(mem, change, storage::ApplyOptions{}, nullptr).ok());
  // The file is the table's text.
  auto written = storage::ReadJsonFile(mem, path);
  REQUIRE_MESSAGE(written.ok(), written.status().ToString());
  auto decoded = repo::hand_edits::AdoptionTableFromJson(*written, path);
  REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
  CHECK(decoded->documents.size() == 2);
  const int opens_after_write = mem.opens(path);  // the check above read it
  CHECK(docs.TableMemoSize() == 1);
  CHECK(docs.TableMemoBytes() > 0);
  for (int i = 0; i < 3; ++i) {
    auto found_a = docs.Find(folder, "a.txt");
    REQUIRE(found_a.ok());
    REQUIRE(*found_a != nullptr);
    CHECK((*found_a)->entry.series_id == a.series_id);
    auto found_b = docs.FindId(b.series_id);
    REQUIRE(found_b.ok());
    REQUIRE(*found_b != nullptr);
    CHECK((*found_b)->name == "b.txt");
  }
  CHECK(mem.opens(path) == opens_after_write);  // never read back

  // Rewritten by another hand (a new file at the same path): read, and what it holds
  // is what Find gives.
  repo::hand_edits::AdoptionTable other{folder, {{"c.txt", Entry(folder, 3)}}};
  REQUIRE(storage::WriteFileAtomically(mem, path, repo::hand_edits::AdoptionTableText(other)).ok());
  auto gone = docs.Find(folder, "a.txt");
  REQUIRE(gone.ok());
  CHECK(*gone == nullptr);
  auto found_c = docs.Find(folder, "c.txt");
  REQUIRE(found_c.ok());
  CHECK(*found_c != nullptr);
  CHECK(mem.opens(path) == opens_after_write + 1);  // read once, then kept
  CHECK(docs.TableMemoSize() == 1);

  // A change that fails before the apply keeps nothing.
  storage::ChangeSet unapplied;
  REQUIRE(docs.StageNewTable(unapplied, folder, {{"d.txt", Entry(folder, 4)}}).ok());
  CHECK(docs.TableMemoSize() == 1);
  auto none = docs.Find(folder, "d.txt");
  REQUIRE(none.ok());
  CHECK(*none == nullptr);

  // A change applied after the AdoptedDocs that staged it is gone (fsck stages through
  // one of its own): applied all the same, and read by the others.
  storage::ChangeSet late;
  {
    repo::hand_edits::AdoptedDocs stager(mem, layout, m.reader);
    REQUIRE(stager.StageNewTable(late, folder, {{"e.txt", Entry(folder, 5)}}).ok());
  }
  REQUIRE(storage::ApplyChangeSet(mem, late, storage::ApplyOptions{}, nullptr).ok());
  auto found_e = docs.Find(folder, "e.txt");
  REQUIRE(found_e.ok());
  CHECK(*found_e != nullptr);
  CHECK(mem.opens(layout.AdoptionTable(folder, 2)) == 1);
}

TEST_CASE("Adopted: the kept decodings are bounded by the memory they take") {
  // Twenty folders of 1,000 adopted documents: far more than the memo's budget (the
  // default, and a smaller one set through RepositoryCaches). What it keeps stays under
  // that budget (one decoding over it alone would be kept), and a table it let go of is
  // read again when asked for.
  for (const uint64_t budget : {RepositoryCaches{}.adoption_table_bytes, uint64_t{1} << 20}) {
    CAPTURE(budget);
    RepositoryCaches caches;
    caches.adoption_table_bytes = budget;
    storage::MemFs mem;
    const storage::RepoLayout layout("r");
    repo::lookup::RecordReader reader(mem, layout);
    repo::hand_edits::AdoptedDocs docs(mem, layout, reader, caches);
    std::vector<std::string> folders;
    for (int f = 0; f < 20; ++f) {
      const std::string folder = storage::NewId('f');
      folders.push_back(folder);
      MakeTableDirs(mem, layout, folder);
      storage::ChangeSet change;
      std::map<std::string, repo::hand_edits::AdoptedEntry> documents;
      for (int i = 0; i < 1000; ++i) documents.emplace("note-" + std::to_string(i) + ".txt", Entry(folder, i));
      REQUIRE(docs.StageNewTable(change, folder, std::move(documents)).ok());
      REQUIRE(storage::ApplyChangeSet(mem, change, storage::ApplyOptions{}, nullptr).ok());
      CHECK(docs.TableMemoBytes() <= budget);
    }
    CHECK(docs.TableMemoSize() < 20);
    // A megabyte holds the decodings of at least 2,000 documents.
    CHECK(docs.TableMemoSize() >= budget / (uint64_t{1} << 20) * 2 - 1);
    for (const std::string& folder : folders) {
      auto found = docs.Find(folder, "note-999.txt");
      REQUIRE_MESSAGE(found.ok(), found.status().ToString());
      CHECK(*found != nullptr);
      CHECK(docs.TableMemoBytes() <= budget);
    }
  }
}

TEST_CASE("Adopted: a lookup decodes only the table that holds the name or id") {
  // Ten tables of 1,000 documents in one folder (10,000 files copied in by hand) are
  // more than the decodings kept. A lookup that decoded every table before its own
  // made each listing and each query-index scan of the folder decode tables thousands
  // of times (minutes for 10,000 files, bench/RESULTS.md).
  MemTables<> m;
  auto& mem = m.mem;
  const storage::RepoLayout& layout = m.layout;
  repo::hand_edits::AdoptedDocs& docs = m.docs;
  const std::string& folder = m.folder;
  std::map<uint64_t, std::string> series_of_table;  // a series id of each table
  for (uint64_t t = 1; t <= 10; ++t) {
    storage::ChangeSet change;
    std::map<std::string, repo::hand_edits::AdoptedEntry> documents;
    for (int i = 0; i < 1000; ++i) {
      repo::hand_edits::AdoptedEntry e = Entry(folder, static_cast<uint64_t>(i));
      if (i == 500) series_of_table[t] = e.series_id;
      documents.emplace("t" + std::to_string(t) + "-note-" + std::to_string(i) + ".txt", std::move(e));
    }
    REQUIRE(docs.StageNewTable(change, folder, std::move(documents)).ok());
    REQUIRE(storage::ApplyChangeSet(mem, change, storage::ApplyOptions{}, nullptr).ok());
  }
  REQUIRE(docs.TableMemoSize() < 10);
  const auto decodes_of = [&](const auto& lookup) {
    const uint64_t before = docs.TablesDecoded();
    lookup();
    return docs.TablesDecoded() - before;
  };
  // Both ways through the tables, twice: each lookup decodes its own table at most.
  for (int round = 0; round < 2; ++round) {
    for (uint64_t i = 0; i < 20; ++i) {
      const uint64_t t = i < 10 ? 10 - i : i - 9;
      const std::string name = "t" + std::to_string(t) + "-note-" + std::to_string(round * 7 + 3) + ".txt";
      CAPTURE(name);
      const uint64_t by_name = decodes_of([&] {
        auto found = docs.Find(folder, name);
        REQUIRE_MESSAGE(found.ok(), found.status().ToString());
        REQUIRE(*found != nullptr);
        CHECK((*found)->table == t);
      });
      CHECK(by_name <= 1);
      const uint64_t by_id = decodes_of([&] {
        auto found = docs.FindId(series_of_table[t]);
        REQUIRE_MESSAGE(found.ok(), found.status().ToString());
        REQUIRE(*found != nullptr);
        CHECK((*found)->table == t);
        CHECK((*found)->entry.series_id == series_of_table[t]);
      });
      CHECK(by_id <= 1);
    }
  }
  // What no table holds needs no decoding at all.
  const uint64_t for_nothing = decodes_of([&] {
    auto found = docs.Find(folder, "not-there.txt");
    REQUIRE(found.ok());
    CHECK(*found == nullptr);
    auto by_id = docs.FindId(storage::NewAdoptedSeriesId(folder));
    REQUIRE(by_id.ok());
    CHECK(*by_id == nullptr);
  });
  CHECK(for_nothing == 0);

  SUBCASE("a table edited by hand is read again: its keys are those of the file's old state") {
    repo::hand_edits::AdoptionTable table{
        folder, {{"added-by-hand.txt", Entry(folder, 1)}, {"t3-note-0.txt", Entry(folder, 2)}}};
    REQUIRE(
        storage::WriteFileAtomically(mem, layout.AdoptionTable(folder, 3), repo::hand_edits::AdoptionTableText(table))
            .ok());
    auto found = docs.Find(folder, "added-by-hand.txt");
    REQUIRE_MESSAGE(found.ok(), found.status().ToString());
    REQUIRE(*found != nullptr);
    CHECK((*found)->table == 3);
    auto gone = docs.Find(folder, "t3-note-5.txt");
    REQUIRE(gone.ok());
    CHECK(*gone == nullptr);
    auto by_id = docs.FindId(series_of_table[3]);
    REQUIRE(by_id.ok());
    CHECK(*by_id == nullptr);
  }
  SUBCASE("a name in two tables is the lower table's, also when found by the higher one's id") {
    const repo::hand_edits::AdoptedEntry twin = Entry(folder, 7);
    repo::hand_edits::AdoptionTable table{folder, {{"t2-note-9.txt", twin}}};
    REQUIRE(
        storage::WriteFileAtomically(mem, layout.AdoptionTable(folder, 11), repo::hand_edits::AdoptionTableText(table))
            .ok());
    auto by_id = docs.FindId(twin.series_id);
    REQUIRE(by_id.ok());
    CHECK(*by_id == nullptr);
    auto by_name = docs.Find(folder, "t2-note-9.txt");
    REQUIRE(by_name.ok());
    REQUIRE(*by_name != nullptr);
    CHECK((*by_name)->table == 2);
  }
}

TEST_CASE("Adopted: a batch of new files is taken in name order") {
  // A listing builds its children in name order: with each table holding neighbours it
  // reads one table after the other, instead of all of them for every page.
  RepoFixture f;
  fs::create_directories(f.RepoPath("many"));
  std::vector<std::string> names;
  for (int i = 0; i < 2500; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "n%05d.txt", (i * 7919) % 2500);  // written out of order
    names.push_back(name);
    WriteFile(f.RepoPath(std::string("many/") + name), "x");
  }
  std::sort(names.begin(), names.end());
  auto folder = f.repo->GetObjectByPath("many");
  REQUIRE(folder.ok());
  auto page = f.repo->GetChildren(folder->id, 0, 2500);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  CHECK(page->objects.size() == 2500);
  auto tables = Tables(f, folder->id);
  REQUIRE(tables.size() == 3);
  size_t at = 0;
  for (const auto& [n, t] : tables) {
    for (const auto& [name, entry] : t.documents) {
      REQUIRE(at < names.size());
      CHECK(name == names[at]);
      ++at;
    }
  }
  CHECK(at == 2500);
}

namespace {

// `listed` (a listing's child) is the object `read` (getObject's) in every field.
void CheckSameObject(const ObjectData& listed, const ObjectData& read) {
  CHECK(listed.id == read.id);
  CHECK(listed.base == read.base);
  CHECK(listed.type_id == read.type_id);
  CHECK(listed.name == read.name);
  CHECK(listed.path == read.path);
  CHECK(listed.parent_id == read.parent_id);
  CHECK_MESSAGE(listed.properties == read.properties, listed.properties.dump() << "\n" << read.properties.dump());
  REQUIRE(listed.content.has_value() == read.content.has_value());
  if (listed.content) {
    CHECK(listed.content->length == read.content->length);
    CHECK(listed.content->mime_type == read.content->mime_type);
    CHECK(listed.content->file_name == read.content->file_name);
    CHECK(listed.content->sha256 == read.content->sha256);
  }
  REQUIRE(listed.acl.size() == read.acl.size());
  for (size_t i = 0; i < listed.acl.size(); ++i) {
    CHECK(listed.acl[i].principal == read.acl[i].principal);
    CHECK(listed.acl[i].permissions == read.acl[i].permissions);
  }
  CHECK(listed.series_id == read.series_id);
  CHECK(listed.version_label == read.version_label);
  CHECK(listed.is_pwc == read.is_pwc);
  CHECK(listed.is_latest == read.is_latest);
  CHECK(listed.content_in_document_file == read.content_in_document_file);
}

}  // namespace

TEST_CASE("Adopted: a listing builds each document as getObject does, by id and by path") {
  // A listing builds an adopted document straight from its table's entry; a lookup by
  // id or path from the series.json and version record the entry stands for.
  RepoFixture f;
  WriteFile(f.RepoPath("notes.txt"), "some notes");
  WriteFile(f.RepoPath("data.json"), "{\"a\": 1}");
  WriteFile(f.RepoPath("no-extension"), "bytes");
  WriteFile(f.RepoPath("café \"quoted\".md"), "# title");
  WriteFile(f.RepoPath("edited.txt"), "first");
  REQUIRE(f.repo->GetChildren(f.root, 0, 100).ok());  // adopted
  WriteFile(f.RepoPath("edited.txt"), "edited by hand, longer");  // its entry taken in again
  REQUIRE(f.repo->GetObjectByPath("edited.txt").ok());
  for (int pass = 0; pass < 2; ++pass) {  // with what this process keeps, then after a restart
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    REQUIRE(page->objects.size() == 5);
    for (const ObjectData& listed : page->objects) {
      CAPTURE(listed.name);
      REQUIRE(storage::AdoptedFolderOf(listed.series_id) == f.root);
      auto by_id = f.repo->GetObject(listed.id);
      REQUIRE_MESSAGE(by_id.ok(), by_id.status().ToString());
      CheckSameObject(listed, *by_id);
      auto by_path = f.repo->GetObjectByPath(listed.name);
      REQUIRE_MESSAGE(by_path.ok(), by_path.status().ToString());
      CheckSameObject(listed, *by_path);
    }
    CHECK(Child(f, f.root, "edited.txt").properties["cmis:contentStreamLength"] == 22);
    f.Restart();
  }
}
