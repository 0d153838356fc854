// The change log as the engine records it (docs/API.md §7.12, docs/STORAGE.md §8.1):
// one event per change of each kind, a file edited by hand is one "updated" event when
// first seen, the ACL hook records a "security" event, and the events of an interrupted
// change appear with it once the next writer recovers.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "support/change_events.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

TEST_CASE("Change log: items, relationships, deleteTree, cancelCheckOut and hand edits are each one event") {
  RepoFixture f;
  Repository& r = *f.repo;
  const ObjectData folder = f.Folder(f.root, "t");
  const ObjectData doc = f.Doc(folder.id, "a.txt", "one");
  NewObject item;
  item.name = "i";
  auto made_item = r.CreateItem(folder.id, item, "alice", WriteCheck::Trusted());
  REQUIRE(made_item.ok());
  NewObject rel;
  rel.name = "r";
  rel.type_id = "cmis:relationship";
  rel.properties = Json{{"cmis:sourceId", doc.id}, {"cmis:targetId", folder.id}};
  auto made_rel = r.CreateRelationship(rel, "alice", WriteCheck::Trusted());
  REQUIRE(made_rel.ok());
  uint64_t mark = *r.LatestChangeToken();
  auto pwc = r.CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  REQUIRE(r.CancelCheckOut(pwc->id, WriteCheck::Trusted()).ok());
  // Check-out makes the working copy and checks out the series the latest version shows;
  // cancelling undoes both (docs/API.md §7.12).
  CHECK(EventsAfter(r, mark) ==
        std::vector<std::string>{"created " + pwc->id, "updated " + doc.id, "deleted " + pwc->id, "updated " + doc.id});
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
  REQUIRE(r.DeleteTree(folder.id, WriteCheck::Trusted()).ok());
  const auto events = EventsAfter(r, mark);
  CHECK(events.size() == 3);
  for (const std::string& id : {folder.id, doc.id, made_item->id}) {
    CHECK(std::count(events.begin(), events.end(), "deleted " + id) == 1);
  }
  auto status = r.GetChangeLogStatus();
  REQUIRE(status.ok());
  CHECK(status->latest == *r.LatestChangeToken());
  CHECK(status->truncated == false);
}

// "type object-id object-type-id" of the events after `after`.
std::vector<std::string> TypedEventsAfter(Repository& r, uint64_t after) {
  auto page = r.ReadChanges(after + 1, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) out.push_back(e.type + " " + e.object_id + " " + e.type_id);
  return out;
}

void MakeType(Repository& r, const std::string& id, const std::string& parent) {
  auto t = r.CreateType(Json{{"id", id}, {"parentId", parent}, {"displayName", id}}, WriteCheck::Trusted());
  REQUIRE_MESSAGE(t.ok(), t.status().ToString());
}

TEST_CASE("Change log: check-out, check-in and cancel log the working copy and the series' latest version") {
  RepoFixture f;
  Repository& r = *f.repo;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  uint64_t mark = *r.LatestChangeToken();
  auto pwc = r.CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  auto v2 = r.CheckIn(pwc->id, CheckInRequest{}, "alice", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  // Check-in: the working copy goes, the new version comes; no security event without
  // entries to change.
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"created " + pwc->id, "updated " + doc.id,
                                                         "deleted " + pwc->id, "created " + v2->id});
  // A document created checked out has no version to update: its working copy alone.
  mark = *r.LatestChangeToken();
  const ObjectData draft = f.Doc(f.root, "draft.txt", "d", VersioningState::kCheckedOut);
  REQUIRE(r.CancelCheckOut(draft.id, WriteCheck::Trusted()).ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"created " + draft.id, "deleted " + draft.id});
  // Deleting a working copy is cancelling the check-out: the same events.
  auto pwc3 = r.CheckOut(v2->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc3.ok());
  mark = *r.LatestChangeToken();
  REQUIRE(r.Delete(pwc3->id, true, WriteCheck::Trusted()).ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"deleted " + pwc3->id, "updated " + v2->id});
}

TEST_CASE("Change log: a check-in that changes entries records a security event of the new version") {
  RepoFixture f;
  Repository& r = *f.repo;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  auto pwc = r.CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  uint64_t mark = *r.LatestChangeToken();
  CheckInRequest req;
  req.add_aces = {Ace{"bob", {"cmis:read"}}};
  auto v2 = r.CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  CHECK(EventsAfter(r, mark) ==
        std::vector<std::string>{"deleted " + pwc->id, "created " + v2->id, "security " + v2->id});
  // Entries that change nothing (bob holds read already): no security event.
  auto pwc2 = r.CheckOut(v2->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc2.ok());
  mark = *r.LatestChangeToken();
  auto v3 = r.CheckIn(pwc2->id, req, "alice", WriteCheck::Trusted());
  REQUIRE(v3.ok());
  CHECK(EventsAfter(r, mark) == std::vector<std::string>{"deleted " + pwc2->id, "created " + v3->id});
}

