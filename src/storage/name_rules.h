// Which object names the storage accepts (docs/API.md §3.1): the same rules serve the
// engine, the HTTP layer and fsck.
#pragma once

#include <string_view>

#include "folio/status.h"

namespace folio::storage {

inline constexpr size_t kMaxNameBytes = 255;

// OK, or kNameConstraintViolation naming the name and the rule it breaks: empty, "." or
// "..", contains '/' or NUL, longer than 255 bytes, not valid UTF-8, or reserved by the
// storage format (starts with ".folio").
Status ValidateName(std::string_view name);

}  // namespace folio::storage
