// fsck: each domain's users and groups (docs/STORAGE.md §11). Each
// finding id is planted and reported; the repairable ones are repaired.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"
#include "repo/acl/accounts.h"
#include "repo/store_fs.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

namespace {

// The fixture's domain "demo" with users alice (administrator) and bob, and group eng.
struct AccountsFixture : FsckFixture {
  AccountsFixture() {
    accounts = std::make_unique<acl::DomainAccounts>(repo::StoreFs::Of(*store), "demo", false);
    for (const char* id : {"alice", "bob"}) {
      acl::UserRecord u;
      u.id = id;
      u.display_name = id;
      u.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";
      REQUIRE(accounts->CreateUser(u).ok());
    }
    REQUIRE(accounts->CreateGroup("eng", {"bob"}).ok());
  }
  // A user `id` made as bob is (not an administrator).
  void CreateUserLikeBob(const std::string& id) {
    acl::UserRecord u = *accounts->Current().value()->FindUser("bob");
    u.id = id;
    REQUIRE(accounts->CreateUser(u).ok());
  }
  std::string Users(const std::string& file) const { return "demo/.folio/users/" + file; }
  std::string Groups(const std::string& file) const { return "demo/.folio/groups/" + file; }
  std::unique_ptr<acl::DomainAccounts> accounts;
};

}  // namespace

TEST_CASE("Fsck: users and groups made by Folio are clean") {
  AccountsFixture f;
  CHECK_MESSAGE(RunCheck(f.dir.path()).clean(), Dump(RunCheck(f.dir.path())));
}

TEST_CASE("Fsck: plants user-record-invalid and reports user-record-invalid") {
  AccountsFixture f;
  std::string path = f.Users("bob.json");
  SUBCASE("garbage") { WriteFile(f.Abs(path), "{ nope"); }
  SUBCASE("another id") {
    EditJson(f.Abs(path), [](Json& j) { j["userId"] = "robert"; });
  }
  SUBCASE("a password in clear instead of a hash") {
    EditJson(f.Abs(path), [](Json& j) { j["passwordHash"] = "hunter2"; });
  }
  SUBCASE("a malformed key hash") {
    EditJson(f.Abs(path), [](Json& j) { j["apiKeyHash"] = "abc"; });
  }
  SUBCASE("not a .json file") {
    path = f.Users("notes.txt");
    WriteFile(f.Abs(path), "x");
  }
  ExpectUnrepairable(f.dir.path(), "user-record-invalid", path);
  const FsckReport r = RunCheck(f.dir.path());
  for (const Finding& finding : r.findings) CHECK_FALSE(Contains(finding.message, "hunter2"));
}

TEST_CASE("Fsck: plants group-record-invalid and reports group-record-invalid") {
  AccountsFixture f;
  std::string path = f.Groups("eng.json");
  SUBCASE("members not an array") {
    EditJson(f.Abs(path), [](Json& j) { j["members"] = "bob"; });
  }
  SUBCASE("a member id that cannot be one") {
    EditJson(f.Abs(path), [](Json& j) { j["members"] = Json::array({"bob", "not an id"}); });
  }
  SUBCASE("a file for the built-in group user") {
    path = f.Groups("user.json");
    WriteFile(f.Abs(path), R"({"groupId": "user", "members": ["bob"]})");
  }
  ExpectUnrepairable(f.dir.path(), "group-record-invalid", path);
}

TEST_CASE("Fsck: plants group-member-unknown and reports group-member-unknown") {
  AccountsFixture f;
  const std::string path = f.Groups("eng.json");
  EditJson(f.Abs(path), [](Json& j) { j["members"] = Json::array({"bob", "ghost"}); });
  const FsckReport r = RunCheck(f.dir.path());
  const Finding* found = Find(r, "group-member-unknown", path);
  REQUIRE_MESSAGE(found != nullptr, Dump(r));
  CHECK(Contains(found->message, "'ghost'"));
  CHECK(found->severity == Severity::kWarning);
}

TEST_CASE("Fsck: plants principal-id-clash and reports principal-id-clash") {
  AccountsFixture f;
  std::string path;
  SUBCASE("a user and a group with one id") {
    path = f.Users("eng.json");
    WriteFile(f.Abs(path), ReadFile(f.Abs(f.Users("bob.json"))));
    EditJson(f.Abs(path), [](Json& j) { j["userId"] = "eng"; });
  }
  SUBCASE("a user named like a built-in group") {
    path = f.Users("repository_main.json");
    WriteFile(f.Abs(path), ReadFile(f.Abs(f.Users("bob.json"))));
    EditJson(f.Abs(path), [](Json& j) { j["userId"] = "repository_main"; });
  }
  ExpectUnrepairable(f.dir.path(), "principal-id-clash", path);
}

