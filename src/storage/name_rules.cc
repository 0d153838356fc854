// Object name rules; see name_rules.h.
#include "storage/name_rules.h"

#include <string>

#include "storage/layout.h"

namespace folio::storage {

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) { ++i; continue; }
    int len = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return false;
    if (i + len > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

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
