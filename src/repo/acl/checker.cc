// Access decisions; see checker.h.
#include "repo/acl/checker.h"

#include <string>

#include "folio/cmis_ids.h"

namespace folio::acl {
namespace {

std::string Describe(const ObjectData& object) {
  // Relationships are filed nowhere: their id is all there is to name them by.
  if (object.base == BaseType::kRelationship) return "object '" + object.id + "'";
  return "'/" + object.path + "'";
}

// What `action` does to a working copy that only its holder may do ("" for none):
// checkIn, cancelCheckOut, and deleting it (which cancels the check-out).
std::string_view HolderVerb(Action action) {
  switch (action) {
    case Action::kCheckIn: return "check in";
    case Action::kCancelCheckOut:
    case Action::kDelete: return "cancel";
    default: return "";
  }
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
  if (held == Permission::kNone) {
    // Names nothing of the object (its path, name or version are not the caller's to
    // learn), nor what was asked of it: every object the caller may not read answers
    // alike.
    return PermissionDenied("user '" + caller_.user() + "' has no permission on an object this request needs");
  }
  return PermissionDenied("user '" + caller_.user() + "' needs " + std::string(PermissionName(permission)) + " on " +
                          Describe(object) + " and has " + std::string(PermissionName(held)));
}

Status Checker::RequireHolder(const ObjectData& working_copy, std::string_view doing) const {
  if (doing.empty() || !working_copy.is_pwc || caller_.domain_admin()) return OkStatus();
  const auto by = working_copy.properties.find(cmis::kVersionSeriesCheckedOutBy);
  if (by != working_copy.properties.end() && by->is_string() && by->get<std::string>() == caller_.user()) {
    return OkStatus();
  }
  if (On(working_copy) == Permission::kAll) return OkStatus();
  const std::string holder = by != working_copy.properties.end() && by->is_string() ? by->get<std::string>() : "";
  return PermissionDenied("user '" + caller_.user() + "' may not " + std::string(doing) + " the working copy of " +
                          Describe(working_copy) + ": it is checked out by '" + holder +
                          "', and only that user, a holder of cmis:all on the document or a domain "
                          "administrator may");
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
  if (caller_.domain_admin()) return WriteCheck::Trusted();
  return [checker = *this, action, r = RequirementOf(action)](WriteRole role, const ObjectData& object) -> Status {
    switch (role) {
      case WriteRole::kObject: {
        FOLIO_RETURN_IF_ERROR(checker.Require(r.object, object));
        return checker.RequireHolder(object, HolderVerb(action));
      }
      case WriteRole::kSource: return checker.Require(r.source, object);
      case WriteRole::kTarget: return checker.Require(r.target, object);
      case WriteRole::kBelow: return checker.Require(r.object, object);  // as on the folder
    }
    return checker.Require(Permission::kAll, object);
  };
}

}  // namespace folio::acl
