// acl::DomainAccounts on a real data directory: the rules of users and groups, one
// commit point per change, and a snapshot that sees changes (ours, another process's,
// edits by hand) without reading files on every call.
#include <doctest/doctest.h>

#include <filesystem>

#include "repo/acl/accounts.h"
#include "repo/store_fs.h"
#include "storage/layout.h"
#include "repo/acl/sample_user.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::acl;
using folio::testing::Contains;
using folio::testing::ReadFile;
using folio::testing::WriteFile;

namespace {

using Ids = std::vector<std::string>;

struct Domain {
  Domain() {
    auto s = Store::Open(dir.path(), {.durable = false});
    REQUIRE(s.ok());
    store = std::move(*s);
    REQUIRE(store->CreateDomain("acme", "").ok());
    accounts = std::make_unique<DomainAccounts>(repo::StoreFs::Of(*store), "acme", false);
  }
  UserRecord User(std::string id) { return folio::testing::SampleUser(std::move(id)); }
  void Add(const std::string& id) { REQUIRE(accounts->CreateUser(User(id)).ok()); }
  std::shared_ptr<const Principals> Now() {
    auto p = accounts->Current();
    REQUIRE(p.ok());
    return *p;
  }
  std::string Path(const std::string& rel) { return dir.path() + "/acme/.folio/" + rel; }

  folio::testing::TempDir dir;
  std::unique_ptr<Store> store;
  std::unique_ptr<DomainAccounts> accounts;
};

}  // namespace

TEST_CASE("Accounts: the first user joins admin; the files are readable JSON without secrets in clear") {
  Domain d;
  CHECK_FALSE(d.Now()->has_users());
  auto made = d.accounts->CreateUser(d.User("alice"));
  REQUIRE(made.ok());
  CHECK(made->created_ms > 0);
  d.Add("bob");
  auto p = d.Now();
  CHECK(p->has_users());
  CHECK(p->UsersIn("admin") == Ids{"alice"});
  CHECK(p->GroupsOf("bob") == Ids{"user"});
  const std::string file = ReadFile(d.Path("users/alice.json"));
  CHECK(Contains(file, "\"userId\": \"alice\""));
  CHECK(Contains(file, "\"passwordHash\": \"$argon2id$"));
  CHECK(Contains(ReadFile(d.Path("groups/admin.json")), "\"alice\""));
  // Committed through the domain's commit log (emptied at rest), not the old journal.
  CHECK(std::filesystem::exists(d.Path("log")));
  CHECK_FALSE(std::filesystem::exists(d.Path("journal")));
}

