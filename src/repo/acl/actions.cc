// The action -> permission table and the permission mapping derived from it.
#include "repo/acl/actions.h"

#include <array>

namespace folio::acl {
namespace {

using P = Permission;

// Which object of an action a mapping key speaks of.
enum class Role { kObject, kSource, kTarget };

struct KeyRow {
  std::string_view key;
  Action action;
  Role role;
};

// Every key of docs/API.md §11.3, in its order ("Descendents" and "Checkout" as CMIS
// spells them). Policies and multi-filing do not exist in Folio; their keys say what
// they would need (read to see an object, write to change a folder or an object).
constexpr KeyRow kKeys[] = {
    {"canGetDescendents.Folder", Action::kRead, Role::kObject},
    {"canGetChildren.Folder", Action::kRead, Role::kObject},
    {"canGetParents.Folder", Action::kRead, Role::kObject},
    {"canGetFolderParent.Object", Action::kRead, Role::kObject},
    {"canCreateDocument.Folder", Action::kCreateChild, Role::kObject},
    {"canCreateFolder.Folder", Action::kCreateChild, Role::kObject},
    {"canCreatePolicy.Folder", Action::kCreateChild, Role::kObject},
    {"canCreateRelationship.Source", Action::kCreateRelationship, Role::kSource},
    {"canCreateRelationship.Target", Action::kCreateRelationship, Role::kTarget},
    {"canGetProperties.Object", Action::kRead, Role::kObject},
    {"canViewContent.Object", Action::kRead, Role::kObject},
    {"canUpdateProperties.Object", Action::kUpdateProperties, Role::kObject},
    {"canMove.Object", Action::kMove, Role::kObject},
    {"canMove.Target", Action::kMove, Role::kTarget},
    {"canMove.Source", Action::kMove, Role::kSource},
    {"canDelete.Object", Action::kDelete, Role::kObject},
    {"canDeleteTree.Folder", Action::kDeleteTree, Role::kObject},
    {"canSetContent.Document", Action::kSetContent, Role::kObject},
    {"canDeleteContent.Document", Action::kDeleteContent, Role::kObject},
    {"canAddToFolder.Object", Action::kRead, Role::kObject},
    {"canAddToFolder.Folder", Action::kCreateChild, Role::kObject},
    {"canRemoveFromFolder.Object", Action::kRead, Role::kObject},
    {"canRemoveFromFolder.Folder", Action::kCreateChild, Role::kObject},
    {"canCheckout.Document", Action::kCheckOut, Role::kObject},
    {"canCancelCheckout.Document", Action::kCancelCheckOut, Role::kObject},
    {"canCheckin.Document", Action::kCheckIn, Role::kObject},
    {"canGetAllVersions.VersionSeries", Action::kRead, Role::kObject},
    {"canGetObjectRelationships.Object", Action::kRead, Role::kObject},
    {"canAddPolicy.Object", Action::kUpdateProperties, Role::kObject},
    {"canAddPolicy.Policy", Action::kRead, Role::kObject},
    {"canRemovePolicy.Object", Action::kUpdateProperties, Role::kObject},
    {"canRemovePolicy.Policy", Action::kRead, Role::kObject},
    {"canGetAppliedPolicies.Object", Action::kRead, Role::kObject},
    {"canGetACL.Object", Action::kRead, Role::kObject},
    {"canApplyACL.Object", Action::kApplyAcl, Role::kObject},
};

constexpr Requirement Require(Action action) {
  switch (action) {
    case Action::kRead: return {P::kRead, P::kNone, P::kNone};
    case Action::kUpdateProperties:
    case Action::kSetContent:
    case Action::kDeleteContent:
    case Action::kDelete:
    case Action::kDeleteTree:
    case Action::kCheckOut:
    case Action::kCheckIn:
    case Action::kCancelCheckOut:
    case Action::kCreateChild: return {P::kWrite, P::kNone, P::kNone};
    // A relationship is filed nowhere: seeing both ends is what relating them needs.
    case Action::kCreateRelationship: return {P::kNone, P::kRead, P::kRead};
    case Action::kMove: return {P::kWrite, P::kWrite, P::kWrite};
    case Action::kApplyAcl:
    // A type decides what every object of the repository may be: as much as the
    // repository's root folder's own ACL.
    case Action::kManageTypes: return {P::kAll, P::kNone, P::kNone};
  }
  return {P::kAll, P::kAll, P::kAll};
}

constexpr Permission PermissionFor(const KeyRow& row) {
  const Requirement r = Require(row.action);
  switch (row.role) {
    case Role::kObject: return r.object;
    case Role::kSource: return r.source;
    case Role::kTarget: return r.target;
  }
  return P::kAll;
}

constexpr auto MakeMapping() {
  std::array<PermissionMapping, std::size(kKeys)> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = {kKeys[i].key, PermissionFor(kKeys[i])};
  return out;
}

constexpr auto kMapping = MakeMapping();

constexpr PermissionDefinition kPermissions[] = {
    {kPermissionRead, "Read"},
    {kPermissionWrite, "Write"},
    {kPermissionAll, "All"},
};

}  // namespace

Requirement RequirementOf(Action action) { return Require(action); }

const AclCapabilities& Capabilities() {
  static const AclCapabilities kCapabilities{"manage", "basic", "propagate", kPermissions, kMapping};
  return kCapabilities;
}

}  // namespace folio::acl
