// The permission of a write is checked inside the change (WriteCheck,
// folio/repository.h; docs/API.md §11.3): on the objects as the change finds them,
// under the repository's write exclusion, so that an applyACL cannot come between the
// check and the write; for every write family, with the role of each object.
#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <memory>

#include "repo/acl/checker.h"
#include "repo/acl/sample_user.h"
#include "support/change_events.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::EventsAfter;
using folio::testing::RepoFixture;

namespace {

acl::Checker Bob() { return acl::Checker(acl::Caller::User(folio::testing::AliceAdminBobMember(), "bob")); }

}  // namespace

TEST_CASE("WriteCheck: a revoke acknowledged before the write's change is staged refuses the write") {
  RepoFixture f;
  const ObjectData folder = f.Folder(f.root, "f");
  const ObjectData doc = f.Doc(folder.id, "a.txt", "one");
  REQUIRE(f.repo->SetAcl(doc.id, {Ace{"bob", {"cmis:write"}}}, WriteCheck::Trusted()).ok());
  // What the HTTP layer saw when it looked the object up: bob may write.
  const ObjectData seen = *f.repo->GetObject(doc.id);
  CHECK(Bob().Require(acl::Action::kUpdateProperties, seen).ok());
  // The revoke is acknowledged; then bob's change is staged.
  REQUIRE(f.repo->SetAcl(doc.id, {Ace{"bob", {"cmis:read"}}}, WriteCheck::Trusted()).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const WriteCheck check = Bob().ForWrite(acl::Action::kUpdateProperties);
  auto updated = f.repo->UpdateProperties(seen.id, Json{{"cmis:description", "x"}}, "bob", check);
  REQUIRE(updated.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(updated.status().message(), "user 'bob' needs cmis:write on '/f/a.txt' and has cmis:read"));
  auto content = f.repo->SetContent(seen.id, ContentSource::FromBytes("two"), true, "bob",
                                    Bob().ForWrite(acl::Action::kSetContent));
  CHECK(content.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(f.repo->Delete(seen.id, true, Bob().ForWrite(acl::Action::kDelete)).kind() == ErrorKind::kPermissionDenied);
  CHECK(f.repo->CheckOut(seen.id, "bob", Bob().ForWrite(acl::Action::kCheckOut)).status().kind() ==
        ErrorKind::kPermissionDenied);
  CHECK(f.repo->ApplyAcl(seen.id, {Ace{"bob", {"cmis:all"}}}, {}, Bob().ForWrite(acl::Action::kApplyAcl))
            .status()
            .kind() == ErrorKind::kPermissionDenied);
  // Nothing changed, nothing was logged.
  CHECK(EventsAfter(*f.repo, mark).empty());
  CHECK(f.Content(doc.id) == "one");
  CHECK(f.repo->GetObject(doc.id)->properties.value("cmis:description", Json()).is_null());
}

TEST_CASE("WriteCheck: an applyACL arriving while a write is checked waits for that write's commit") {
  RepoFixture f;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  REQUIRE(f.repo->SetAcl(doc.id, {Ace{"alice", {"cmis:all"}}, Ace{"bob", {"cmis:write"}}}, WriteCheck::Trusted()).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  std::future<Result<ObjectData>> revoke;
  const WriteCheck inner = Bob().ForWrite(acl::Action::kUpdateProperties);
  // The hook: the moment bob's permission is found, the revoke is sent. It must not be
  // acknowledged before bob's change is (were the check outside the change, it could be,
  // and bob's write would then land after it).
  const WriteCheck check = [&](WriteRole role, const ObjectData& object) -> Status {
    Status s = inner(role, object);
    if (!revoke.valid()) {
      revoke = std::async(std::launch::async, [&] {
        return f.repo->ApplyAcl(doc.id, {}, {Ace{"bob", {"cmis:write"}}}, WriteCheck::Trusted());
      });
      CHECK(revoke.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
    }
    return s;
  };
  auto updated = f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "x"}}, "bob", check);
  REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
  REQUIRE(revoke.valid());
  auto revoked = revoke.get();
  REQUIRE_MESSAGE(revoked.ok(), revoked.status().ToString());
  CHECK(revoked->acl.size() == 1);
  // In the log: bob's write first, then the revoke; and bob may write no more.
  CHECK(EventsAfter(*f.repo, mark) == std::vector<std::string>{"updated " + doc.id, "security " + doc.id});
  CHECK(f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "y"}}, "bob", inner).status().kind() ==
        ErrorKind::kPermissionDenied);
}

