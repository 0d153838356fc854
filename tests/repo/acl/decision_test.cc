// acl::Caller, EffectivePermission, the repository gate and Checker.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "repo/acl/checker.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::acl;
using folio::testing::Contains;

namespace {

std::shared_ptr<const Principals> Domain() {
  auto user = [](std::string id) {
    UserRecord u;
    u.id = std::move(id);
    return u;
  };
  return std::make_shared<const Principals>(
      std::vector<UserRecord>{user("alice"), user("bob"), user("carol"), user("dave")},
      std::vector<GroupRecord>{{"admin", {"alice"}}, {"eng", {"bob", "leads"}}, {"leads", {"carol"}},
                               {"repository_main", {"eng"}}});
}

ObjectData Object(std::vector<Ace> acl, std::string path = "docs/a.txt") {
  ObjectData o;
  o.id = "d1";
  o.path = std::move(path);
  o.acl = std::move(acl);
  return o;
}

}  // namespace

TEST_CASE("Caller: who matches which principal") {
  auto d = Domain();
  Caller bob = Caller::User(d, "bob");
  CHECK(bob.authenticated());
  CHECK_FALSE(bob.domain_admin());
  CHECK(bob.user() == "bob");
  CHECK(bob.Matches("bob"));
  CHECK(bob.Matches("eng"));
  CHECK(bob.Matches("user"));
  CHECK(bob.Matches("cmis:anyone"));
  CHECK_FALSE(bob.Matches("cmis:anonymous"));  // once a domain has users it matches nobody
  CHECK_FALSE(bob.Matches("leads"));
  CHECK_FALSE(bob.Matches("alice"));
  CHECK(Caller::User(d, "carol").Matches("eng"));  // through leads
  CHECK(Caller::User(d, "alice").domain_admin());

  Caller anyone = Caller::AnonymousDomain();
  CHECK(anyone.user() == "anonymous");
  CHECK_FALSE(anyone.authenticated());
  CHECK(anyone.domain_admin());
  CHECK(anyone.Matches("cmis:anonymous"));
  CHECK(anyone.Matches("cmis:anyone"));
  CHECK_FALSE(anyone.Matches("anonymous"));

  Caller server = Caller::ServerAdmin();
  CHECK(server.kind() == Caller::Kind::kServerAdmin);
  CHECK_FALSE(server.domain_admin());
  CHECK_FALSE(server.Matches("cmis:anyone"));
}

TEST_CASE("Caller: MatchingPrincipals lists exactly the principals Matches is true for") {
  auto d = Domain();
  using V = std::vector<std::string>;
  CHECK(Caller::User(d, "bob").MatchingPrincipals() == V{"bob", "cmis:anyone", "eng", "repository_main", "user"});
  CHECK(Caller::User(d, "carol").MatchingPrincipals() ==
        V{"carol", "cmis:anyone", "eng", "leads", "repository_main", "user"});
  CHECK(Caller::User(d, "dave").MatchingPrincipals() == V{"dave", "cmis:anyone", "user"});
  CHECK(Caller::AnonymousDomain().MatchingPrincipals() == V{"cmis:anyone", "cmis:anonymous"});
  CHECK(Caller::ServerAdmin().MatchingPrincipals().empty());
  // Each listed one matches; a sample of others does not.
  for (const char* user : {"bob", "carol", "dave", "alice"}) {
    const Caller c = Caller::User(d, user);
    CAPTURE(user);
    for (const std::string& p : c.MatchingPrincipals()) CHECK(c.Matches(p));
    for (const std::string p : {"alice", "bob", "carol", "dave", "eng", "leads", "admin", "repository_main", "user",
                                "cmis:anyone", "cmis:anonymous", "nobody"}) {
      const V all = c.MatchingPrincipals();
      CHECK(c.Matches(p) == (std::find(all.begin(), all.end(), p) != all.end()));
    }
  }
}

TEST_CASE("EffectivePermission: the greatest permission of the matching entries") {
  auto d = Domain();
  const std::vector<Ace> acl = {{"bob", {"cmis:read"}}, {"leads", {"cmis:write"}}, {"cmis:anyone", {"cmis:read"}},
                                {"eng", {"acme:custom"}}};
  CHECK(EffectivePermission(Caller::User(d, "bob"), acl) == Permission::kRead);
  CHECK(EffectivePermission(Caller::User(d, "carol"), acl) == Permission::kWrite);
  CHECK(EffectivePermission(Caller::User(d, "dave"), acl) == Permission::kRead);  // cmis:anyone
  CHECK(EffectivePermission(Caller::User(d, "dave"), {{"bob", {"cmis:all"}}}) == Permission::kNone);
  CHECK(EffectivePermission(Caller::User(d, "dave"), {{"cmis:anonymous", {"cmis:all"}}}) == Permission::kNone);
  CHECK(EffectivePermission(Caller::User(d, "bob"), {{"eng", {"cmis:read", "cmis:all"}}}) == Permission::kAll);
  CHECK(EffectivePermission(Caller::User(d, "bob"), {}) == Permission::kNone);
  // Domain administrators may do everything, whatever the ACL says.
  CHECK(EffectivePermission(Caller::User(d, "alice"), {}) == Permission::kAll);
  CHECK(EffectivePermission(Caller::AnonymousDomain(), {}) == Permission::kAll);
  CHECK(EffectivePermission(Caller::ServerAdmin(), {{"cmis:anyone", {"cmis:all"}}}) == Permission::kNone);
}