TEST_CASE("Change log: events name each object's own type (deleteTree, cancelCheckOut, move, delete)") {
  RepoFixture f;
  Repository& r = *f.repo;
  MakeType(r, "acme:box", "cmis:folder");
  MakeType(r, "acme:memo", "cmis:document");
  MakeType(r, "acme:card", "cmis:item");
  NewObject box;
  box.name = "box";
  box.type_id = "acme:box";
  auto top = r.CreateFolder(f.root, box, "alice", WriteCheck::Trusted());
  REQUIRE(top.ok());
  box.name = "inner";
  auto inner = r.CreateFolder(top->id, box, "alice", WriteCheck::Trusted());
  REQUIRE(inner.ok());
  NewObject memo;
  memo.name = "m.txt";
  memo.type_id = "acme:memo";
  auto m = r.CreateDocument(inner->id, memo, ContentSource::FromBytes("x"), VersioningState::kMajor, "alice",
                            WriteCheck::Trusted());
  REQUIRE(m.ok());
  memo.name = "draft.txt";
  auto draft = r.CreateDocument(inner->id, memo, ContentSource::FromBytes("y"), VersioningState::kCheckedOut, "alice",
                                WriteCheck::Trusted());
  REQUIRE(draft.ok());
  NewObject card;
  card.name = "c";
  card.type_id = "acme:card";
  auto c = r.CreateItem(top->id, card, "alice", WriteCheck::Trusted());
  REQUIRE(c.ok());

  uint64_t mark = *r.LatestChangeToken();
  auto pwc = r.CheckOut(m->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  REQUIRE(r.CancelCheckOut(pwc->id, WriteCheck::Trusted()).ok());
  const std::string target = f.Folder(f.root, "target").id;
  mark = *r.LatestChangeToken() - 1;  // the folder "target" is the first event shown
  REQUIRE(r.Move(c->id, target, "", "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.Move(c->id, top->id, "", "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.Move(m->id, target, "", "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.Move(m->id, inner->id, "", "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.Move(inner->id, target, "", "alice", WriteCheck::Trusted()).ok());
  REQUIRE(r.Move(inner->id, top->id, "", "alice", WriteCheck::Trusted()).ok());
  CHECK(TypedEventsAfter(r, mark) ==
        std::vector<std::string>{"created " + target + " cmis:folder",
                                 "updated " + c->id + " acme:card", "updated " + c->id + " acme:card",
                                 "updated " + m->id + " acme:memo", "updated " + m->id + " acme:memo",
                                 "updated " + inner->id + " acme:box", "updated " + inner->id + " acme:box"});
  mark = *r.LatestChangeToken();
  auto pwc2 = r.CheckOut(m->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc2.ok());
  REQUIRE(r.CancelCheckOut(pwc2->id, WriteCheck::Trusted()).ok());
  CHECK(TypedEventsAfter(r, mark) ==
        std::vector<std::string>{"created " + pwc2->id + " acme:memo", "updated " + m->id + " acme:memo",
                                 "deleted " + pwc2->id + " acme:memo", "updated " + m->id + " acme:memo"});
  // deleteTree: every object with its own type, the document created checked out too.
  mark = *r.LatestChangeToken();
  REQUIRE(r.DeleteTree(top->id, WriteCheck::Trusted()).ok());
  auto events = TypedEventsAfter(r, mark);
  std::sort(events.begin(), events.end());
  std::vector<std::string> want = {"deleted " + top->id + " acme:box", "deleted " + inner->id + " acme:box",
                                   "deleted " + m->id + " acme:memo",
                                   "deleted " + draft->id + " acme:memo", "deleted " + c->id + " acme:card"};
  std::sort(want.begin(), want.end());
  CHECK(events == want);
  // Deleting a document created checked out names its type too.
  memo.name = "d2.txt";
  auto d2 = r.CreateDocument(target, memo, std::nullopt, VersioningState::kCheckedOut, "alice", WriteCheck::Trusted());
  REQUIRE(d2.ok());
  mark = *r.LatestChangeToken();
  REQUIRE(r.Delete(d2->series_id, true, WriteCheck::Trusted()).ok());
  CHECK(TypedEventsAfter(r, mark) == std::vector<std::string>{"deleted " + d2->id + " acme:memo"});
}

TEST_CASE("Change log: a document file removed by hand is one deleted event, its metadata kept in lost+found") {
  RepoFixture f;
  Repository& r = *f.repo;
  MakeType(r, "acme:memo", "cmis:document");
  const ObjectData folder = f.Folder(f.root, "t");
  NewObject memo;
  memo.name = "gone.txt";
  memo.type_id = "acme:memo";
  auto doc = r.CreateDocument(folder.id, memo, ContentSource::FromBytes("v1"), VersioningState::kMajor, "alice",
                              WriteCheck::Trusted());
  REQUIRE(doc.ok());
  auto pwc = r.CheckOut(doc->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  auto v2 = r.CheckIn(pwc->id, CheckInRequest{}, "alice", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  const ObjectData kept = f.Doc(folder.id, "kept.txt", "k");
  const ObjectData by_path = f.Doc(folder.id, "by-path.txt", "p");
  const ObjectData by_id = f.Doc(folder.id, "by-id.txt", "i");

  SUBCASE("seen by a listing of its folder") {
    const uint64_t mark = *r.LatestChangeToken();
    std::filesystem::remove(f.RepoPath("t/gone.txt"));
    auto page = r.GetChildren(folder.id, 0, 100);
    REQUIRE(page.ok());
    CHECK(page->objects.size() == 3);
    // Seen again, by every way there is: no second event.
    REQUIRE(r.GetChildren(folder.id, 0, 100).ok());
    CHECK(r.GetObject(doc->series_id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(r.GetObject(v2->id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(r.GetObjectByPath("t/gone.txt").status().kind() == ErrorKind::kObjectNotFound);
    // One event per version, by the ids their "created" events named.
    CHECK(TypedEventsAfter(r, mark) ==
          std::vector<std::string>{"deleted " + doc->id + " acme:memo", "deleted " + v2->id + " acme:memo"});
    // The versions are not lost: they wait in lost+found, as fsck --repair would keep them.
    bool found = false;
    for (const auto& e : std::filesystem::recursive_directory_iterator(f.RepoPath(".folio/lost+found"))) {
      if (e.path().filename() == "1.0.content") found = ReadFile(e.path()) == "v1";
    }
    CHECK(found);
    // The name is free again: a new document may take it.
    CHECK(f.Doc(folder.id, "gone.txt", "new").name == "gone.txt");
  }
  SUBCASE("seen by a lookup by path, or by id") {
    const uint64_t mark = *r.LatestChangeToken();
    std::filesystem::remove(f.RepoPath("t/by-path.txt"));
    std::filesystem::remove(f.RepoPath("t/by-id.txt"));
    CHECK(r.GetObjectByPath("t/by-path.txt").status().kind() == ErrorKind::kObjectNotFound);
    CHECK(r.GetObject(by_id.id).status().kind() == ErrorKind::kObjectNotFound);
    CHECK(EventsAfter(r, mark) ==
          std::vector<std::string>{"deleted " + by_path.id, "deleted " + by_id.id});
    REQUIRE(r.GetChildren(folder.id, 0, 100).ok());
    CHECK(EventsAfter(r, mark).size() == 2);
  }
  // A checked-out document whose file goes: the whole document goes, working copy too.
  SUBCASE("checked out") {
    auto co = r.CheckOut(kept.id, "alice", WriteCheck::Trusted());
    REQUIRE(co.ok());
    const uint64_t mark = *r.LatestChangeToken();
    std::filesystem::remove(f.RepoPath("t/kept.txt"));
    REQUIRE(r.GetChildren(folder.id, 0, 100).ok());
    CHECK(EventsAfter(r, mark) == std::vector<std::string>{"deleted " + kept.id, "deleted " + co->id});
    CHECK(r.GetObject(co->id).status().kind() == ErrorKind::kObjectNotFound);
    auto out = r.GetCheckedOut("");
    REQUIRE(out.ok());
    CHECK(out->empty());
  }
}

TEST_CASE("Change log: a read-only repository records nothing for a file removed by hand") {
  RepoFixture f;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  const uint64_t mark = *f.repo->LatestChangeToken();
  auto ro = Repository::Open(f.fs(), "demo/main", true);
  REQUIRE(ro.ok());
  std::filesystem::remove(f.RepoPath("a.txt"));
  CHECK((*ro)->GetObject(doc.id).status().kind() == ErrorKind::kObjectNotFound);
  REQUIRE((*ro)->GetChildren(f.root, 0, 10).ok());
  CHECK(*f.repo->LatestChangeToken() == mark);
  CHECK(f.Has(".folio/docs/a.txt/series.json"));  // nothing was moved either
}

}  // namespace
}  // namespace folio::testing
