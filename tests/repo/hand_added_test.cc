// Files and folders a person adds or edits by hand show up with default properties.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <sys/stat.h>

#include "support/change_events.h"
#include "support/repo_fixture.h"
#include "support/temp_dir.h"

using namespace folio;
using folio::testing::ReadFile;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

TEST_CASE("Hand-added: a file and a folder become a document and a folder with stable ids") {
  RepoFixture f;
  std::filesystem::create_directories(f.RepoPath("manual/deeper"));
  WriteFile(f.RepoPath("manual/notes.md"), "# notes");
  WriteFile(f.RepoPath("manual/deeper/x.bin"), std::string("\0\1\2", 3));
  auto page = f.repo->GetChildren(f.root, 0, 10);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  REQUIRE(page->objects.size() == 1);
  const ObjectData manual = page->objects[0];
  CHECK(manual.base == BaseType::kFolder);
  CHECK(manual.properties["cmis:objectTypeId"] == "cmis:folder");
  auto inner = f.repo->GetChildren(manual.id, 0, 10);
  REQUIRE(inner.ok());
  REQUIRE(inner->objects.size() == 2);
  const ObjectData notes = inner->objects[1];
  CHECK(notes.name == "notes.md");
  CHECK(notes.properties["cmis:versionLabel"] == "1.0");
  CHECK(notes.properties["cmis:isMajorVersion"] == true);
  CHECK(notes.properties["cmis:contentStreamMimeType"] == "text/markdown");
  CHECK(notes.properties["cmis:contentStreamLength"] == 7);
  CHECK(notes.properties["cmis:creationDate"].is_number());
  CHECK(f.Content(notes.id) == "# notes");
  // Stable: the same ids on the next look and by path.
  CHECK(f.repo->GetObjectByPath("manual/notes.md")->id == notes.id);
  CHECK(f.repo->GetChildren(f.root, 0, 10)->objects[0].id == manual.id);
  auto deep = f.repo->GetObjectByPath("manual/deeper/x.bin");
  REQUIRE(deep.ok());
  CHECK(f.Content(deep->id) == std::string("\0\1\2", 3));
  // Reopening the store keeps them.
  auto reopened = Store::Open(f.dir.path());
  REQUIRE(reopened.ok());
  auto repo2 = (*reopened)->GetRepository("demo", "main");
  REQUIRE(repo2.ok());
  CHECK((*repo2)->GetObject(notes.id)->name == "notes.md");
}

TEST_CASE("Hand-edited: a changed file becomes the latest version's content, no new version") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "e.txt", "before");
  std::filesystem::remove(f.RepoPath("e.txt"));  // a new inode, as editors do
  WriteFile(f.RepoPath("e.txt"), "after, longer");
  auto o = f.repo->GetObject(doc.series_id);
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  CHECK(o->properties["cmis:versionLabel"] == "1.0");
  CHECK(o->properties["cmis:contentStreamLength"] == 13);
  CHECK(f.Content(o->id) == "after, longer");
  CHECK(ReadFile(f.RepoPath("e.txt")) == "after, longer");
}

TEST_CASE("Hand-touched: the same bytes under a new time stamp (cp, git checkout, touch) are not an edit") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "t.txt", "same bytes");
  const Json before = doc.properties;
  // A copy without -p: a new inode and a new mtime, the same bytes.
  std::filesystem::remove(f.RepoPath("t.txt"));
  WriteFile(f.RepoPath("t.txt"), "same bytes");
  std::filesystem::last_write_time(f.RepoPath("t.txt"),
                                   std::filesystem::file_time_type::clock::now() + std::chrono::hours(1));
  auto o = f.repo->GetObject(doc.series_id);
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  CHECK(o->properties["cmis:lastModifiedBy"] == before["cmis:lastModifiedBy"]);
  CHECK(o->properties["cmis:lastModificationDate"] == before["cmis:lastModificationDate"]);
  CHECK(o->properties["cmis:contentStreamLength"] == 10);
  CHECK(f.Content(o->id) == "same bytes");
  // The recorded identity was brought up to date: a later real edit is still seen.
  std::filesystem::remove(f.RepoPath("t.txt"));
  WriteFile(f.RepoPath("t.txt"), "different!");  // same size, other bytes
  std::filesystem::last_write_time(f.RepoPath("t.txt"),
                                   std::filesystem::file_time_type::clock::now() + std::chrono::hours(2));
  auto edited = f.repo->GetObject(doc.series_id);
  REQUIRE(edited.ok());
  CHECK(f.Content(edited->id) == "different!");
  CHECK(edited->properties["cmis:lastModifiedBy"] == "system");
}