TEST_CASE("Permissions nest: cmis:read < cmis:write < cmis:all") {
  CHECK(Grants(Permission::kAll, Permission::kWrite));
  CHECK(Grants(Permission::kAll, Permission::kRead));
  CHECK(Grants(Permission::kWrite, Permission::kRead));
  CHECK_FALSE(Grants(Permission::kRead, Permission::kWrite));
  CHECK_FALSE(Grants(Permission::kWrite, Permission::kAll));
  CHECK_FALSE(Grants(Permission::kNone, Permission::kRead));
  CHECK(ParsePermission("cmis:write") == Permission::kWrite);
  CHECK_FALSE(ParsePermission("CMIS:WRITE").has_value());
  CHECK_FALSE(ParsePermission("").has_value());
  CHECK(PermissionName(Permission::kAll) == "cmis:all");
}

TEST_CASE("The repository gate: members of repository_<id> (nested) and domain administrators") {
  auto d = Domain();
  CHECK(MayUseRepository(Caller::User(d, "bob"), "main"));
  CHECK(MayUseRepository(Caller::User(d, "carol"), "main"));  // carol -> leads -> eng -> repository_main
  CHECK(MayUseRepository(Caller::User(d, "alice"), "other"));  // admin
  CHECK(MayUseRepository(Caller::AnonymousDomain(), "main"));
  CHECK_FALSE(MayUseRepository(Caller::User(d, "dave"), "main"));
  CHECK_FALSE(MayUseRepository(Caller::User(d, "bob"), "other"));
  Status s = CheckRepositoryGate(Caller::User(d, "dave"), "main");
  CHECK(s.kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(s.message(), "'dave'"));
  CHECK(Contains(s.message(), "'main'"));
  CHECK(Contains(s.message(), "repository_main"));
}

TEST_CASE("Checker: requirements per action, with the object and folders named") {
  auto d = Domain();
  Checker bob(Caller::User(d, "bob"));
  const ObjectData readable = Object({{"bob", {"cmis:read"}}});
  const ObjectData writable = Object({{"eng", {"cmis:write"}}}, "docs");
  const ObjectData hidden = Object({{"carol", {"cmis:all"}}}, "secret");
  CHECK(bob.user() == "bob");
  CHECK(bob.MayRead(readable));
  CHECK_FALSE(bob.MayRead(hidden));
  CHECK(bob.Require(Action::kRead, readable).ok());
  Status s = bob.Require(Action::kUpdateProperties, readable);
  CHECK(s.kind() == ErrorKind::kPermissionDenied);
  CHECK(Contains(s.message(), "'bob'"));
  CHECK(Contains(s.message(), "cmis:write"));
  CHECK(Contains(s.message(), "'/docs/a.txt'"));
  CHECK(Contains(s.message(), "has cmis:read"));
  CHECK(bob.Require(Action::kCreateChild, writable).ok());
  CHECK(bob.Require(Action::kApplyAcl, writable).kind() == ErrorKind::kPermissionDenied);
  // A move needs write on the object, its source folder and the target folder.
  const ObjectData doc = Object({{"bob", {"cmis:write"}}});
  CHECK(bob.Require(Action::kMove, doc, &writable, &writable).ok());
  Status move = bob.Require(Action::kMove, doc, &writable, &hidden);
  CHECK(move.kind() == ErrorKind::kPermissionDenied);
  // A folder bob may not read is not named (docs/API.md §11.3).
  CHECK_FALSE(Contains(move.message(), "secret"));
  CHECK(Contains(move.message(), "'bob' has no permission on an object this request needs"));
  // A relationship needs to see both of its ends.
  CHECK(bob.Require(Action::kCreateRelationship, doc, &readable, &writable).ok());
  CHECK(bob.Require(Action::kCreateRelationship, doc, &readable, &hidden).kind() == ErrorKind::kPermissionDenied);
  CHECK(Checker(Caller::User(d, "alice")).Require(Action::kApplyAcl, hidden).ok());
}
