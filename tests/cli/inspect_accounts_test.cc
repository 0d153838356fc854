// folio inspect shows a domain's users (with their groups) and groups (with their
// members), never a hash or a key.
#include <doctest/doctest.h>

#include "cli/inspect_fixture.h"
#include "cli/inspect_model.h"
#include "cli/inspect_render.h"
#include "repo/acl/accounts.h"
#include "repo/store_fs.h"

using namespace folio;
using namespace folio::cli;
using folio::testing::Contains;
using folio::testing::InspectFixture;

namespace {

InspectTree WithAccounts(InspectFixture& fx) {
  acl::DomainAccounts accounts(repo::StoreFs::Of(*fx.f.store), "demo", false);
  for (const char* id : {"alice", "bob"}) {
    acl::UserRecord u;
    u.id = id;
    u.display_name = std::string(id) == "alice" ? "Alice Liddell" : "bob";
    u.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";
    u.api_key_hash = "blake2b:" + std::string(64, 'f');
    REQUIRE(accounts.CreateUser(u).ok());
  }
  REQUIRE(accounts.CreateGroup("eng", {"bob"}).ok());
  REQUIRE(accounts.ResetRepositoryGroup("main", {"eng"}).ok());
  auto store = fx.ReadOnlyStore();
  auto tree = BuildInspectTree(*store, "DATA", "demo");
  REQUIRE_MESSAGE(tree.ok(), tree.status().ToString());
  return std::move(*tree);
}

}  // namespace

TEST_CASE("InspectRender: a domain's users and groups, as text") {
  InspectFixture fx;
  const std::string text = RenderInspectText(WithAccounts(fx));
  CHECK(text.rfind("demo  domain · test domain · 2 users · 3 groups\n"
                   "│   user alice (Alice Liddell) · in admin\n"
                   "│   user bob · in eng, repository_main\n"
                   "│   group admin: alice\n"
                   "│   group eng: bob\n"
                   "│   group repository_main: eng\n"
                   "└── main  repository · variant B\n",
                   0) == 0);
  CHECK_FALSE(Contains(text, "argon2id"));
  CHECK_FALSE(Contains(text, "blake2b"));
}

TEST_CASE("InspectRender: a domain's users and groups, as JSON") {
  InspectFixture fx;
  const Json domain = InspectToJson(WithAccounts(fx))["root"];
  CHECK(domain["users"] == Json::array({{{"userId", "alice"}, {"displayName", "Alice Liddell"}, {"groups", {"admin"}}},
                                        {{"userId", "bob"}, {"displayName", "bob"}, {"groups", {"eng", "repository_main"}}}}));
  CHECK(domain["groups"][1] == Json{{"groupId", "eng"}, {"members", {"bob"}}});
  const std::string dumped = domain.dump();
  CHECK_FALSE(Contains(dumped, "argon2id"));
  CHECK_FALSE(Contains(dumped, "blake2b"));
}
