// A user record for tests of users and groups: display name "User <id>" and a
// well-formed argon2id hash (never checked: these tests do not authenticate); and a
// small domain of such users for tests of access decisions.
#pragma once

#include <memory>
#include <string>

#include "repo/acl/account_files.h"
#include "repo/acl/principals.h"

namespace folio::testing {

inline acl::UserRecord SampleUser(std::string id) {
  acl::UserRecord u;
  u.id = std::move(id);
  u.display_name = "User " + u.id;
  u.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";
  return u;
}

// alice, a domain administrator, and bob, a member of repository_main.
inline std::shared_ptr<const acl::Principals> AliceAdminBobMember() {
  return std::make_shared<const acl::Principals>(
      std::vector<acl::UserRecord>{SampleUser("alice"), SampleUser("bob")},
      std::vector<acl::GroupRecord>{{"admin", {"alice"}}, {"repository_main", {"bob"}}});
}

}  // namespace folio::testing