TEST_CASE("WriteCheck: each family checks the objects of its roles inside the change") {
  RepoFixture f;
  const ObjectData open = f.Folder(f.root, "open");
  const ObjectData closed = f.Folder(f.root, "closed");
  const ObjectData hidden = f.Folder(f.root, "hidden");  // no entry: bob may not even read it
  const ObjectData doc = f.Doc(open.id, "a.txt", "one");
  const ObjectData tree = f.Folder(open.id, "tree");
  const ObjectData below = f.Doc(tree.id, "locked.txt", "l");
  const std::vector<Ace> write = {Ace{"bob", {"cmis:write"}}};
  for (const std::string& id : {open.id, doc.id, tree.id}) REQUIRE(f.repo->SetAcl(id, write,
                                                                                  WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->SetAcl(closed.id, {Ace{"bob", {"cmis:read"}}}, WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->SetAcl(below.id, {Ace{"bob", {"cmis:read"}}}, WriteCheck::Trusted()).ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const acl::Checker bob = Bob();
  auto denied = [](const Status& s, const std::string& what) {
    CHECK(s.kind() == ErrorKind::kPermissionDenied);
    CHECK_MESSAGE(Contains(s.message(), what), s.message());
  };
  NewObject o;
  o.name = "new";
  // Creates: the folder made in.
  denied(f.repo->CreateFolder(closed.id, o, "bob", bob.ForWrite(acl::Action::kCreateChild)).status(),
         "needs cmis:write on '/closed' and has cmis:read");
  denied(f.repo->CreateItem(closed.id, o, "bob", bob.ForWrite(acl::Action::kCreateChild)).status(), "'/closed'");
  denied(f.repo->CreateDocument(closed.id, o, std::nullopt, VersioningState::kMajor, "bob",
                                bob.ForWrite(acl::Action::kCreateChild))
             .status(),
         "'/closed'");
  // A relationship: both ends readable.
  NewObject rel;
  rel.type_id = "cmis:relationship";
  rel.properties = Json{{"cmis:sourceId", doc.id}, {"cmis:targetId", hidden.id}};
  denied(f.repo->CreateRelationship(rel, "bob", bob.ForWrite(acl::Action::kCreateRelationship)).status(),
         "'bob' has no permission on an object this request needs");
  // A move: the object, the folder it leaves and the folder it goes to.
  denied(f.repo->Move(doc.id, closed.id, "", "bob", bob.ForWrite(acl::Action::kMove)).status(), "'/closed'");
  denied(f.repo->Move(below.id, open.id, "", "bob", bob.ForWrite(acl::Action::kMove)).status(),
         "'/open/tree/locked.txt'");
  // deleteTree: all or nothing, naming the object below that is refused.
  denied(f.repo->DeleteTree(tree.id, bob.ForWrite(acl::Action::kDeleteTree)).status(),
         "needs cmis:write on '/open/tree/locked.txt' and has cmis:read");
  CHECK(f.repo->GetObject(tree.id).ok());
  CHECK(EventsAfter(*f.repo, mark).empty());
  // What bob may do, he does.
  auto made = f.repo->CreateFolder(open.id, o, "bob", bob.ForWrite(acl::Action::kCreateChild));
  REQUIRE_MESSAGE(made.ok(), made.status().ToString());
  REQUIRE(f.repo->SetAcl(below.id, write, WriteCheck::Trusted()).ok());
  CHECK(f.repo->DeleteTree(tree.id, bob.ForWrite(acl::Action::kDeleteTree)).ok());
  auto pwc = f.repo->CheckOut(doc.id, "bob", bob.ForWrite(acl::Action::kCheckOut));
  REQUIRE(pwc.ok());
  // A check-in that changes entries needs cmis:all (the api asks for kApplyAcl then).
  CheckInRequest req;
  req.add_aces = {Ace{"bob", {"cmis:all"}}};
  denied(f.repo->CheckIn(pwc->id, req, "bob", bob.ForWrite(acl::Action::kApplyAcl)).status(),
         "needs cmis:all on '/open/a.txt' and has cmis:write");
  CHECK(f.repo->CheckIn(pwc->id, CheckInRequest{}, "bob", bob.ForWrite(acl::Action::kCheckIn)).ok());
  // An administrator's check is Trusted: nothing to ask.
  const acl::Caller alice = acl::Caller::User(folio::testing::AliceAdminBobMember(), "alice");
  CHECK(acl::Checker(alice).ForWrite(acl::Action::kApplyAcl).trusted());
}

TEST_CASE("WriteCheck: a write refused on an adopted document writes nothing, not even the document's files") {
  RepoFixture f;
  const ObjectData closed = f.Folder(f.root, "closed");
  const ObjectData open = f.Folder(f.root, "open");
  REQUIRE(f.repo->SetAcl(closed.id, {Ace{"bob", {"cmis:read"}}}, WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->SetAcl(open.id, {Ace{"bob", {"cmis:all"}}}, WriteCheck::Trusted()).ok());
  folio::testing::WriteFile(f.RepoPath("closed/hand.txt"), "by hand");
  auto page = f.repo->GetChildren(closed.id, 0, 10);  // found: adopted (docs/STORAGE.md §4.1)
  REQUIRE(page.ok());
  REQUIRE(page->objects.size() == 1);
  const ObjectData doc = page->objects[0];
  const std::string series_dir = "closed/.folio/docs/hand.txt";
  REQUIRE_FALSE(f.Has(series_dir));
  const uint64_t mark = *f.repo->LatestChangeToken();
  const acl::Checker bob = Bob();
  auto denied = [](const Status& s) { CHECK_MESSAGE(s.kind() == ErrorKind::kPermissionDenied, s.ToString()); };
  denied(f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "x"}}, "bob",
                                  bob.ForWrite(acl::Action::kUpdateProperties))
             .status());
  denied(f.repo->SetContent(doc.id, ContentSource::FromBytes("two"), true, "bob",
                            bob.ForWrite(acl::Action::kSetContent))
             .status());
  denied(f.repo->DeleteContent(doc.id, "bob", bob.ForWrite(acl::Action::kDeleteContent)).status());
  denied(f.repo->CheckOut(doc.id, "bob", bob.ForWrite(acl::Action::kCheckOut)).status());
  denied(f.repo->ApplyAcl(doc.id, {Ace{"bob", {"cmis:all"}}}, {}, bob.ForWrite(acl::Action::kApplyAcl)).status());
  denied(f.repo->Delete(doc.id, true, bob.ForWrite(acl::Action::kDelete)));
  denied(f.repo->Move(doc.id, open.id, "", "bob", bob.ForWrite(acl::Action::kMove)).status());
  // Still as it was found: no files of its own, no event, the same bytes in place.
  CHECK_FALSE(f.Has(series_dir));
  CHECK(EventsAfter(*f.repo, mark).empty());
  CHECK(f.Visible("closed/hand.txt") == "by hand");
  CHECK(f.repo->GetObject(doc.id)->path == "closed/hand.txt");
  // The administrator's change is made: the document gets its files first.
  REQUIRE(f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "x"}}, "alice", WriteCheck::Trusted()).ok());
  CHECK(f.Has(series_dir));
}

