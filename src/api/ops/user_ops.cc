// Domain level (docs/API.md §11.1): createUser, updateUser, deleteUser,
// getUsers, createGroup, updateGroup, deleteGroup, getGroups. Changes need a domain
// administrator (a user may also update itself); listings any user of the domain.
// Responses never hold a password, a hash or a stored key; an API key is shown once,
// when it is made.
#include <algorithm>
#include <set>

#include "api/ops/ops.h"
#include "api/properties_form.h"
#include "repo/acl/secrets.h"

namespace folio::api::ops {
namespace {

Result<std::shared_ptr<const acl::Principals>> Principals(const Context& ctx) { return ctx.accounts->Current(); }

Json GroupJson(const acl::Principals& principals, std::string_view group_id) {
  return Json{{"groupId", group_id}, {"members", principals.MembersOf(group_id)}};
}

// `members`: a JSON array of ids (or a string holding one), a comma-separated list, or
// the form controls members[0], members[1], ...; nullopt when none is given.
Result<std::optional<std::vector<std::string>>> ReadMembers(const Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> indexed, ReadIndexedStrings(ctx.params, "members", 10000));
  if (!indexed.empty()) return std::optional<std::vector<std::string>>(std::move(indexed));
  const Json* value = ctx.params.Find("members");
  if (value == nullptr) return std::optional<std::vector<std::string>>();
  std::vector<std::string> out;
  if (value->is_string() && !value->get_ref<const std::string&>().starts_with('[')) {
    const std::string& text = value->get_ref<const std::string&>();
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      std::string one = text.substr(start, comma - start);
      one.erase(0, one.find_first_not_of(" \t"));
      one.erase(one.find_last_not_of(" \t") + 1);
      if (!one.empty()) out.push_back(std::move(one));
      start = comma + 1;
    }
    return std::optional<std::vector<std::string>>(std::move(out));
  }
  FOLIO_ASSIGN_OR_RETURN(std::optional<Json> array, ctx.params.GetJsonArray("members"));
  if (!array) return std::optional<std::vector<std::string>>();
  for (const Json& m : *array) {
    if (!m.is_string()) return InvalidArgument("parameter 'members' must hold ids (strings), got " + m.dump());
    out.push_back(m.get<std::string>());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

// Removes every ACL entry naming `principal` from every repository of the domain
// (docs/API.md §11.1), one change per repository with a "security" event per object
// changed. deleteUser and deleteGroup call it once the principal is gone, and
// createUser and createGroup before one is made under the id: entries a deletion
// could not remove (the process died between its two steps, or an applyACL that
// validated its principals before the deletion wrote after it) match nobody while
// the id is free, and are gone before anyone holds it again.
// An id that names a principal now, or a built-in group, is left alone (the creation
// is then refused).
Status RemoveFromEveryAcl(Context& ctx, const std::string& principal) {
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  if (acl::IsBuiltInGroup(principal) || principals->FindUser(principal) != nullptr ||
      principals->FindGroup(principal) != nullptr) {
    return OkStatus();
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<folio::RepositoryInfo> repos, ctx.store.ListRepositories(ctx.domain_id));
  for (const folio::RepositoryInfo& info : repos) {
    // For a domain administrator (RequireDomainAdmin), in every repository of the domain.
    FOLIO_ASSIGN_OR_RETURN(auto repo, UnguardedRepository(ctx, info.repository_id));
    FOLIO_RETURN_IF_ERROR(repo->RemovePrincipal(principal).status());
  }
  return OkStatus();
}

}  // namespace

// The new password of a request, checked. Never quoted in a message.
Result<std::string> ReadPassword(const Context& ctx, std::string_view name) {
  const Json* value = ctx.params.Find(name);
  if (value == nullptr) return InvalidArgument("missing required parameter '" + std::string(name) + "'");
  if (!value->is_string()) return InvalidArgument("parameter '" + std::string(name) + "' must be a string");
  std::string password = value->get<std::string>();
  FOLIO_RETURN_IF_ERROR(acl::CheckPassword(password, name));
  return password;
}

namespace {

// A user's JSON with its new API key (shown this once).
Json WithApiKey(Json user, const std::string& key) {
  user["apiKey"] = key;
  return user;
}

}  // namespace

Status RequireDomainAdmin(const Context& ctx, std::string_view operation) {
  if (ctx.caller.domain_admin()) return OkStatus();
  return PermissionDenied("user '" + ctx.caller.user() + "' may not " + std::string(operation) +
                          ": only administrators of domain '" + ctx.domain_id + "' (group 'admin') may");
}

Json UserJson(const acl::Principals& principals, const acl::UserRecord& user) {
  return Json{{"userId", user.id}, {"displayName", user.display_name}, {"groups", principals.GroupsOf(user.id)}};
}

Result<Response> GetUsers(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  Json users = Json::array();
  for (const auto& [id, user] : principals->users()) users.push_back(UserJson(*principals, user));
  // Who asks (null: anonymous, in a domain without users), so that a client signed in
  // with an API key learns its user (docs/API.md §11.1).
  Json caller = ctx.caller.authenticated() ? Json(ctx.caller.user()) : Json();
  return JsonResponse(200, Json{{"users", std::move(users)}, {"caller", std::move(caller)}});
}

Result<Response> CreateUser(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "createUser"));
  acl::UserRecord user;
  FOLIO_ASSIGN_OR_RETURN(user.id, ctx.params.RequireString("userId"));
  FOLIO_RETURN_IF_ERROR(acl::CheckNewUserId(user.id));
  FOLIO_ASSIGN_OR_RETURN(user.display_name, ctx.params.GetString("displayName", user.id));
  FOLIO_ASSIGN_OR_RETURN(std::string password, ReadPassword(ctx, "password"));
  FOLIO_ASSIGN_OR_RETURN(user.password_hash, ctx.authenticator->HashPassword(std::move(password)));
  const std::string key = acl::NewApiKey();
  user.api_key_hash = acl::HashApiKey(key);
  FOLIO_RETURN_IF_ERROR(RemoveFromEveryAcl(ctx, user.id));
  FOLIO_ASSIGN_OR_RETURN(acl::UserRecord made, ctx.accounts->CreateUser(std::move(user)));
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  Response r = JsonResponse(201, WithApiKey(UserJson(*principals, made), key));
  r.headers.emplace_back("Location", ctx.request.base_url + "/" + ctx.domain_id + "?operation=getUsers");
  return r;
}

