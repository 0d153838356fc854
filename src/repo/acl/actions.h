// What each kind of operation needs (docs/API.md §11.3): cmis:read for
// every read, cmis:write for changes (properties, content, check-out/in, creating
// children in a folder, deleting), write on the object and both folders for a move,
// cmis:all for applyACL. Also the aclCapabilities that repositoryInfo announces
// (docs/API.md §4.4), its permissionMapping derived from the same table (docs/API.md §11.3).
#pragma once

#include <span>
#include <string_view>

#include "repo/acl/permission.h"

namespace folio::acl {

enum class Action {
  kRead,              // any read of an object: properties, content, children, versions, ACL, ...
  kUpdateProperties,  // updateProperties, bulkUpdate (each object)
  kSetContent,        // setContent, appendContent
  kDeleteContent,
  kDelete,            // deleteObject
  kDeleteTree,        // deleteTree (the folder)
  kCheckOut,
  kCheckIn,           // on the working copy
  kCancelCheckOut,    // on the working copy
  kCreateChild,       // createDocument/Folder/Item/FromSource: on the parent folder
  kCreateRelationship,  // on its source and target objects
  kMove,              // the object, its source folder and the target folder
  kApplyAcl,
  kManageTypes,       // createType, updateType, deleteType: on the root folder
};

// The permissions an action needs on the object it acts on and, where it has them,
// on its source and target (a move's folders; a relationship's ends). kNone: the
// action has no such object.
struct Requirement {
  Permission object = Permission::kNone;
  Permission source = Permission::kNone;
  Permission target = Permission::kNone;
};
Requirement RequirementOf(Action action);

// One entry of aclCapabilities.permissionMapping (docs/API.md §11.3): key -> permission.
struct PermissionMapping {
  std::string_view key;  // "canCheckout.Document", spelled as CMIS spells it
  Permission permission;
};

struct PermissionDefinition {
  std::string_view permission;  // "cmis:read"
  std::string_view description;
};

// What repositoryInfo announces about ACLs (docs/API.md §4.4 capabilityACL, §1.2).
struct AclCapabilities {
  std::string_view capability;            // capabilityACL: "manage"
  std::string_view supported_permissions;  // "basic"
  // "propagate": applyACL on a folder reaches what it holds (unless asked objectonly),
  // and a new object copies its parent's entries.
  std::string_view propagation;
  std::span<const PermissionDefinition> permissions;
  std::span<const PermissionMapping> mapping;  // every key of docs/API.md §11.3
};
const AclCapabilities& Capabilities();

}  // namespace folio::acl
