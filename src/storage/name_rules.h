// Which object names the storage accepts (docs/API.md §3.1): the same rules serve the
// engine, the HTTP layer and fsck.
#pragma once

#include <string_view>

#include "folio/status.h"

namespace folio::storage {

inline constexpr size_t kMaxNameBytes = 255;
// Rule P1 (the path limit, docs/API.md §9): an object's path below
// its repository's root folder ("a/b/c.txt") is at most this many bytes. Every change
// that gives an object a path (create, move, rename, a check-in's rename) checks it
// before anything is staged, for the object and, when a folder moves, for everything
// below it; so every file Folio writes stays within what the operating system takes.
inline constexpr size_t kMaxPathBytes = 4000;

// OK, or kNameConstraintViolation naming the name and the rule it breaks: empty, "." or
// "..", contains '/' or NUL, longer than 255 bytes, not valid UTF-8, or reserved by the
// storage format (starts with ".folio").
Status ValidateName(std::string_view name);

// Rule P1: OK, or kConstraint when the object `name` in `folder` (repository-relative),
// with `below` bytes of path under it (a folder's deepest descendant, "/" included),
// would have a path longer than kMaxPathBytes. The message names both, shortened.
Status ValidatePathLength(std::string_view folder, std::string_view name, size_t below = 0);

}  // namespace folio::storage
