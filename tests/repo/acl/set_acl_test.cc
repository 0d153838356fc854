// Repository::SetAcl, the engine's hook for applyACL (docs/API.md §11.4): one atomic
// change, a "security" event in the change log, every version of a series and its
// working copy sharing the entries, and nothing written when nothing changes.
#include <doctest/doctest.h>

#include "folio/fsck.h"
#include "folio/repository.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::RepoFixture;

namespace {

std::vector<Ace> Entries(std::initializer_list<std::pair<std::string, std::string>> list) {
  std::vector<Ace> out;
  for (const auto& [principal, permission] : list) out.push_back(Ace{principal, {permission}});
  return out;
}

bool SameEntries(const std::vector<Ace>& a, const std::vector<Ace>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].principal != b[i].principal || a[i].permissions != b[i].permissions) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("SetAcl: a folder's entries change, its properties do not, and the change log says 'security'") {
  RepoFixture f;
  ObjectData folder = f.Folder(f.root, "f");
  const uint64_t before = f.repo->LatestChangeToken().value();
  const std::vector<Ace> acl = Entries({{"alice", "cmis:all"}, {"bob", "cmis:read"}});
  auto set = f.repo->SetAcl(folder.id, acl, WriteCheck::Trusted());
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  CHECK(SameEntries(set->acl, acl));
  CHECK(SameEntries(f.repo->GetObject(folder.id)->acl, acl));
  CHECK(set->properties["cmis:changeToken"] == folder.properties["cmis:changeToken"]);
  auto changes = f.repo->ReadChanges(before + 1, 10);
  REQUIRE(changes.ok());
  REQUIRE(changes->events.size() == 1);
  CHECK(changes->events[0].type == "security");
  CHECK(changes->events[0].object_id == folder.id);
  CHECK(changes->events[0].base_type_id == "cmis:folder");
  // The same entries again: nothing written, no event.
  REQUIRE(f.repo->SetAcl(folder.id, acl, WriteCheck::Trusted()).ok());
  CHECK(f.repo->LatestChangeToken().value() == before + 1);
  // The parent keeps its own entries (objectonly).
  CHECK_FALSE(SameEntries(f.repo->GetObject(f.root)->acl, acl));
}

TEST_CASE("SetAcl: a version series shares its ACL: every version and the working copy change together") {
  RepoFixture f;
  ObjectData v1 = f.Doc(f.root, "d.txt", "one");
  auto pwc = f.repo->CheckOut(v1.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CheckInRequest in;
  in.content = ContentSource::FromBytes("two");
  auto v2 = f.repo->CheckIn(pwc->id, in, "alice", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  auto pwc2 = f.repo->CheckOut(v2->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc2.ok());
  const std::vector<Ace> acl = Entries({{"carol", "cmis:write"}});
  REQUIRE(f.repo->SetAcl(v1.id, acl, WriteCheck::Trusted()).ok());  // addressed through an old version
  for (const std::string& id : {v1.id, v2->id, pwc2->id}) {
    CAPTURE(id);
    CHECK(SameEntries(f.repo->GetObject(id)->acl, acl));
  }
  // A check-in that adds entries reaches the versions before it.
  CheckInRequest with_entry;
  with_entry.add_aces = Entries({{"dave", "cmis:read"}});
  auto v3 = f.repo->CheckIn(pwc2->id, with_entry, "alice", WriteCheck::Trusted());
  REQUIRE(v3.ok());
  const std::vector<Ace> both = Entries({{"carol", "cmis:write"}, {"dave", "cmis:read"}});
  for (const std::string& id : {v1.id, v2->id, v3->id}) {
    CAPTURE(id);
    CHECK(SameEntries(f.repo->GetObject(id)->acl, both));
  }
  auto report = RunFsck(f.dir.path(), FsckOptions{});
  REQUIRE(report.ok());
  CHECK(report->clean());
}

TEST_CASE("SetAcl: an unknown id is objectNotFound and changes nothing") {
  RepoFixture f;
  const uint64_t before = f.repo->LatestChangeToken().value();
  auto set = f.repo->SetAcl("f-nope", Entries({{"bob", "cmis:read"}}), WriteCheck::Trusted());
  CHECK(set.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->LatestChangeToken().value() == before);
}
