// acl::ApplyAces, ValidateAces, InitialAcl and RootFolderAcl.
#include <doctest/doctest.h>

#include "repo/acl/ace_list.h"
#include "support/repo_fixture.h"

using namespace folio;
using namespace folio::acl;
using folio::testing::Contains;

namespace {

bool Same(const std::vector<Ace>& a, const std::vector<Ace>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].principal != b[i].principal || a[i].permissions != b[i].permissions) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("ApplyAces: adds (merging by principal), then removes (dropping emptied entries)") {
  const std::vector<Ace> acl = {{"alice", {"cmis:all"}}, {"eng", {"cmis:read"}}};
  CHECK(Same(ApplyAces(acl, {{"eng", {"cmis:write", "cmis:read"}}, {"bob", {"cmis:read"}}}, {}),
             {{"alice", {"cmis:all"}}, {"eng", {"cmis:read", "cmis:write"}}, {"bob", {"cmis:read"}}}));
  CHECK(Same(ApplyAces(acl, {}, {{"eng", {"cmis:read"}}}), {{"alice", {"cmis:all"}}}));
  // Removing a permission the entry does not have, or an entry that is not there, changes nothing.
  CHECK(Same(ApplyAces(acl, {}, {{"alice", {"cmis:read"}}, {"nobody", {"cmis:all"}}}), acl));
  // Add then remove: the same entry in both lists ends up removed.
  CHECK(Same(ApplyAces(acl, {{"bob", {"cmis:read"}}}, {{"bob", {"cmis:read"}}}), acl));
}

TEST_CASE("ValidateAces: permissions must be the CMIS basic ones; principals must exist") {
  CHECK(ValidateAces({{"alice", {"cmis:read"}}, {"cmis:anyone", {"cmis:all"}}}, "addACEs", nullptr).ok());
  Status unsupported = ValidateAces({{"alice", {"cmis:read", "acme:approve"}}}, "addACEs", nullptr);
  CHECK(unsupported.kind() == ErrorKind::kConstraint);
  CHECK(Contains(unsupported.message(), "acme:approve"));
  CHECK(Contains(unsupported.message(), "addACEs entry 0"));
  Status empty = ValidateAces({{"alice", {"cmis:read"}}, {"", {"cmis:read"}}}, "removeACEs", nullptr);
  CHECK(empty.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(empty.message(), "removeACEs entry 1"));
  Status none = ValidateAces({{"alice", {}}}, "addACEs", nullptr);
  CHECK(none.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(none.message(), "'alice'"));

  UserRecord alice;
  alice.id = "alice";
  Principals domain({alice}, {{"eng", {"alice"}}});
  CHECK(ValidateAces({{"alice", {"cmis:read"}}, {"eng", {"cmis:write"}}, {"user", {"cmis:read"}},
                      {"cmis:anonymous", {"cmis:read"}}},
                     "addACEs", &domain)
            .ok());
  Status unknown = ValidateAces({{"alcie", {"cmis:read"}}}, "addACEs", &domain);
  CHECK(unknown.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(unknown.message(), "'alcie'"));
}

TEST_CASE("InitialAcl: the parent's entries copied, the creator gets cmis:all, then the request's entries") {
  const std::vector<Ace> parent = {{"repository_main", {"cmis:all"}}, {"bob", {"cmis:read"}}};
  CHECK(Same(InitialAcl(parent, "bob", {}, {}), {{"repository_main", {"cmis:all"}}, {"bob", {"cmis:read", "cmis:all"}}}));
  CHECK(Same(InitialAcl(parent, "carol", {{"eng", {"cmis:read"}}}, {{"repository_main", {"cmis:all"}}}),
             {{"bob", {"cmis:read"}}, {"carol", {"cmis:all"}}, {"eng", {"cmis:read"}}}));
  // "anonymous" (a domain without users) is nobody: no entry for it.
  CHECK(Same(InitialAcl(parent, "anonymous", {}, {}), parent));
}

TEST_CASE("RootFolderAcl: repository_<id> has cmis:all") {
  CHECK(Same(RootFolderAcl("main"), {{"repository_main", {"cmis:all"}}}));
  CHECK(kEntriesAreDirect);
  CHECK(kAclIsExact);
}
