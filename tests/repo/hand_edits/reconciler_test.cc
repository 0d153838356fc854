// Rule R1 (docs/STORAGE.md §10), its reconciling half: lookups only record what was
// made, edited, moved or removed by hand (repo/hand_edits/seen_edits.h); the Reconciler takes it
// in, outside every lookup, and the next read answers with it. The committer refuses
// any change begun under a lookup (kRuntime: a read that tried would fail with it).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "storage/lookup_scope.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

namespace {

// The events of the change log after token `from`, as "type id" lines.
std::vector<std::pair<std::string, std::string>> EventsAfter(Repository& repo, uint64_t from) {
  auto page = repo.ReadChanges(from + 1, 10000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::pair<std::string, std::string>> out;
  for (const ChangeEventInfo& e : page->events) out.emplace_back(e.type, e.object_id);
  return out;
}

uint64_t Latest(Repository& repo) {
  auto t = repo.LatestChangeToken();
  REQUIRE(t.ok());
  return *t;
}

bool HasEvent(const std::vector<std::pair<std::string, std::string>>& events, const std::string& type,
              const std::string& id_prefix) {
  for (const auto& [t, id] : events) {
    if (t == type && id.rfind(id_prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Reconciler: every kind of hand edit is taken in by the next read, never inside a lookup (Rule R1)") {
  RepoFixture f;
  // A lookup that began a change would have it refused (kRuntime) and fail the read.
  REQUIRE_FALSE(storage::LookupScope::Active());

  SUBCASE("a file added by hand: adopted by a lookup by path, with a created event") {
    const uint64_t from = Latest(*f.repo);
    WriteFile(f.RepoPath("added.txt"), "by hand");
    auto o = f.repo->GetObjectByPath("added.txt");
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->name == "added.txt");
    CHECK(f.Content(o->id) == "by hand");
    CHECK(HasEvent(EventsAfter(*f.repo, from), "created", o->series_id));
    CHECK(f.repo->GetObjectByPath("added.txt")->id == o->id);  // stable
  }
  SUBCASE("files added by hand: adopted by the first listing of their folder, every one in one page") {
    for (int i = 0; i < 30; ++i) WriteFile(f.RepoPath("f" + std::to_string(100 + i) + ".txt"), "x");
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    CHECK(page->objects.size() == 30);
    CHECK(page->total == 30);
    for (const ObjectData& o : page->objects) CHECK_FALSE(o.id.empty());
  }
  SUBCASE("a folder made by hand: adopted by a lookup by path and by its parent's listing") {
    std::filesystem::create_directories(f.RepoPath("made/deeper"));
    auto o = f.repo->GetObjectByPath("made/deeper");
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->base == BaseType::kFolder);
    auto page = f.repo->GetChildren(f.root, 0, 10);
    REQUIRE(page.ok());
    REQUIRE(page->objects.size() == 1);
    CHECK(page->objects[0].name == "made");
  }
  SUBCASE("a document's file removed by hand: gone for a lookup by id, with a deleted event") {
    ObjectData doc = f.Doc(f.root, "gone.txt", "x");
    const uint64_t from = Latest(*f.repo);
    std::filesystem::remove(f.RepoPath("gone.txt"));
    auto o = f.repo->GetObject(doc.series_id);
    CHECK(o.status().kind() == ErrorKind::kObjectNotFound);
    CHECK(HasEvent(EventsAfter(*f.repo, from), "deleted", doc.series_id));
  }
  SUBCASE("a folder removed by hand: its objects' deletion recorded by a lookup of its id") {
    ObjectData folder = f.Folder(f.root, "tree");
    ObjectData doc = f.Doc(folder.id, "in.txt", "x");
    const uint64_t from = Latest(*f.repo);
    std::filesystem::remove_all(f.RepoPath("tree"));
    CHECK(f.repo->GetObject(folder.id).status().kind() == ErrorKind::kObjectNotFound);
    const auto events = EventsAfter(*f.repo, from);
    CHECK(HasEvent(events, "deleted", folder.id));
    CHECK(HasEvent(events, "deleted", doc.series_id));
  }
  SUBCASE("a folder moved by hand: found at its new place by a lookup of its id, same id") {
    ObjectData folder = f.Folder(f.root, "before");
    ObjectData doc = f.Doc(folder.id, "in.txt", "x");
    std::filesystem::rename(f.RepoPath("before"), f.RepoPath("after"));
    auto o = f.repo->GetObject(folder.id);
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->path == "after");
    auto d = f.repo->GetObject(doc.series_id);
    REQUIRE_MESSAGE(d.ok(), d.status().ToString());
    CHECK(d->path == "after/in.txt");
  }
  SUBCASE("a visible file appended to: the latest version's content, with an updated event") {
    ObjectData doc = f.Doc(f.root, "grow.txt", "one");
    const uint64_t from = Latest(*f.repo);
    {
      std::ofstream out(f.RepoPath("grow.txt"), std::ios::app | std::ios::binary);
      out << " two";
    }
    auto o = f.repo->GetObject(doc.series_id);
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->properties["cmis:contentStreamLength"] == 7);
    CHECK(f.Content(o->id) == "one two");
    CHECK(HasEvent(EventsAfter(*f.repo, from), "updated", doc.series_id));
  }
  SUBCASE("an adopted document's file edited by hand: its entry takes the edit in") {
    WriteFile(f.RepoPath("adopted.txt"), "first");
    auto o = f.repo->GetObjectByPath("adopted.txt");
    REQUIRE(o.ok());
    const uint64_t from = Latest(*f.repo);
    std::filesystem::remove(f.RepoPath("adopted.txt"));
    WriteFile(f.RepoPath("adopted.txt"), "second, longer");
    auto again = f.repo->GetObject(o->id);
    REQUIRE_MESSAGE(again.ok(), again.status().ToString());
    CHECK(again->properties["cmis:contentStreamLength"] == 14);
    CHECK(HasEvent(EventsAfter(*f.repo, from), "updated", o->series_id));
  }
  SUBCASE("a version's record (its sidecar) edited by hand: the next read shows it, nothing recorded") {
    ObjectData doc = f.Doc(f.root, "side.txt", "x");
    const uint64_t from = Latest(*f.repo);
    const std::string sidecar = f.RepoPath(".folio/docs/side.txt/1.0.json");
    std::string text = folio::testing::ReadFile(sidecar);
    const std::string by = "\"cmis:lastModifiedBy\": \"alice\"";
    REQUIRE(text.find(by) != std::string::npos);
    text.replace(text.find(by), by.size(), "\"cmis:lastModifiedBy\": \"bob\"");
    std::filesystem::remove(sidecar);  // a new inode: seen whatever the clock's granularity
    WriteFile(sidecar, text);
    auto o = f.repo->GetObject(doc.series_id);
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->properties["cmis:lastModifiedBy"] == "bob");
    CHECK(EventsAfter(*f.repo, from).empty());
  }
  SUBCASE("a write on an adopted document gives it its files first, then is made") {
    WriteFile(f.RepoPath("w.txt"), "adopted");
    auto o = f.repo->GetObjectByPath("w.txt");
    REQUIRE(o.ok());
    auto out = f.repo->CheckOut(o->id, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(out.ok(), out.status().ToString());
    CHECK(out->is_pwc);
  }
  CHECK_FALSE(storage::LookupScope::Active());
}
