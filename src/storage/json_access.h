// Reading fields of stored JSON without exceptions: nlohmann's value() and get() throw
// on a type mismatch, and stored files may have been edited by hand. Every decoder of
// an on-disk record reads its fields through these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "storage/json_file.h"

namespace folio::storage {

// The member `key` of `j` when `j` is an object holding it with that type; nullopt
// otherwise (absent, null, another type, or `j` not an object).
std::optional<std::string> StringField(const Json& j, const char* key);
std::optional<bool> BoolField(const Json& j, const char* key);
// Integers only (a decimal 1.5 is not an integer); a negative number is not a uint.
std::optional<int64_t> IntField(const Json& j, const char* key);
std::optional<uint64_t> UintField(const Json& j, const char* key);
// The member itself when `j` is an object holding it (any type), else nullptr.
const Json* Member(const Json& j, const char* key);

inline std::string StringOr(const Json& j, const char* key, std::string fallback) {
  auto v = StringField(j, key);
  return v ? std::move(*v) : std::move(fallback);
}
inline bool BoolOr(const Json& j, const char* key, bool fallback) { return BoolField(j, key).value_or(fallback); }

}  // namespace folio::storage