TEST_CASE("Accounts: ids taken, reserved or malformed are refused with the right kind") {
  Domain d;
  d.Add("alice");
  REQUIRE(d.accounts->CreateGroup("eng", {"alice"}).ok());
  auto again = d.accounts->CreateUser(d.User("alice"));
  CHECK(again.status().kind() == ErrorKind::kContentAlreadyExists);
  CHECK(Contains(again.status().message(), "'alice'"));
  CHECK(d.accounts->CreateUser(d.User("eng")).status().kind() == ErrorKind::kContentAlreadyExists);
  for (std::string reserved : {"admin", "user", "repository_main", "anonymous"}) {
    CAPTURE(reserved);
    auto r = d.accounts->CreateUser(d.User(reserved));
    CHECK(r.status().kind() == ErrorKind::kConstraint);
    CHECK(Contains(r.status().message(), "'" + reserved + "'"));
  }
  CHECK(d.accounts->CreateUser(d.User("bad id")).status().kind() == ErrorKind::kInvalidArgument);
  CHECK(d.accounts->CreateGroup("eng", {}).status().kind() == ErrorKind::kContentAlreadyExists);
  CHECK(d.accounts->CreateGroup("admin", {}).status().kind() == ErrorKind::kContentAlreadyExists);
  CHECK(d.accounts->CreateGroup("user", {}).status().kind() == ErrorKind::kContentAlreadyExists);
  CHECK(d.accounts->CreateGroup("alice", {}).status().kind() == ErrorKind::kContentAlreadyExists);
  CHECK(d.accounts->CreateGroup("repository_x", {}).status().kind() == ErrorKind::kConstraint);
  auto ghost = d.accounts->CreateGroup("ops", {"alice", "ghost"});
  CHECK(ghost.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(ghost.status().message(), "'ghost'"));
  auto self = d.accounts->UpdateGroup("eng", {"eng"});
  CHECK(self.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(self.status().message(), "itself"));
  CHECK(d.accounts->UpdateGroup("nope", {}).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(d.accounts->UpdateUser("nope", {}).status().kind() == ErrorKind::kObjectNotFound);
  CHECK(d.accounts->DeleteUser("nope").kind() == ErrorKind::kObjectNotFound);
  CHECK(d.accounts->DeleteGroup("nope").kind() == ErrorKind::kObjectNotFound);
}

TEST_CASE("Accounts: built-in groups cannot be deleted; 'user' cannot be set; the last administrator stays") {
  Domain d;
  d.Add("alice");
  d.Add("bob");
  for (std::string builtin : {"admin", "user", "repository_main"}) {
    CAPTURE(builtin);
    Status s = d.accounts->DeleteGroup(builtin);
    CHECK(s.kind() == ErrorKind::kConstraint);
    CHECK(Contains(s.message(), "built in"));
  }
  CHECK(d.accounts->UpdateGroup("user", {"alice"}).status().kind() == ErrorKind::kConstraint);
  Status last = d.accounts->DeleteUser("alice");
  CHECK(last.kind() == ErrorKind::kConstraint);
  CHECK(Contains(last.message(), "administrator"));
  CHECK(d.accounts->UpdateGroup("admin", {}).status().kind() == ErrorKind::kConstraint);
  CHECK(d.accounts->UpdateGroup("admin", {"bob"}).ok());  // bob takes over
  CHECK(d.accounts->DeleteUser("alice").ok());
  CHECK(d.Now()->UsersIn("admin") == Ids{"bob"});
  // Through a nested group: removing the group that made bob an administrator is refused too.
  REQUIRE(d.accounts->CreateGroup("ops", {"bob"}).ok());
  REQUIRE(d.accounts->UpdateGroup("admin", {"ops"}).ok());
  CHECK(d.Now()->IsAdmin("bob"));
  CHECK(d.accounts->DeleteGroup("ops").kind() == ErrorKind::kConstraint);
  CHECK(d.accounts->UpdateGroup("ops", {}).status().kind() == ErrorKind::kConstraint);
}

TEST_CASE("Accounts: deleting a user or group removes its memberships in the same change") {
  Domain d;
  d.Add("alice");
  d.Add("bob");
  REQUIRE(d.accounts->CreateGroup("eng", {"bob"}).ok());
  REQUIRE(d.accounts->CreateGroup("all", {"eng", "alice"}).ok());
  REQUIRE(d.accounts->DeleteUser("bob").ok());
  CHECK(d.Now()->MembersOf("eng").empty());
  REQUIRE(d.accounts->DeleteGroup("eng").ok());
  CHECK(d.Now()->MembersOf("all") == Ids{"alice"});
  CHECK_FALSE(std::filesystem::exists(d.Path("users/bob.json")));
  CHECK_FALSE(std::filesystem::exists(d.Path("groups/eng.json")));
  CHECK(Contains(ReadFile(d.Path("groups/all.json")), "alice"));
}

TEST_CASE("Accounts: updateUser changes only the fields given") {
  Domain d;
  d.Add("alice");
  UserChanges name;
  name.display_name = "Alice Liddell";
  auto u = d.accounts->UpdateUser("alice", name);
  REQUIRE(u.ok());
  CHECK(u->display_name == "Alice Liddell");
  CHECK(u->password_hash == d.User("alice").password_hash);
  UserChanges key;
  key.api_key_hash = "blake2b:" + std::string(64, 'a');
  REQUIRE(d.accounts->UpdateUser("alice", key).ok());
  const UserRecord* now = d.Now()->FindUser("alice");
  REQUIRE(now != nullptr);
  CHECK(now->display_name == "Alice Liddell");
  CHECK(now->api_key_hash == *key.api_key_hash);
}

TEST_CASE("Accounts: repository groups are reset with their repository and removed with it") {
  Domain d;
  d.Add("alice");
  d.Add("bob");
  REQUIRE(d.accounts->ResetRepositoryGroup("main", {"bob"}).ok());
  REQUIRE(d.accounts->CreateGroup("team", {"repository_main"}).ok());
  CHECK(d.Now()->IsMember("bob", "repository_main"));
  CHECK(d.Now()->IsMember("bob", "team"));
  // A repository created again under that id starts with its creator only.
  REQUIRE(d.accounts->ResetRepositoryGroup("main", {"alice"}).ok());
  CHECK(d.Now()->UsersIn("repository_main") == Ids{"alice"});
  CHECK_FALSE(d.Now()->IsMember("alice", "team"));
  REQUIRE(d.accounts->UpdateGroup("repository_main", {"bob", "alice"}).ok());
  REQUIRE(d.accounts->RemoveRepositoryGroup("main").ok());
  CHECK(d.Now()->FindGroup("repository_main") == nullptr);
  REQUIRE(d.accounts->ResetRepositoryGroup("wiki", {}).ok());
  CHECK(d.Now()->FindGroup("repository_wiki") == nullptr);
}

TEST_CASE("Accounts: a change by another process is seen at once; the snapshot is shared while nothing changes") {
  Domain d;
  d.Add("alice");
  auto first = d.Now();
  DomainAccounts other(repo::StoreFs::Of(*d.store), "acme", false);  // as another `folio serve` on the directory
  REQUIRE(other.CreateUser(d.User("bob")).ok());
  CHECK(d.Now()->FindUser("bob") != nullptr);
  CHECK(first->FindUser("bob") == nullptr);  // snapshots are immutable
  // Nothing changed since: the same snapshot (once the directories are no longer
  // "racy"), without reading a file.
  auto a = d.Now();
  auto b = d.Now();
  CHECK(b->FindUser("bob") != nullptr);
  (void)a;
}

TEST_CASE("Accounts: an edit by hand is seen at the next check of the files") {
  Domain d;
  d.Add("alice");
  d.accounts->SetCheckIntervalForTest(0);
  CHECK(d.Now()->FindUser("alice")->display_name == "User alice");
  // In place (same inode), as an editor that does not rename would.
  const std::string path = d.Path("users/alice.json");
  std::string text = ReadFile(path);
  text.replace(text.find("User alice"), 10, "Alice L.");
  WriteFile(path, text);
  CHECK(d.Now()->FindUser("alice")->display_name == "Alice L.");
  // A file added by hand.
  std::string bob = text;
  bob.replace(bob.find("\"alice\""), 7, "\"bob\"");
  WriteFile(d.Path("users/bob.json"), bob);
  CHECK(d.Now()->FindUser("bob") != nullptr);
}

TEST_CASE("Accounts: a malformed file is left out, and the others still count") {
  Domain d;
  d.Add("alice");
  d.Add("bob");
  WriteFile(d.Path("users/bob.json"), "{ not json");
  WriteFile(d.Path("users/.folio-tmp-1-2-abc"), "half");
  std::filesystem::remove(d.Path("users/alice.json"));  // and a rename, so the directory changes
  d.Add("carol");
  auto p = d.Now();
  CHECK(p->FindUser("bob") == nullptr);
  CHECK(p->FindUser("carol") != nullptr);
}

TEST_CASE("Accounts: a missing domain is objectNotFound; a read-only store refuses changes") {
  Domain d;
  DomainAccounts ghost(repo::StoreFs::Of(*d.store), "ghost", false);
  CHECK(ghost.Current().status().kind() == ErrorKind::kObjectNotFound);
  CHECK(ghost.CreateUser(d.User("x")).status().kind() == ErrorKind::kObjectNotFound);
  DomainAccounts read_only(repo::StoreFs::Of(*d.store), "acme", true);
  CHECK(read_only.CreateUser(d.User("x")).status().kind() == ErrorKind::kPermissionDenied);
  AccountRegistry registry(*d.store, false);
  CHECK(registry.For("ghost").status().kind() == ErrorKind::kObjectNotFound);
  CHECK(registry.For("../x").status().kind() == ErrorKind::kObjectNotFound);
  auto acme = registry.For("acme");
  REQUIRE(acme.ok());
  CHECK(registry.For("acme").value() == *acme);
}

TEST_CASE("Accounts: a domain created with its first user has it as administrator") {
  Domain d;
  UserRecord root = d.User("root");
  auto made = d.store->CreateDomain("beta", "", [&](Fs& fs, const std::string& dir) {
    return WriteFirstUser(fs, dir, root);
  });
  REQUIRE(made.ok());
  DomainAccounts beta(repo::StoreFs::Of(*d.store), "beta", false);
  auto p = beta.Current();
  REQUIRE(p.ok());
  CHECK((*p)->IsAdmin("root"));
  // A failing init leaves no domain behind.
  auto failed = d.store->CreateDomain("gamma", "", [](Fs&, const std::string&) { return StorageError("disk full"); });
  CHECK(failed.status().kind() == ErrorKind::kStorage);
  CHECK_FALSE(std::filesystem::exists(d.dir.path() + "/gamma"));
}
