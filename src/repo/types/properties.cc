// Property validation and coercion; see properties.h.
#include "repo/types/properties.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "folio/cmis_ids.h"
#include "storage/datetime.h"

namespace folio::repo::types {
namespace {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

Result<Json> CoerceScalar(const PropertyDef& def, const Json& v) {
  auto bad = [&]() {
    return InvalidArgument("property '" + def.id + "' expects a " + std::string(PropertyTypeName(def.type)) +
                           " value, got " + v.dump().substr(0, 100));
  };
  switch (def.type) {
    case PropertyType::kString:
    case PropertyType::kId:
    case PropertyType::kUri:
    case PropertyType::kHtml:
      if (v.is_string()) return v;
      if (v.is_number() || v.is_boolean()) return Json(v.dump());
      return bad();
    case PropertyType::kBoolean:
      if (v.is_boolean()) return v;
      if (v.is_string() && EqualsNoCase(v.get<std::string>(), "true")) return Json(true);
      if (v.is_string() && EqualsNoCase(v.get<std::string>(), "false")) return Json(false);
      return bad();
    case PropertyType::kInteger:
      if (v.is_number_integer()) return v;
      if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() && std::abs(v.get<double>()) < 9e15) {
        return Json(static_cast<int64_t>(v.get<double>()));
      }
      if (v.is_string()) {
        if (auto i = ParseInt(v.get<std::string>())) return Json(*i);
      }
      return bad();
    case PropertyType::kDecimal:
      if (v.is_number()) return v;
      if (v.is_string()) {
        const std::string s = v;
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(d)) return Json(d);
      }
      return bad();
    case PropertyType::kDateTime: {
      const Result<int64_t> ms = storage::ParseDateTimeValue(v);
      if (ms.ok()) return Json(storage::FormatIsoMs(*ms));
      return bad();
    }
  }
  return bad();
}

Result<Json> Coerce(const PropertyDef& def, const Json& v) {
  if (v.is_null()) return Json(nullptr);
  if (def.multi) {
    Json list = v.is_array() ? v : Json::array({v});
    if (list.empty()) return Json(nullptr);
    Json out = Json::array();
    for (const Json& item : list) {
      if (item.is_null()) continue;
      FOLIO_ASSIGN_OR_RETURN(Json c, CoerceScalar(def, item));
      out.push_back(std::move(c));
    }
    return out.empty() ? Json(nullptr) : out;
  }
  if (v.is_array()) {
    if (v.empty()) return Json(nullptr);
    if (v.size() != 1) return InvalidArgument("property '" + def.id + "' is single-valued but got a list");
    return CoerceScalar(def, v[0]);
  }
  return CoerceScalar(def, v);
}

bool Allowed(Updatability u, PropertyMode mode) {
  switch (u) {
    case Updatability::kReadOnly: return false;
    case Updatability::kReadWrite: return true;
    case Updatability::kOnCreate: return mode == PropertyMode::kCreate;
    case Updatability::kWhenCheckedOut:
      return mode == PropertyMode::kUpdatePwc || mode == PropertyMode::kCheckIn || mode == PropertyMode::kCreate;
  }
  return false;
}

}  // namespace

Result<Json> NormalizeProperties(const TypeDef& type, const Json& input, PropertyMode mode, const Json& current) {
  Json out = Json::object();
  if (!input.is_object()) return InvalidArgument("properties must be a JSON object");
  for (auto& [id, value] : input.items()) {
    auto it = type.properties.find(id);
    if (it == type.properties.end()) {
      return InvalidArgument("property '" + id + "' is not defined by type '" + type.id + "'");
    }
    const PropertyDef& def = it->second;
    if (id == cmis::kObjectTypeId) {
      // oncreate: a client resending the type it has is harmless.
      auto coerced = Coerce(def, value);
      if (mode != PropertyMode::kCreate && (!coerced.ok() || *coerced != Json(type.id))) {
        return Constraint("property 'cmis:objectTypeId' can only be set when the object is created");
      }
      out[id] = Json(type.id);
      continue;
    }
    if (!Allowed(def.updatability, mode)) {
      if (def.updatability == Updatability::kOnCreate && current.contains(id)) {
        auto coerced = Coerce(def, value);
        if (coerced.ok() && *coerced == current[id]) continue;
      }
      std::string why = def.updatability == Updatability::kReadOnly   ? "is read-only"
                        : def.updatability == Updatability::kOnCreate ? "can only be set when the object is created"
                                                                      : "can only be set on a private working copy";
      return Constraint("property '" + id + "' " + why);
    }
    FOLIO_ASSIGN_OR_RETURN(Json coerced, Coerce(def, value));
    if (coerced.is_null() && def.required) return Constraint("property '" + id + "' is required and cannot be unset");
    out[id] = std::move(coerced);
  }
  return out;
}

Json StoredToMemory(const TypeDef& type, const Json& stored) { return StoredToMemory(type, Json(stored)); }

Json StoredToMemory(const TypeDef& type, Json&& stored) {
  Json out = std::move(stored);
  for (auto& [id, value] : out.items()) {
    auto it = type.properties.find(id);
    if (it == type.properties.end() || it->second.type != PropertyType::kDateTime) continue;
    auto conv = [](const Json& v) -> Json {
      if (v.is_string()) {
        const Result<int64_t> ms = storage::ParseIsoMs(v.get_ref<const std::string&>());
        if (ms.ok()) return Json(*ms);
      }
      return v;
    };
    if (value.is_array()) {
      for (Json& v : value) v = conv(v);
    } else {
      value = conv(value);
    }
  }
  return out;
}

Status CheckRequired(const TypeDef& type, const Json& stored) {
  for (const auto& [id, def] : type.properties) {
    if (!def.required || cmis::IsBuiltInId(id)) continue;
    if (!stored.contains(id) || stored[id].is_null()) {
      return Constraint("property '" + id + "' is required by type '" + type.id + "'");
    }
  }
  return OkStatus();
}

}  // namespace folio::repo::types
