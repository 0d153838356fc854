// ACL values; see ace_list.h.
#include "repo/acl/ace_list.h"

#include <algorithm>
#include <string>

#include "repo/acl/permission.h"

namespace folio::acl {

Status ValidateAces(const std::vector<Ace>& aces, std::string_view list_name, const Principals* principals) {
  for (size_t i = 0; i < aces.size(); ++i) {
    const Ace& ace = aces[i];
    const std::string entry = std::string(list_name) + " entry " + std::to_string(i);
    if (ace.principal.empty()) return InvalidArgument(entry + " has an empty principal");
    if (ace.permissions.empty()) {
      return InvalidArgument(entry + " (principal '" + ace.principal + "') has no permissions");
    }
    for (const std::string& p : ace.permissions) {
      if (!ParsePermission(p)) {
        return Constraint(entry + " (principal '" + ace.principal + "'): permission '" + p +
                          "' is not supported (supported: cmis:read, cmis:write, cmis:all)");
      }
    }
    if (principals != nullptr && ace.principal != kAnyone && ace.principal != kAnonymousPrincipal &&
        !principals->Exists(ace.principal)) {
      return InvalidArgument(entry + ": principal '" + ace.principal + "' is no user or group of the domain");
    }
  }
  return OkStatus();
}

std::vector<Ace> ApplyAces(std::vector<Ace> acl, const std::vector<Ace>& add, const std::vector<Ace>& remove) {
  auto find = [&](const std::string& principal) {
    return std::find_if(acl.begin(), acl.end(), [&](const Ace& a) { return a.principal == principal; });
  };
  for (const Ace& a : add) {
    auto it = find(a.principal);
    if (it == acl.end()) {
      acl.push_back(Ace{a.principal, {}});
      it = std::prev(acl.end());
    }
    for (const std::string& p : a.permissions) {
      if (std::find(it->permissions.begin(), it->permissions.end(), p) == it->permissions.end()) {
        it->permissions.push_back(p);
      }
    }
  }
  for (const Ace& r : remove) {
    auto it = find(r.principal);
    if (it == acl.end()) continue;
    for (const std::string& p : r.permissions) {
      it->permissions.erase(std::remove(it->permissions.begin(), it->permissions.end(), p), it->permissions.end());
    }
    if (it->permissions.empty()) acl.erase(it);
  }
  return acl;
}

std::vector<Ace> InitialAcl(const std::vector<Ace>& parent_acl, std::string_view creator, const std::vector<Ace>& add,
                            const std::vector<Ace>& remove) {
  std::vector<Ace> acl = parent_acl;
  if (!creator.empty() && creator != kAnonymousUser) {
    acl = ApplyAces(std::move(acl), {Ace{std::string(creator), {std::string(kPermissionAll)}}}, {});
  }
  return ApplyAces(std::move(acl), add, remove);
}

std::vector<Ace> RootFolderAcl(std::string_view repository_id) {
  return {Ace{RepositoryGroup(repository_id), {std::string(kPermissionAll)}}};
}

std::vector<std::string> ReadingPrincipals(const std::vector<Ace>& acl) {
  std::vector<std::string> out;
  for (const Ace& ace : acl) {
    const bool reads = std::any_of(ace.permissions.begin(), ace.permissions.end(), [](const std::string& name) {
      const std::optional<Permission> p = ParsePermission(name);
      return p && Grants(*p, Permission::kRead);
    });
    if (reads && std::find(out.begin(), out.end(), ace.principal) == out.end()) out.push_back(ace.principal);
  }
  return out;
}

}  // namespace folio::acl
