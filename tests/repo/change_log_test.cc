// The change log as the engine records it (docs/API.md §7.12, docs/STORAGE.md §8.1):
// one event per change of each kind, a file edited by hand is one "updated" event when
// first seen, the ACL hook records a "security" event, and the events of an interrupted
// change appear with it once the next writer recovers.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

std::vector<std::string> EventsAfter(Repository& r, uint64_t after) {
  auto page = r.ReadChanges(after + 1, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) out.push_back(e.type + " " + e.object_id);
  return out;
}

TEST_CASE("Change log: items, relationships, deleteTree, cancelCheckOut and hand edits are each one event") {
  RepoFixture f;
  Repository& r = *f.repo;
  const ObjectData folder = f.Folder(f.root, "t");
  const ObjectData doc = f.Doc(folder.id, "a.txt", "one");
  NewObject item;
  item.name = "i";
  auto made_item = r.CreateItem(folder.id, item, "alice");
  REQUIRE(made_item.ok());
  NewObject rel;
  rel.name = "r";
  rel.type_id = "cmis:relationship";
  rel.properties = Json{{"cmis:sourceId", doc.id}, {"cmis:targetId", folder.id}};
  auto made_rel = r.CreateRelationship(rel, "alice");
  REQUIRE(made_rel.ok());
  uint64_t mark = *r.LatestChangeToken();
  auto pwc = r.CheckOut(doc.id, "alice");
  REQUIRE(pwc.ok());
  REQUIRE(r.CancelCheckOut(pwc->id).ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"created " + pwc->id, "deleted " + pwc->id});
  // An edit by hand: one "updated" event of the latest version when Folio first reads it.
  mark = *r.LatestChangeToken();
  std::ofstream(f.RepoPath("t/a.txt")) << "edited by hand, longer";
  REQUIRE(r.GetObject(doc.id).ok());
  REQUIRE(r.GetObject(doc.id).ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"updated " + doc.id});
  // The ACL hook for the auth helper.
  mark = *r.LatestChangeToken();
  REQUIRE(r.RecordSecurityChange(folder.id).ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"security " + folder.id});
  CHECK(r.RecordSecurityChange("fnothing").kind() == ErrorKind::kObjectNotFound);
  // deleteTree: one "deleted" per object of the tree; the relationship stays.
  mark = *r.LatestChangeToken();
  REQUIRE(r.DeleteTree(folder.id).ok());
  const auto events = EventsAfter(r, mark);
  CHECK(events.size() == 3);
  for (const std::string& id : {folder.id, doc.series_id, made_item->id}) {
    CHECK(std::count(events.begin(), events.end(), "deleted " + id) == 1);
  }
  auto status = r.GetChangeLogStatus();
  REQUIRE(status.ok());
  CHECK(status->latest == *r.LatestChangeToken());
  CHECK(status->truncated == false);
}

}  // namespace
}  // namespace folio::testing