TEST_CASE("Fsck: plants domain-admin-missing and reports domain-admin-missing") {
  AccountsFixture f;
  EditJson(f.Abs(f.Groups("admin.json")), [](Json& j) { j["members"] = Json::array({"eng"}); });
  CHECK(RunCheck(f.dir.path()).clean());  // bob is an administrator through eng
  EditJson(f.Abs(f.Groups("admin.json")), [](Json& j) { j["members"] = Json::array(); });
  ExpectUnrepairable(f.dir.path(), "domain-admin-missing", f.Groups("admin.json"));
}

TEST_CASE("Fsck: plants domain-journal-pending and repairs domain-journal-pending") {
  AccountsFixture f;
  f.CreateUserLikeBob("carol");
  // A committed change of an older Folio (format-1 journal) that was not carried out:
  // the record says to remove carol.
  const std::string record = "demo/.folio/journal/0001.json";
  fs::create_directories(f.Abs("demo/.folio/journal"));
  WriteFile(f.Abs(record), R"({"actions": [{"op": "remove", "path": "demo/.folio/users/carol.json"}]})");
  ExpectRepaired(f.dir.path(), "domain-journal-pending", record);
  CHECK_FALSE(fs::exists(f.Abs(f.Users("carol.json"))));
}

// A record recovery cannot read would stop every later change of the domain's users
// and groups: repair sets it aside in the domain's lost+found, and completes the
// readable records beside it.
TEST_CASE("Fsck: an unreadable domain journal record goes to the domain's lost+found; the others are completed") {
  AccountsFixture f;
  f.CreateUserLikeBob("carol");
  const std::string bad = "demo/.folio/journal/0001.json";
  const std::string good = "demo/.folio/journal/0002.json";
  fs::create_directories(f.Abs("demo/.folio/journal"));
  SUBCASE("not JSON") { WriteFile(f.Abs(bad), "{ half a rec"); }
  SUBCASE("JSON, not a record") { WriteFile(f.Abs(bad), R"({"actions": "remove everything"})"); }
  WriteFile(f.Abs(good), R"({"actions": [{"op": "remove", "path": "demo/.folio/users/carol.json"}]})");
  const std::string repair = ExpectRepaired(f.dir.path(), "domain-journal-pending", bad);
  CHECK_MESSAGE(repair.find("lost+found") != std::string::npos, repair);
  CHECK_FALSE(fs::exists(f.Abs(bad)));
  CHECK_FALSE(fs::exists(f.Abs(good)));
  CHECK_FALSE(fs::exists(f.Abs(f.Users("carol.json"))));  // the readable record was completed
  // The record is kept, not lost: in the domain's lost+found.
  size_t kept = 0;
  for (const auto& e : fs::recursive_directory_iterator(f.Abs("demo/.folio/lost+found"))) {
    if (e.path().filename() == "0001.json") ++kept;
  }
  CHECK(kept == 1);
  // And the domain takes changes again.
  f.CreateUserLikeBob("dave");
}

TEST_CASE("Fsck: plants leftover-temp-file in users/ and repairs it") {
  AccountsFixture f;
  const std::string temp = f.Users(".folio-tmp-1-2-abcdef");
  WriteFile(f.Abs(temp), "half a user");
  ExpectRepaired(f.dir.path(), "leftover-temp-file", temp);
  CHECK_FALSE(fs::exists(f.Abs(temp)));
}

TEST_CASE("Fsck: plants acl-principal-unknown and acl-entry-invalid and reports them") {
  AccountsFixture f;
  REQUIRE(f.repo->SetAcl(f.reports.id, {Ace{"alice", {"cmis:all"}}, Ace{"eng", {"cmis:read"}}, Ace{"cmis:anyone", {"cmis:read"}},
                                        Ace{"ghost", {"cmis:read"}}, Ace{"bob", {"cmis:delete"}}},
                                            WriteCheck::Trusted())
              .ok());
  const std::string path = "demo/main/reports/.folio/folder.json";
  const FsckReport r = RunCheck(f.dir.path());
  const Finding* unknown = Find(r, "acl-principal-unknown", path);
  REQUIRE_MESSAGE(unknown != nullptr, Dump(r));
  CHECK(Contains(unknown->message, "'ghost'"));
  CHECK(unknown->severity == Severity::kWarning);
  const Finding* invalid = Find(r, "acl-entry-invalid", path);
  REQUIRE_MESSAGE(invalid != nullptr, Dump(r));
  CHECK(Contains(invalid->message, "cmis:delete"));
  // alice, eng, cmis:anyone and the repository's root entry (repository_main) are known.
  size_t findings = 0;
  for (const Finding& fi : r.findings) findings += fi.id.starts_with("acl-") ? 1 : 0;
  CHECK(findings == 2);
}