namespace {

// Each write of Repository called without a WriteCheck: none of these may compile.
template <typename R> concept CreatesFolderUnchecked = requires(R& r, NewObject o) { r.CreateFolder("", o, "u"); };
template <typename R> concept CreatesDocumentUnchecked = requires(R& r, NewObject o, ContentSource c) {
  r.CreateDocument("", o, c, VersioningState::kMajor, "u");
};
template <typename R> concept CreatesItemUnchecked = requires(R& r, NewObject o) { r.CreateItem("", o, "u"); };
template <typename R> concept RelatesUnchecked = requires(R& r, NewObject o) { r.CreateRelationship(o, "u"); };
template <typename R> concept UpdatesUnchecked = requires(R& r, Json j) { r.UpdateProperties("", j, "u"); };
template <typename R> concept SetsContentUnchecked = requires(R& r, ContentSource c) {
  r.SetContent("", c, true, "u");
};
template <typename R> concept DeletesContentUnchecked = requires(R& r) { r.DeleteContent("", "u"); };
template <typename R> concept DeletesUnchecked = requires(R& r) { r.Delete("", true); };
template <typename R> concept DeletesTreeUnchecked = requires(R& r) { r.DeleteTree(""); };
template <typename R> concept MovesUnchecked = requires(R& r) { r.Move("", "", "", "u"); };
template <typename R> concept SetsAclUnchecked = requires(R& r, std::vector<Ace> a) { r.SetAcl("", a); };
template <typename R> concept AppliesAclUnchecked = requires(R& r, std::vector<Ace> a) { r.ApplyAcl("", a, a); };
template <typename R> concept ChecksOutUnchecked = requires(R& r) { r.CheckOut("", "u"); };
template <typename R> concept ChecksInUnchecked = requires(R& r, CheckInRequest q) { r.CheckIn("", q, "u"); };
template <typename R> concept CancelsUnchecked = requires(R& r) { r.CancelCheckOut(""); };
template <typename R> concept CreatesTypeUnchecked = requires(R& r, Json j) { r.CreateType(j); };
template <typename R> concept UpdatesTypeUnchecked = requires(R& r, Json j) { r.UpdateType(j); };
template <typename R> concept DeletesTypeUnchecked = requires(R& r) { r.DeleteType(""); };

}  // namespace

