// Permission names; see permission.h.
#include "repo/acl/permission.h"

namespace folio::acl {

std::optional<Permission> ParsePermission(std::string_view name) {
  if (name == kPermissionRead) return Permission::kRead;
  if (name == kPermissionWrite) return Permission::kWrite;
  if (name == kPermissionAll) return Permission::kAll;
  return std::nullopt;
}

std::string_view PermissionName(Permission p) {
  switch (p) {
    case Permission::kNone: return "";
    case Permission::kRead: return kPermissionRead;
    case Permission::kWrite: return kPermissionWrite;
    case Permission::kAll: return kPermissionAll;
  }
  return "";
}

}  // namespace folio::acl
