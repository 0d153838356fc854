// acl::GuardedRepository (docs/API.md §11.3): every read checks or filters by the
// caller's permissions, every write carries the caller's check.
#include "repo/acl/guarded_repository.h"

#include <doctest/doctest.h>

#include <memory>

#include "repo/acl/sample_user.h"
#include "support/change_events.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::EventsAfter;
using folio::testing::RepoFixture;

namespace {

acl::GuardedRepository AsBob(RepoFixture& f) {
  return acl::GuardedRepository(f.repo, acl::Checker(acl::Caller::User(folio::testing::AliceAdminBobMember(), "bob")));
}

const std::vector<Ace> kBobReads = {Ace{"bob", {"cmis:read"}}};
constexpr const char* kNothingDisclosed = "user 'bob' has no permission on an object this request needs";

std::vector<std::string> Names(const std::vector<ObjectData>& objects) {
  std::vector<std::string> names;
  for (const ObjectData& o : objects) names.push_back(o.name);
  return names;
}

// Records the names a walk enters.
class Names_ : public TreeVisitor {
 public:
  Status Enter(const ObjectData& object, int64_t) override {
    names.push_back(object.name);
    return OkStatus();
  }
  Status Leave() override { return OkStatus(); }
  std::vector<std::string> names;
};

}  // namespace

TEST_CASE("GuardedRepository: an object the caller may not read is refused, naming nothing of it") {
  RepoFixture f;
  const ObjectData folder = f.Folder(f.root, "secret");
  const ObjectData doc = f.Doc(folder.id, "plan.txt", "one");
  acl::GuardedRepository bob = AsBob(f);
  for (auto got : {bob.GetObject(doc.id, acl::Action::kRead),
                   bob.GetObjectByPath("secret/plan.txt", acl::Action::kRead),
                   // A version that does not exist answers the same: nothing is told of the document.
                   bob.GetObject(doc.series_id + ";9.9", acl::Action::kRead)}) {
    REQUIRE(got.status().kind() == ErrorKind::kPermissionDenied);
    CHECK(got.status().message() == kNothingDisclosed);
  }
  // Readable, but the action needs more: the denial names the object and the permission.
  REQUIRE(f.repo->SetAcl(doc.id, kBobReads, WriteCheck::Trusted()).ok());
  CHECK(bob.GetObject(doc.id, acl::Action::kRead).ok());
  auto write = bob.GetObject(doc.id, acl::Action::kUpdateProperties);
  REQUIRE(write.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(write.status().message(), "needs cmis:write on '/secret/plan.txt' and has cmis:read"));
}

