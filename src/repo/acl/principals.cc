// Membership resolution of a domain's users and groups; see principals.h.
#include "repo/acl/principals.h"

#include <algorithm>
#include <deque>
#include <set>

#include "storage/layout.h"

namespace folio::acl {
namespace {

bool IsIdChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '@' || c == '-';
}

const std::vector<std::string>& NoGroups() {
  static const std::vector<std::string> kNone;
  return kNone;
}

}  // namespace

std::string RepositoryGroup(std::string_view repository_id) {
  return std::string(kRepositoryGroupPrefix) + std::string(repository_id);
}

bool IsBuiltInGroup(std::string_view group_id) {
  return group_id == kAdminGroup || group_id == kUserGroup || group_id.starts_with(kRepositoryGroupPrefix);
}

Status CheckPrincipalId(std::string_view id, std::string_view what) {
  const bool valid = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), IsIdChar);
  const std::string shown = std::string(id.substr(0, 100)) + (id.size() > 100 ? "..." : "");
  if (!valid) {
    return InvalidArgument(std::string(what) + " '" + shown + "' must match " + std::string(kPrincipalIdPattern));
  }
  if (storage::IsReservedName(id)) {
    return InvalidArgument(std::string(what) + " '" + shown + "' is reserved: ids starting with '" +
                           std::string(storage::kReservedPrefix) + "' belong to the storage format");
  }
  return OkStatus();
}

Principals::Principals(std::vector<UserRecord> users, std::vector<GroupRecord> groups) {
  for (UserRecord& u : users) {
    if (users_.count(u.id)) continue;
    if (!u.api_key_hash.empty()) by_key_hash_.emplace(u.api_key_hash, u.id);
    std::string id = u.id;
    users_.emplace(std::move(id), std::move(u));
  }
  for (GroupRecord& g : groups) {
    if (g.id == kUserGroup || groups_.count(g.id)) continue;
    std::string id = g.id;
    groups_.emplace(std::move(id), std::move(g));
  }
  // Who contains whom: member id -> the stored groups that list it.
  std::unordered_map<std::string, std::vector<std::string>> containers;
  for (const auto& [id, g] : groups_) {
    for (const std::string& m : g.members) {
      if (m == id || !Exists(m)) continue;
      containers[m].push_back(id);
    }
  }
  // Every user is a member of "user"; walking up from the user and from "user" with a
  // visited set ends on cycles.
  for (const auto& [user_id, u] : users_) {
    std::set<std::string> seen{std::string(kUserGroup)};
    std::deque<std::string> todo{std::string(kUserGroup)};
    if (auto it = containers.find(user_id); it != containers.end()) {
      for (const std::string& g : it->second) {
        if (seen.insert(g).second) todo.push_back(g);
      }
    }
    while (!todo.empty()) {
      const std::string g = std::move(todo.front());
      todo.pop_front();
      auto it = containers.find(g);
      if (it == containers.end()) continue;
      for (const std::string& outer : it->second) {
        if (seen.insert(outer).second) todo.push_back(outer);
      }
    }
    groups_of_.emplace(user_id, std::vector<std::string>(seen.begin(), seen.end()));
  }
}

const UserRecord* Principals::FindUser(std::string_view id) const {
  auto it = users_.find(id);
  return it == users_.end() ? nullptr : &it->second;
}

const GroupRecord* Principals::FindGroup(std::string_view id) const {
  auto it = groups_.find(id);
  return it == groups_.end() ? nullptr : &it->second;
}

const UserRecord* Principals::FindByApiKeyHash(std::string_view key_hash) const {
  auto it = by_key_hash_.find(std::string(key_hash));
  return it == by_key_hash_.end() ? nullptr : FindUser(it->second);
}

const std::vector<std::string>& Principals::GroupsOf(std::string_view user_id) const {
  auto it = groups_of_.find(user_id);
  return it == groups_of_.end() ? NoGroups() : it->second;
}

bool Principals::IsMember(std::string_view user_id, std::string_view group_id) const {
  const std::vector<std::string>& groups = GroupsOf(user_id);
  return std::binary_search(groups.begin(), groups.end(), group_id, std::less<>());
}

std::vector<std::string> Principals::UsersIn(std::string_view group_id) const {
  std::vector<std::string> out;
  for (const auto& [id, groups] : groups_of_) {
    if (std::binary_search(groups.begin(), groups.end(), group_id, std::less<>())) out.push_back(id);
  }
  return out;  // groups_of_ is ordered by user id
}

std::vector<std::string> Principals::MembersOf(std::string_view group_id) const {
  if (group_id == kUserGroup) {
    std::vector<std::string> all;
    for (const auto& [id, u] : users_) all.push_back(id);
    return all;
  }
  const GroupRecord* g = FindGroup(group_id);
  return g ? g->members : std::vector<std::string>();
}

bool Principals::Exists(std::string_view id) const {
  return id == kUserGroup || users_.count(id) > 0 || groups_.count(id) > 0;
}

}  // namespace folio::acl