TEST_CASE("WriteCheck: every write of a repository requires one; none allows all by default") {
  static_assert(!std::is_default_constructible_v<WriteCheck>);
  static_assert(!CreatesFolderUnchecked<Repository> && !CreatesDocumentUnchecked<Repository> &&
                !CreatesItemUnchecked<Repository> && !RelatesUnchecked<Repository>);
  static_assert(!UpdatesUnchecked<Repository> && !SetsContentUnchecked<Repository> &&
                !DeletesContentUnchecked<Repository> && !DeletesUnchecked<Repository> &&
                !DeletesTreeUnchecked<Repository> && !MovesUnchecked<Repository>);
  static_assert(!SetsAclUnchecked<Repository> && !AppliesAclUnchecked<Repository>);
  static_assert(!ChecksOutUnchecked<Repository> && !ChecksInUnchecked<Repository> && !CancelsUnchecked<Repository>);
  static_assert(!CreatesTypeUnchecked<Repository> && !UpdatesTypeUnchecked<Repository> &&
                !DeletesTypeUnchecked<Repository>);
  // The concepts do see a call that compiles.
  static_assert(requires(Repository& r) { r.DeleteTree("", WriteCheck::Trusted()); });

  // A check built from an empty function refuses every change, writing nothing.
  RepoFixture f;
  const ObjectData doc = f.Doc(f.root, "a.txt", "one");
  const uint64_t mark = *f.repo->LatestChangeToken();
  const WriteCheck unfilled{WriteCheck::Function{}};
  CHECK_FALSE(unfilled.trusted());
  auto refused = f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "x"}}, "bob", unfilled);
  REQUIRE(refused.status().kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(refused.status().message(), "no write check was given for 'a.txt'"));
  CHECK(f.repo->Delete(doc.id, true, unfilled).kind() == ErrorKind::kPermissionDenied);
  CHECK(f.repo->CreateFolder(f.root, NewObject{.type_id = "cmis:folder", .name = "g", .properties = Json::object(), .acl = {}}, "bob", unfilled)
            .status()
            .kind() == ErrorKind::kPermissionDenied);
  CHECK(EventsAfter(*f.repo, mark).empty());
  CHECK(f.Content(doc.id) == "one");
  // Trusted allows.
  CHECK(WriteCheck::Trusted().trusted());
  CHECK(f.repo->UpdateProperties(doc.id, Json{{"cmis:description", "x"}}, "alice", WriteCheck::Trusted()).ok());
}
