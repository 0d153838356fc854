// The users and groups of one domain as an immutable snapshot, with every user's
// groups resolved through nested groups (docs/API.md §11.1). Built from
// the records on disk (accounts.h) or by tests; answers membership questions in
// memory, so a request's access checks cost no disk read.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "folio/status.h"

namespace folio::acl {

// Built-in groups: `admin` (domain administrators), `user` (every user of the domain,
// implicitly) and one `repository_<id>` per repository (who may use it).
inline constexpr std::string_view kAdminGroup = "admin";
inline constexpr std::string_view kUserGroup = "user";
inline constexpr std::string_view kRepositoryGroupPrefix = "repository_";
// The CMIS special principals (repositoryInfo principalIdAnyone / principalIdAnonymous).
inline constexpr std::string_view kAnyone = "cmis:anyone";
inline constexpr std::string_view kAnonymousPrincipal = "cmis:anonymous";
// The user name of callers in a domain without users (createdBy, checked out by).
inline constexpr std::string_view kAnonymousUser = "anonymous";
// The pattern of user and group ids, as messages quote it.
inline constexpr std::string_view kPrincipalIdPattern = "^[A-Za-z0-9._@-]{1,64}$";

// "repository_<repository_id>".
std::string RepositoryGroup(std::string_view repository_id);
// True for "admin", "user" and every "repository_..." id.
bool IsBuiltInGroup(std::string_view group_id);

// Checks a user or group id: kPrincipalIdPattern, and not a name the storage format
// reserves (".folio..."). `what` is "user id", "group id" or "member". Errors:
// kInvalidArgument naming `what`, quoting the id (shortened) and the pattern.
Status CheckPrincipalId(std::string_view id, std::string_view what);

struct UserRecord {
  std::string id;
  std::string display_name;
  std::string password_hash;  // argon2id string (secrets.h); never shown
  std::string api_key_hash;   // secrets.h HashApiKey; "" when the user has no key
  int64_t created_ms = 0;
  int64_t modified_ms = 0;
};

struct GroupRecord {
  std::string id;
  std::vector<std::string> members;  // user and group ids, as given
  int64_t created_ms = 0;
  int64_t modified_ms = 0;
};

class Principals {
 public:
  Principals() = default;  // a domain without users or groups
  // Takes the records as they are: a member that is neither a user nor a stored group
  // (or "user") is ignored, cycles of nested groups are cut (every group of a cycle
  // holds the members of all), a group named "user" is ignored (its members are
  // implicit). Of two records with one id the first wins.
  Principals(std::vector<UserRecord> users, std::vector<GroupRecord> groups);

  bool has_users() const { return !users_.empty(); }
  // By id. Groups are the stored ones ("admin", "repository_<id>", custom); the
  // implicit "user" group is not among them.
  const std::map<std::string, UserRecord, std::less<>>& users() const { return users_; }
  const std::map<std::string, GroupRecord, std::less<>>& groups() const { return groups_; }
  const UserRecord* FindUser(std::string_view id) const;
  const GroupRecord* FindGroup(std::string_view id) const;
  // The user whose API key hash is `key_hash`; nullptr if none.
  const UserRecord* FindByApiKeyHash(std::string_view key_hash) const;

  // Every group `user_id` is in, directly or through nested groups, sorted; "user"
  // always for a user of the domain; empty for an unknown id.
  const std::vector<std::string>& GroupsOf(std::string_view user_id) const;
  bool IsMember(std::string_view user_id, std::string_view group_id) const;
  bool IsAdmin(std::string_view user_id) const { return IsMember(user_id, kAdminGroup); }
  // The users in `group_id`, directly or nested ("user": every user), sorted.
  std::vector<std::string> UsersIn(std::string_view group_id) const;
  // The members a listing shows: the stored ones; for "user" every user id.
  std::vector<std::string> MembersOf(std::string_view group_id) const;
  // True when `id` names a user, a stored group or the group "user".
  bool Exists(std::string_view id) const;

 private:
  std::map<std::string, UserRecord, std::less<>> users_;
  std::map<std::string, GroupRecord, std::less<>> groups_;
  std::map<std::string, std::vector<std::string>, std::less<>> groups_of_;
  std::unordered_map<std::string, std::string> by_key_hash_;
};

}  // namespace folio::acl
