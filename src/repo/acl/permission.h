// The CMIS basic permissions and how they nest: cmis:read ⊂ cmis:write ⊂ cmis:all
// (each includes the ones before it; docs/API.md §11.3).
#pragma once

#include <optional>
#include <string_view>

namespace folio::acl {

// Ordered: a greater permission includes every smaller one.
enum class Permission { kNone = 0, kRead = 1, kWrite = 2, kAll = 3 };

inline constexpr std::string_view kPermissionRead = "cmis:read";
inline constexpr std::string_view kPermissionWrite = "cmis:write";
inline constexpr std::string_view kPermissionAll = "cmis:all";

// The permission `name` spells ("cmis:read", "cmis:write", "cmis:all"; exact case, as
// CMIS ids are); nullopt for any other text, "" included.
std::optional<Permission> ParsePermission(std::string_view name);
// "cmis:read", "cmis:write", "cmis:all"; "" for kNone.
std::string_view PermissionName(Permission p);
// True when holding `held` grants `wanted` (cmis:all grants cmis:write and cmis:read).
constexpr bool Grants(Permission held, Permission wanted) { return held >= wanted; }

}  // namespace folio::acl
