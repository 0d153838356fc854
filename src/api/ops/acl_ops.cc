// Access control in the operations (docs/API.md §11): the ACL of a new object, and the
// ACL operations (getACL, applyACL). The checks themselves are acl::GuardedRepository's.
#include <string>
#include <utility>

#include "api/acl_input.h"
#include "api/ops/ops.h"
#include "repo/acl/ace_list.h"
#include "repo/acl/permission.h"

namespace folio::api::ops {

Result<std::vector<folio::Ace>> NewObjectAcl(const Context& ctx, const std::vector<folio::Ace>& parent_acl) {
  const acl::Principals* principals = ctx.caller.principals().get();
  FOLIO_ASSIGN_OR_RETURN(AclChanges changes, ReadAclChanges(ctx.params, principals));
  return acl::InitialAcl(parent_acl, ctx.caller.user(), changes.add, changes.remove);
}

Json AclJson(const std::vector<folio::Ace>& acl, bool only_basic) {
  Json aces = Json::array();
  for (const folio::Ace& ace : acl) {
    Json permissions = Json::array();
    for (const std::string& p : ace.permissions) {
      if (!only_basic || acl::ParsePermission(p).has_value()) permissions.push_back(p);
    }
    if (permissions.empty()) continue;
    aces.push_back(Json{{"principal", {{"principalId", ace.principal}}},
                        {"permissions", std::move(permissions)},
                        {"isDirect", acl::kEntriesAreDirect}});
  }
  return Json{{"aces", std::move(aces)}, {"isExact", acl::kAclIsExact}};
}

// The ACL of an object (docs/API.md §7.11): every entry is the object's own (copied at
// creation or propagated by applyACL: isDirect true, and the list is exact).
Result<Response> GetAcl(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object, ctx.Target());
  FOLIO_ASSIGN_OR_RETURN(bool only_basic, ctx.params.GetBool("onlyBasicPermissions", true));
  return JsonResponse(200, AclJson(object->acl, only_basic));
}

// applyACL (docs/API.md §11.3): the entries to add, then those to remove, on the object
// named and, for a folder unless ACLPropagation is objectonly, on every object below it
// (one change, all or nothing); needs cmis:all on each. Answers the new ACL.
Result<Response> ApplyAcl(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object, ctx.Target());
  FOLIO_ASSIGN_OR_RETURN(AclChanges changes, ReadAclChanges(ctx.params, ctx.caller.principals().get()));
  if (changes.add.empty() && changes.remove.empty()) {
    return InvalidArgument("applyACL needs entries to add or remove: addACEs/removeACEs (JSON) or "
                           "addACEPrincipal[N]/addACEPermission[N][M] (form)");
  }
  // Applied to the ACL the object has when the change is made, with the permission
  // checked there too: a concurrent applyACL is neither lost nor slipped in between.
  const Repository::AclPropagation propagation = changes.propagation == AclPropagation::kObjectOnly
                                                     ? Repository::AclPropagation::kObjectOnly
                                                     : Repository::AclPropagation::kPropagate;
  FOLIO_ASSIGN_OR_RETURN(ObjectData changed,
                         ctx.repo->ApplyAcl(object->id, changes.add, changes.remove, propagation));
  return JsonResponse(201, AclJson(changed.acl, true));  // 201 as OpenCMIS answers (docs/API.md §7)
}

}  // namespace folio::api::ops