TEST_CASE("Hand-touched: a data directory copied with cp -a is not edited; its new inodes are recorded once") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "c.txt", "copied bytes");
  const Json before = doc.properties;
  REQUIRE(f.repo->Checkpoint().ok());
  folio::testing::TempDir copy;
  // Every file keeps its bytes, size and time stamps, under a new inode.
  REQUIRE(std::system(("cp -a '" + f.dir.path() + "/.' '" + copy.path() + "'").c_str()) == 0);
  auto store = Store::Open(copy.path(), StoreOptions{.durable = false});
  REQUIRE(store.ok());
  auto repo = (*store)->GetRepository("demo", "main");
  REQUIRE(repo.ok());
  const uint64_t mark = *(*repo)->LatestChangeToken();
  const std::string series_path = copy.path() + "/demo/main/.folio/docs/c.txt/series.json";
  auto o = (*repo)->GetObject(doc.series_id);
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  CHECK(o->properties["cmis:lastModifiedBy"] == before["cmis:lastModifiedBy"]);
  CHECK(o->properties["cmis:lastModificationDate"] == before["cmis:lastModificationDate"]);
  CHECK(o->properties["cmis:versionLabel"] == "1.0");
  // The copy's identity is recorded: the next reads find nothing to take in.
  const Json series = Json::parse(ReadFile(series_path));
  struct stat st{};
  REQUIRE(::stat((copy.path() + "/demo/main/c.txt").c_str(), &st) == 0);
  CHECK(series["file"]["inode"].get<uint64_t>() == static_cast<uint64_t>(st.st_ino));
  const std::string recorded = ReadFile(series_path);
  for (int i = 0; i < 2; ++i) REQUIRE((*repo)->GetObject(doc.series_id).ok());
  CHECK(ReadFile(series_path) == recorded);
  CHECK(folio::testing::EventsAfter(**repo, mark).empty());
}

TEST_CASE("Hand-touched: a read-only repository writes nothing for a re-stamped file") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "r.txt", "read only");
  const std::string series_json = ReadFile(f.RepoPath(".folio/docs/r.txt/series.json"));
  std::filesystem::last_write_time(f.RepoPath("r.txt"),
                                   std::filesystem::file_time_type::clock::now() + std::chrono::hours(1));
  auto store = Store::Open(f.dir.path(), StoreOptions{.read_only = true});
  REQUIRE(store.ok());
  auto repo = (*store)->GetRepository("demo", "main");
  REQUIRE(repo.ok());
  for (int i = 0; i < 2; ++i) {  // the second time from memory
    auto o = (*repo)->GetObjectByPath("r.txt");
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->properties["cmis:lastModifiedBy"] == doc.properties["cmis:lastModifiedBy"]);
    CHECK(o->properties["cmis:lastModificationDate"] == doc.properties["cmis:lastModificationDate"]);
  }
  CHECK(ReadFile(f.RepoPath(".folio/docs/r.txt/series.json")) == series_json);
}

TEST_CASE("Hand-removed: a deleted file is gone from listings and lookups") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "gone.txt", "x");
  std::filesystem::remove(f.RepoPath("gone.txt"));
  CHECK(f.repo->GetObject(doc.id).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetChildren(f.root, 0, 10)->total == 0);
}
