// A user record for tests of users and groups: display name "User <id>" and a
// well-formed argon2id hash (never checked: these tests do not authenticate).
#pragma once

#include <string>

#include "repo/acl/account_files.h"

namespace folio::testing {

inline acl::UserRecord SampleUser(std::string id) {
  acl::UserRecord u;
  u.id = std::move(id);
  u.display_name = "User " + u.id;
  u.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";
  return u;
}

}  // namespace folio::testing
