// acl::Principals: membership through nested groups, cycles, the implicit "user"
// group, API key lookup; and the id rules.
#include <doctest/doctest.h>

#include "repo/acl/principals.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::acl;
using folio::testing::Contains;

namespace {

UserRecord U(std::string id, std::string key_hash = "") {
  UserRecord u;
  u.id = std::move(id);
  u.display_name = u.id;
  u.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";
  u.api_key_hash = std::move(key_hash);
  return u;
}

GroupRecord G(std::string id, std::vector<std::string> members) { return GroupRecord{std::move(id), std::move(members)}; }

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("Principals: a domain without records has no users and no groups") {
  Principals p;
  CHECK_FALSE(p.has_users());
  CHECK(p.GroupsOf("alice").empty());
  CHECK(p.UsersIn("admin").empty());
  CHECK(p.MembersOf("user").empty());
}

TEST_CASE("Principals: every user is in 'user'; direct and nested groups resolve") {
  Principals p({U("alice"), U("bob"), U("carol")},
               {G("admin", {"alice"}), G("eng", {"bob", "ops"}), G("ops", {"carol"}), G("repository_main", {"eng"})});
  CHECK(p.GroupsOf("alice") == Ids{"admin", "user"});
  CHECK(p.GroupsOf("bob") == Ids{"eng", "repository_main", "user"});
  CHECK(p.GroupsOf("carol") == Ids{"eng", "ops", "repository_main", "user"});
  CHECK(p.IsAdmin("alice"));
  CHECK_FALSE(p.IsAdmin("bob"));
  CHECK(p.IsMember("carol", "repository_main"));
  CHECK(p.UsersIn("repository_main") == Ids{"bob", "carol"});
  CHECK(p.UsersIn("user") == Ids{"alice", "bob", "carol"});
  CHECK(p.MembersOf("eng") == Ids{"bob", "ops"});
  CHECK(p.MembersOf("user") == Ids{"alice", "bob", "carol"});
  CHECK(p.GroupsOf("nobody").empty());
}

TEST_CASE("Principals: a group listing 'user' holds every user") {
  Principals p({U("alice"), U("bob")}, {G("repository_wiki", {"user"})});
  CHECK(p.IsMember("alice", "repository_wiki"));
  CHECK(p.IsMember("bob", "repository_wiki"));
}

TEST_CASE("Principals: cycles of nested groups end; every group of a cycle holds all its members") {
  Principals p({U("alice"), U("bob")}, {G("a", {"b", "alice"}), G("b", {"c"}), G("c", {"a", "bob"}), G("self", {"self", "bob"})});
  CHECK(p.GroupsOf("alice") == Ids{"a", "b", "c", "user"});
  CHECK(p.GroupsOf("bob") == Ids{"a", "b", "c", "self", "user"});
  CHECK(p.UsersIn("b") == Ids{"alice", "bob"});
}

TEST_CASE("Principals: unknown members are ignored, a stored 'user' group too, the first record of an id wins") {
  Principals p({U("alice"), U("alice", "blake2b:x")}, {G("eng", {"ghost", "alice"}), G("user", {"ghost"}), G("eng", {})});
  CHECK(p.users().size() == 1);
  CHECK(p.FindUser("alice")->api_key_hash.empty());
  CHECK(p.GroupsOf("alice") == Ids{"eng", "user"});
  CHECK(p.FindGroup("user") == nullptr);
  CHECK(p.Exists("user"));
  CHECK_FALSE(p.Exists("ghost"));
}

TEST_CASE("Principals: finds a user by its API key hash") {
  Principals p({U("alice", "blake2b:aa"), U("bob")}, {});
  REQUIRE(p.FindByApiKeyHash("blake2b:aa") != nullptr);
  CHECK(p.FindByApiKeyHash("blake2b:aa")->id == "alice");
  CHECK(p.FindByApiKeyHash("blake2b:bb") == nullptr);
  CHECK(p.FindByApiKeyHash("") == nullptr);
}

TEST_CASE("CheckPrincipalId: the pattern and the reserved names") {
  for (std::string good : {std::string("alice"), std::string("a"), std::string("john.doe@example.com"),
                           std::string("x_y-z"), std::string(64, 'a')}) {
    CAPTURE(good);
    CHECK(CheckPrincipalId(good, "user id").ok());
  }
  for (std::string bad : {std::string(""), std::string(65, 'a'), std::string("a b"), std::string("a:b"),
                          std::string("ä"), std::string("a/b"), std::string("cmis:anyone")}) {
    CAPTURE(bad);
    Status s = CheckPrincipalId(bad, "user id");
    CHECK(s.kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(s.message(), "user id"));
    CHECK(Contains(s.message(), std::string(kPrincipalIdPattern)));
  }
  Status reserved = CheckPrincipalId(".folio-tmp-1", "group id");
  CHECK(reserved.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(reserved.message(), "reserved"));
}

TEST_CASE("Built-in groups: admin, user and repository_<id>") {
  CHECK(IsBuiltInGroup("admin"));
  CHECK(IsBuiltInGroup("user"));
  CHECK(IsBuiltInGroup(RepositoryGroup("main")));
  CHECK(RepositoryGroup("main") == "repository_main");
  CHECK_FALSE(IsBuiltInGroup("admins"));
  CHECK_FALSE(IsBuiltInGroup("eng"));
}