TEST_CASE("GuardedRepository: listings leave out what the caller may not read, and do not count it") {
  RepoFixture f;
  const ObjectData folder = f.Folder(f.root, "f");
  REQUIRE(f.repo->SetAcl(folder.id, kBobReads, WriteCheck::Trusted()).ok());
  const ObjectData shown = f.Doc(folder.id, "a.txt", "a");
  f.Doc(folder.id, "b.txt", "b");  // bob may not read it
  const ObjectData hidden_folder = f.Folder(folder.id, "c");
  const ObjectData below = f.Doc(hidden_folder.id, "d.txt", "d");
  REQUIRE(f.repo->SetAcl(shown.id, kBobReads, WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->SetAcl(below.id, kBobReads,
                         WriteCheck::Trusted()).ok());  // readable, but under a folder bob may not read
  acl::GuardedRepository bob = AsBob(f);
  const ObjectData seen = **bob.GetObject(folder.id, acl::Action::kRead);

  auto cursor = bob.OpenChildren(seen, 0, 100, {});
  REQUIRE(cursor.ok());
  std::vector<std::string> children;
  for (;;) {
    auto child = (*cursor)->Next();
    REQUIRE(child.ok());
    if (!*child) break;
    children.push_back((*child)->name);
  }
  CHECK(children == std::vector<std::string>{"a.txt"});
  CHECK((*cursor)->total() == 1);

  Names_ walk;
  REQUIRE(bob.VisitDescendants(seen, TreeRequest{}, walk).ok());
  CHECK(walk.names == std::vector<std::string>{"a.txt"});  // "c" left out with what it holds

  auto parents = bob.GetParents(**bob.GetObject(shown.id, acl::Action::kRead));
  REQUIRE(parents.ok());
  CHECK(Names(*parents) == std::vector<std::string>{"f"});
  // The folder of a folder bob may read, when bob may not read the folder holding it.
  const ObjectData inner = f.Folder(hidden_folder.id, "g");
  REQUIRE(f.repo->SetAcl(inner.id, kBobReads, WriteCheck::Trusted()).ok());
  auto folder_parent = bob.GetFolderParent(**bob.GetObject(inner.id, acl::Action::kRead));
  REQUIRE(folder_parent.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(folder_parent.status().message() == kNothingDisclosed);
  CHECK((*bob.GetFolderParent(seen))->id == f.root);

  // Working copies: only bob's readable one.
  REQUIRE(f.repo->CheckOut(shown.id, "alice", WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->CheckOut(f.Doc(f.root, "e.txt", "e").id, "alice", WriteCheck::Trusted()).ok());
  auto checked_out = bob.GetCheckedOut(nullptr);
  REQUIRE(checked_out.ok());
  REQUIRE(checked_out->size() == 1);
  CHECK((*checked_out)[0].series_id == shown.series_id);

  // A listing of what an unreadable object holds is refused before anything is listed.
  ObjectData unreadable;
  unreadable.id = hidden_folder.id;
  CHECK(bob.OpenChildren(unreadable, 0, 100, {}).status().kind() == ErrorKind::kPermissionDenied);
  CHECK(bob.GetRelationships(unreadable, RelationshipDirection::kEither).status().kind() ==
        ErrorKind::kPermissionDenied);
}

TEST_CASE("GuardedRepository: the change log shows bob only the events of what he may read") {
  RepoFixture f;
  const uint64_t mark = *f.repo->LatestChangeToken();
  const ObjectData shown = f.Doc(f.root, "a.txt", "a");
  f.Doc(f.root, "b.txt", "b");
  REQUIRE(f.repo->SetAcl(shown.id, kBobReads, WriteCheck::Trusted()).ok());
  acl::GuardedRepository bob = AsBob(f);
  auto changes = bob.ReadChanges(mark + 1, 100, false);
  REQUIRE(changes.ok());
  CHECK(changes->filtered);
  CHECK_FALSE(changes->has_more);
  REQUIRE(!changes->events.empty());
  for (const acl::VisibleChange& c : changes->events) CHECK(c.event.object_id == shown.id);
  CHECK(EventsAfter(*f.repo, mark).size() > changes->events.size());
}

TEST_CASE("GuardedRepository: a write is checked inside the change, as the caller") {
  RepoFixture f;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  REQUIRE(f.repo->SetAcl(doc.id, kBobReads, WriteCheck::Trusted()).ok());
  acl::GuardedRepository bob = AsBob(f);
  const uint64_t mark = *f.repo->LatestChangeToken();
  auto updated = bob.UpdateProperties(doc.id, Json{{"cmis:description", "x"}});
  REQUIRE(updated.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(updated.status().message(), "needs cmis:write on '/a.txt'"));
  CHECK(bob.Delete(doc.id, true).kind() == ErrorKind::kPermissionDenied);
  CHECK(EventsAfter(*f.repo, mark).empty());
  NewObject folder;
  folder.type_id = "cmis:folder";
  folder.name = "g";
  const ObjectData read_only = f.Folder(f.root, "r");
  REQUIRE(f.repo->SetAcl(read_only.id, kBobReads, WriteCheck::Trusted()).ok());
  const uint64_t mark2 = *f.repo->LatestChangeToken();
  CHECK(bob.CreateFolder(read_only.id, folder).status().kind() == ErrorKind::kPermissionDenied);
  CHECK(EventsAfter(*f.repo, mark2).empty());
  REQUIRE(f.repo->SetAcl(doc.id, {Ace{"bob", {"cmis:write"}}}, WriteCheck::Trusted()).ok());
  auto allowed = bob.UpdateProperties(doc.id, Json{{"cmis:description", "x"}});
  REQUIRE(allowed.ok());
  CHECK(allowed->properties.value("cmis:lastModifiedBy", "") == "bob");
}
