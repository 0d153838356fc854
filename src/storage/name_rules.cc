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

namespace {

// `s` cut to about `keep` bytes around its middle (at UTF-8 character boundaries).
std::string Shortened(std::string_view s, size_t keep) {
  if (s.size() <= keep) return std::string(s);
  auto boundary = [&](size_t i) {
    while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    return i;
  };
  const size_t head = boundary(keep / 2);
  const size_t tail = boundary(s.size() - keep / 2);
  return std::string(s.substr(0, head)) + "..." + std::string(s.substr(tail));
}

}  // namespace

Status ValidatePathLength(std::string_view folder, std::string_view name, size_t below) {
  const size_t length = (folder.empty() ? 0 : folder.size() + 1) + name.size() + below;
  if (length <= kMaxPathBytes) return OkStatus();
  std::string what = "'" + Shortened(name, 60) + "' in folder '/" + Shortened(folder, 80) + "'";
  if (below > 0) what = "folder " + what + ", with what it holds,";
  return Constraint("path too long: " + what + " would have a path of " + std::to_string(length) +
                    " bytes below the repository's root folder; at most " + std::to_string(kMaxPathBytes) +
                    " are allowed");
}

}  // namespace folio::storage
