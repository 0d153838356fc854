// Exception-free field access; see json_access.h.
#include "storage/json_access.h"

namespace folio::storage {

const Json* Member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::optional<std::string> StringField(const Json& j, const char* key) {
  const Json* m = Member(j, key);
  if (m == nullptr || !m->is_string()) return std::nullopt;
  return m->get_ref<const std::string&>();
}

std::optional<bool> BoolField(const Json& j, const char* key) {
  const Json* m = Member(j, key);
  if (m == nullptr || !m->is_boolean()) return std::nullopt;
  return m->get<bool>();
}

std::optional<int64_t> IntField(const Json& j, const char* key) {
  const Json* m = Member(j, key);
  if (m == nullptr) return std::nullopt;
  if (m->is_number_unsigned()) {
    const uint64_t u = m->get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (m->is_number_integer()) return m->get<int64_t>();
  return std::nullopt;
}

std::optional<uint64_t> UintField(const Json& j, const char* key) {
  const Json* m = Member(j, key);
  if (m == nullptr) return std::nullopt;
  if (m->is_number_unsigned()) return m->get<uint64_t>();
  if (m->is_number_integer()) {
    const int64_t i = m->get<int64_t>();
    if (i < 0) return std::nullopt;
    return static_cast<uint64_t>(i);
  }
  return std::nullopt;
}

}  // namespace folio::storage
