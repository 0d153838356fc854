// Object name rules; see name_rules.h.
#include "storage/name_rules.h"

#include <string>

#include "storage/layout.h"
#include "storage/utf8.h"

namespace folio::storage {

Status ValidateName(std::string_view name) {
  // Built only for a message: every by-path request validates each segment.
  auto quoted = [name] { return "'" + std::string(name.substr(0, 300)) + "'"; };
  if (name.empty()) return NameConstraintViolation("name must not be empty");
  if (name == "." || name == "..") return NameConstraintViolation("name " + quoted() + " is not allowed");
  if (name.find('/') != std::string_view::npos) {
    return NameConstraintViolation("name " + quoted() + " must not contain '/'");
  }
  if (name.find('\0') != std::string_view::npos) return NameConstraintViolation("name must not contain NUL");
  if (name.size() > kMaxNameBytes) {
    return NameConstraintViolation("name is " + std::to_string(name.size()) + " bytes long, at most " +
                                   std::to_string(kMaxNameBytes) + " allowed");
  }
  if (!IsValidUtf8(name)) return NameConstraintViolation("name is not valid UTF-8");
  if (IsReservedName(name)) {
    return NameConstraintViolation("name " + quoted() + " is reserved by the storage format (names starting with '.folio')");
  }
  return OkStatus();
}

}  // namespace folio::storage
