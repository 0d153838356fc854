// Access decisions; see checker.h.
#include "repo/acl/checker.h"

#include <string>

namespace folio::acl {
namespace {

std::string Describe(const ObjectData& object) {
  // Relationships are filed nowhere: their id is all there is to name them by.
  if (object.base == BaseType::kRelationship) return "object '" + object.id + "'";
  return "'/" + object.path + "'";
}

}  // namespace

Permission EffectivePermission(const Caller& caller, const std::vector<Ace>& acl) {
  if (caller.domain_admin()) return Permission::kAll;
  Permission best = Permission::kNone;
  for (const Ace& ace : acl) {
    if (!caller.Matches(ace.principal)) continue;
    for (const std::string& name : ace.permissions) {
      const std::optional<Permission> p = ParsePermission(name);
      if (p && *p > best) best = *p;
    }
    if (best == Permission::kAll) break;
  }
  return best;
}

bool MayUseRepository(const Caller& caller, std::string_view repository_id) {
  if (caller.domain_admin()) return true;
  return caller.InGroup(RepositoryGroup(repository_id));
}

Status CheckRepositoryGate(const Caller& caller, std::string_view repository_id) {
  if (MayUseRepository(caller, repository_id)) return OkStatus();
  return PermissionDenied("user '" + caller.user() + "' may not use repository '" + std::string(repository_id) +
                          "': only members of group '" + RepositoryGroup(repository_id) +
                          "' and domain administrators may");
}

Status Checker::Require(Permission permission, const ObjectData& object) const {
  if (permission == Permission::kNone) return OkStatus();
  const Permission held = On(object);
  if (Grants(held, permission)) return OkStatus();
  std::string message = "user '" + caller_.user() + "' needs " + std::string(PermissionName(permission)) + " on " +
                        Describe(object) + " and has ";
  message += held == Permission::kNone ? "no permission" : std::string(PermissionName(held));
  return PermissionDenied(std::move(message));
}

Status Checker::Require(Action action, const ObjectData& object, const ObjectData* source,
                        const ObjectData* target) const {
  const Requirement r = RequirementOf(action);
  FOLIO_RETURN_IF_ERROR(Require(r.object, object));
  if (source != nullptr) FOLIO_RETURN_IF_ERROR(Require(r.source, *source));
  if (target != nullptr) FOLIO_RETURN_IF_ERROR(Require(r.target, *target));
  return OkStatus();
}

WriteCheck Checker::ForWrite(Action action) const {
  if (caller_.domain_admin()) return {};
  return [checker = *this, r = RequirementOf(action)](WriteRole role, const ObjectData& object) -> Status {
    switch (role) {
      case WriteRole::kObject: return checker.Require(r.object, object);
      case WriteRole::kSource: return checker.Require(r.source, object);
      case WriteRole::kTarget: return checker.Require(r.target, object);
      case WriteRole::kBelow: return checker.Require(Action::kDelete, object);
    }
    return checker.Require(Permission::kAll, object);
  };
}

}  // namespace folio::acl
