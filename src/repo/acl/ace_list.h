// Access control lists as values: checking entries a client sends, applyACL's add-
// then-remove, and the ACL a new object or repository starts with (docs/API.md
// §11.3). A new object gets a copy of its parent folder's entries, and a propagated
// applyACL on a folder applies the same additions and removals to each object below
// it: every entry is held by the object itself (CMIS isDirect true), and every ACL is
// exact (CMIS exactACL / isExact true).
#pragma once

#include <string_view>
#include <vector>

#include "folio/object.h"
#include "folio/status.h"
#include "repo/acl/principals.h"

namespace folio::acl {

inline constexpr bool kEntriesAreDirect = true;  // CMIS ACE isDirect
inline constexpr bool kAclIsExact = true;        // CMIS ACL isExact / exactACL

// Checks entries a client sent as `list_name` ("addACEs", "removeACEs"): each has a
// principal and at least one permission, every permission is cmis:read, cmis:write or
// cmis:all, and, when `principals` is given, every principal is cmis:anyone,
// cmis:anonymous, or a user or group of the domain.
// Errors: kConstraint naming an unsupported permission (docs/API.md §7.11); kInvalidArgument
// naming an empty principal, an entry without permissions or an unknown principal.
Status ValidateAces(const std::vector<Ace>& aces, std::string_view list_name, const Principals* principals);

// CMIS applyACL: adds `add` (merging into the entry of the same principal, without
// repeating a permission), then removes `remove` (the permissions named; an entry left
// without permissions goes; removing what is not there changes nothing). Entries keep
// their order; new ones come last.
std::vector<Ace> ApplyAces(std::vector<Ace> acl, const std::vector<Ace>& add, const std::vector<Ace>& remove);

// The ACL of a new object: a copy of its parent folder's entries, cmis:all for its
// creator (none for "anonymous", who is nobody once the domain has users), then the
// request's `add` and `remove` applied.
std::vector<Ace> InitialAcl(const std::vector<Ace>& parent_acl, std::string_view creator, const std::vector<Ace>& add,
                            const std::vector<Ace>& remove);

// The root folder ACL of a new repository: repository_<id> has cmis:all.
std::vector<Ace> RootFolderAcl(std::string_view repository_id);

// The principals whose entries in `acl` let them read the object (every basic
// permission includes cmis:read; other permission names grant nothing, as
// EffectivePermission reads them), each once, in entry order.
std::vector<std::string> ReadingPrincipals(const std::vector<Ace>& acl);

}  // namespace folio::acl