// Any field not given stays as it was. A user may update itself; others need an
// administrator.
Result<Response> UpdateUser(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("userId"));
  if (!(ctx.caller.authenticated() && ctx.caller.user() == id)) {
    FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "update user '" + id + "'"));
  }
  acl::UserChanges changes;
  if (ctx.params.Has("displayName")) {
    FOLIO_ASSIGN_OR_RETURN(changes.display_name, ctx.params.GetString("displayName"));
  }
  if (ctx.params.Has("password")) {
    FOLIO_ASSIGN_OR_RETURN(std::string password, ReadPassword(ctx, "password"));
    FOLIO_ASSIGN_OR_RETURN(changes.password_hash, ctx.authenticator->HashPassword(std::move(password)));
  }
  FOLIO_ASSIGN_OR_RETURN(bool regenerate, ctx.params.GetBool("regenerateApiKey", false));
  std::string key;
  if (regenerate) {
    key = acl::NewApiKey();
    changes.api_key_hash = acl::HashApiKey(key);
  }
  FOLIO_ASSIGN_OR_RETURN(acl::UserRecord updated, ctx.accounts->UpdateUser(id, changes));
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  Json out = UserJson(*principals, updated);
  return JsonResponse(200, regenerate ? WithApiKey(std::move(out), key) : std::move(out));
}

Result<Response> DeleteUser(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "deleteUser"));
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("userId"));
  FOLIO_RETURN_IF_ERROR(acl::CheckPrincipalId(id, "user id"));
  FOLIO_RETURN_IF_ERROR(ctx.accounts->DeleteUser(id));
  FOLIO_RETURN_IF_ERROR(RemoveFromEveryAcl(ctx, id));
  return EmptyResponse(200);
}

// Built-in groups first (admin, user, the repositories' groups), then the others, each
// in id order.
Result<Response> GetGroups(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  FOLIO_ASSIGN_OR_RETURN(std::vector<folio::RepositoryInfo> repos, ctx.store.ListRepositories(ctx.domain_id));
  Json groups = Json::array();
  groups.push_back(GroupJson(*principals, acl::kAdminGroup));
  groups.push_back(GroupJson(*principals, acl::kUserGroup));
  for (const folio::RepositoryInfo& repo : repos) {
    groups.push_back(GroupJson(*principals, acl::RepositoryGroup(repo.repository_id)));
  }
  for (const auto& [id, group] : principals->groups()) {
    if (!acl::IsBuiltInGroup(id)) groups.push_back(GroupJson(*principals, id));
  }
  return JsonResponse(200, Json{{"groups", std::move(groups)}});
}

Result<Response> CreateGroup(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "createGroup"));
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("groupId"));
  FOLIO_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> members, ReadMembers(ctx));
  FOLIO_RETURN_IF_ERROR(acl::CheckPrincipalId(id, "group id"));
  FOLIO_RETURN_IF_ERROR(RemoveFromEveryAcl(ctx, id));
  FOLIO_ASSIGN_OR_RETURN(acl::GroupRecord made,
                         ctx.accounts->CreateGroup(id, members ? std::move(*members) : std::vector<std::string>()));
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  Response r = JsonResponse(201, GroupJson(*principals, made.id));
  r.headers.emplace_back("Location", ctx.request.base_url + "/" + ctx.domain_id + "?operation=getGroups");
  return r;
}

Result<Response> UpdateGroup(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "updateGroup"));
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("groupId"));
  FOLIO_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> members, ReadMembers(ctx));
  if (!members) return InvalidArgument("missing required parameter 'members' (the new member list; [] for none)");
  // A repository's group exists with its repository.
  if (id.starts_with(acl::kRepositoryGroupPrefix)) {
    const std::string repository_id = id.substr(acl::kRepositoryGroupPrefix.size());
    auto repo = UnguardedRepository(ctx, repository_id);
    if (!repo.ok()) {
      if (repo.status().kind() != ErrorKind::kObjectNotFound) return repo.status();
      return ObjectNotFound("no group '" + id + "' in domain '" + ctx.domain_id + "' (no repository '" +
                            repository_id + "')");
    }
  }
  FOLIO_ASSIGN_OR_RETURN(acl::GroupRecord updated, ctx.accounts->UpdateGroup(id, std::move(*members)));
  FOLIO_ASSIGN_OR_RETURN(auto principals, Principals(ctx));
  return JsonResponse(200, GroupJson(*principals, updated.id));
}

Result<Response> DeleteGroup(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "deleteGroup"));
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("groupId"));
  FOLIO_RETURN_IF_ERROR(acl::CheckPrincipalId(id, "group id"));
  FOLIO_RETURN_IF_ERROR(ctx.accounts->DeleteGroup(id));
  FOLIO_RETURN_IF_ERROR(RemoveFromEveryAcl(ctx, id));
  return EmptyResponse(200);
}

}  // namespace folio::api::ops
