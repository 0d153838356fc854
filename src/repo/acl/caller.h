// Who makes a request, as access decisions see it: a user of the domain with its
// groups, anyone in a domain without users, or the server administrator.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "repo/acl/principals.h"

namespace folio::acl {

class Caller {
 public:
  enum class Kind {
    kAnonymousDomain,  // a domain without users: anyone, allowed everything (local development)
    kUser,             // an authenticated user of the domain
    kServerAdmin,      // the server administrator (server-level operations)
  };

  // Anyone, in a domain that has no users.
  static Caller AnonymousDomain();
  // The authenticated user `user_id` of the domain `principals` describes.
  // Requires: `principals` holds that user.
  static Caller User(std::shared_ptr<const Principals> principals, std::string user_id);
  // The server administrator ("admin" with FOLIO_ADMIN_PASSWORD, or a loopback client).
  static Caller ServerAdmin();

  Kind kind() const { return kind_; }
  // The user name stored in createdBy, lastModifiedBy, versionSeriesCheckedOutBy:
  // the user id; "anonymous" in a domain without users; "admin" for the server
  // administrator.
  const std::string& user() const { return user_; }
  bool authenticated() const { return kind_ == Kind::kUser; }
  // May do everything in the domain: a member of `admin`, or anyone in a domain
  // without users.
  bool domain_admin() const { return domain_admin_; }
  // In `group_id`, directly or through nested groups (always false unless kUser).
  bool InGroup(std::string_view group_id) const;
  // True when an access control entry for `principal` applies to this caller: its
  // user id, one of its groups, `cmis:anyone` (every authenticated user of the domain;
  // anyone in a domain without users), `cmis:anonymous` (only in a domain without
  // users: once a domain has users it matches nobody).
  bool Matches(std::string_view principal) const;
  // Every principal Matches is true for: a user's id, cmis:anyone and its groups
  // ("user" included); cmis:anyone and cmis:anonymous in a domain without users; none
  // for the server administrator. An index can keep the objects readable by a caller
  // with it (the query index's readers).
  std::vector<std::string> MatchingPrincipals() const;
  // The users and groups of the caller's domain (null unless kUser).
  const std::shared_ptr<const Principals>& principals() const { return principals_; }

 private:
  Caller(Kind kind, std::string user, bool domain_admin) : kind_(kind), user_(std::move(user)), domain_admin_(domain_admin) {}

  Kind kind_;
  std::string user_;
  bool domain_admin_ = false;
  std::shared_ptr<const Principals> principals_;
};

}  // namespace folio::acl
