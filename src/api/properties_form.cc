// Properties and ACEs from JSON or from the CMIS indexed form controls.
#include "api/properties_form.h"

#include <charconv>
#include <map>
#include <optional>
#include <utility>

#include "api/ascii.h"
#include "api/cmis_names.h"
#include "api/url.h"
#include "api/variant.h"

namespace folio::api {
namespace {

struct ControlIndex {
  size_t n = 0;
  std::optional<size_t> m;
};

std::string Quoted(std::string_view text) { return QuoteForMessage(text); }

std::string ControlName(std::string_view prefix, size_t n) {
  return std::string(prefix) + "[" + std::to_string(n) + "]";
}

std::string ControlName(std::string_view prefix, size_t n, size_t m) {
  return ControlName(prefix, n) + "[" + std::to_string(m) + "]";
}

// Reads "[digits]" at the front of `rest`; digits without leading zeros, at most 9.
std::optional<size_t> TakeIndex(std::string_view& rest) {
  if (rest.empty() || rest.front() != '[') return std::nullopt;
  const size_t close = rest.find(']');
  if (close == std::string_view::npos || close < 2 || close > 10) return std::nullopt;
  const std::string_view digits = rest.substr(1, close - 1);
  if (digits.size() > 1 && digits.front() == '0') return std::nullopt;
  size_t value = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  rest.remove_prefix(close + 1);
  return value;
}

// The indices of `name` when it is "<prefix>[N]" or "<prefix>[N][M]" (prefix matched
// case-insensitively); nullopt when `name` is not "<prefix>[...".
Result<std::optional<ControlIndex>> ParseControl(std::string_view name, std::string_view prefix) {
  if (!StartsWithIgnoreCase(name, prefix) || name.size() == prefix.size() ||
      name[prefix.size()] != '[') {
    return std::optional<ControlIndex>();
  }
  std::string_view rest = name.substr(prefix.size());
  ControlIndex index;
  const std::optional<size_t> n = TakeIndex(rest);
  if (n) {
    index.n = *n;
    if (!rest.empty()) index.m = TakeIndex(rest);
    if (rest.empty()) return std::optional<ControlIndex>(index);
  }
  return InvalidArgument("malformed form control " + Quoted(name) + ": expected " +
                         std::string(prefix) + "[N] or " + std::string(prefix) + "[N][M]");
}

// Form values are strings; a JSON body may carry other scalars, kept as text.
Result<std::string> ControlText(const Params::Entry& entry) {
  if (entry.value.is_string()) return entry.value.get<std::string>();
  if (entry.value.is_null()) return std::string();
  if (entry.value.is_object() || entry.value.is_array()) {
    return InvalidArgument("form control " + Quoted(entry.name) + " must be a string, got " +
                           std::string(JsonTypeForMessage(entry.value)));
  }
  return entry.value.dump();
}

// Fails naming the first missing index when `map`'s keys are not 0..size-1.
template <typename Map>
Status CheckNoGaps(const Map& map, std::string_view what, auto missing_name) {
  size_t expected = 0;
  for (const auto& [index, unused] : map) {
    if (index != expected) {
      return InvalidArgument(std::string(what) + " has gaps: " + missing_name(expected) +
                             " is missing");
    }
    ++expected;
  }
  return OkStatus();
}

Status CheckPropertyCount(size_t count) {
  if (count > kMaxProperties) {
    return Constraint("too many properties: " + std::to_string(count) + " given, at most " +
                      std::to_string(kMaxProperties) + " allowed");
  }
  return OkStatus();
}

bool IsTypeIdProperty(std::string_view id) {
  return id == kPropObjectTypeId || id == kPropBaseTypeId || id == kPropSecondaryObjectTypeIds ||
         id == kPropAllowedChildObjectTypeIds;
}

void CanonicalizeTypeIds(Json& value) {
  if (value.is_string()) {
    value = std::string(ToCanonicalTypeId(value.get_ref<const std::string&>()));
  } else if (value.is_array()) {
    for (Json& element : value) CanonicalizeTypeIds(element);
  }
}

// Adds one property to `out` after checking its id and value.
Status AddProperty(Json& out, std::string_view raw_id, Json value) {
  if (raw_id.empty()) return InvalidArgument("a property id is empty");
  const std::string id(ToCanonicalPropertyId(raw_id));
  if (value.is_object()) {
    return InvalidArgument("property " + Quoted(id) +
                           " must be a value, an array of values or null, got an object");
  }
  if (value.is_array()) {
    for (const Json& element : value) {
      if (element.is_object() || element.is_array() || element.is_null()) {
        return InvalidArgument("property " + Quoted(id) + " holds an array with " +
                               std::string(JsonTypeForMessage(element)) +
                               "; expected strings, numbers or booleans");
      }
    }
    if (value.empty()) value = nullptr;  // [] is "not set" (docs/API.md §3.4)
  }
  if (IsTypeIdProperty(id)) CanonicalizeTypeIds(value);
  if (out.contains(id)) return InvalidArgument("property " + Quoted(id) + " is given twice");
  out[id] = std::move(value);
  return OkStatus();
}

Result<Json> PropertiesFromJson(const Json& object) {
  FOLIO_RETURN_IF_ERROR(CheckPropertyCount(object.size()));
  Json out = Json::object();
  for (auto it = object.begin(); it != object.end(); ++it) {
    FOLIO_RETURN_IF_ERROR(AddProperty(out, it.key(), *it));
  }
  return out;
}

struct PropertyControls {
  std::map<size_t, std::string> ids;
  std::map<size_t, Json> single_values;
  std::map<size_t, std::map<size_t, Json>> multi_values;
  bool empty() const { return ids.empty() && single_values.empty() && multi_values.empty(); }
};

Result<PropertyControls> CollectPropertyControls(const Params& params) {
  PropertyControls controls;
  for (const Params::Entry& entry : params.entries()) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<ControlIndex> id,
                           ParseControl(entry.name, kParamPropertyId));
    if (id) {
      if (id->m) {
        return InvalidArgument("malformed form control " + Quoted(entry.name) + ": expected " +
                               std::string(kParamPropertyId) + "[N]");
      }
      FOLIO_ASSIGN_OR_RETURN(controls.ids[id->n], ControlText(entry));
      continue;
    }
    FOLIO_ASSIGN_OR_RETURN(std::optional<ControlIndex> value,
                           ParseControl(entry.name, kParamPropertyValue));
    if (!value) continue;
    FOLIO_ASSIGN_OR_RETURN(std::string text, ControlText(entry));
    if (value->m) {
      controls.multi_values[value->n][*value->m] = Json(std::move(text));
    } else {
      // "" is "not set" for a single value: a typed property cannot hold "".
      controls.single_values[value->n] = text.empty() ? Json(nullptr) : Json(std::move(text));
    }
  }
  return controls;
}

Result<Json> PropertiesFromForm(const PropertyControls& controls) {
  FOLIO_RETURN_IF_ERROR(CheckPropertyCount(controls.ids.size()));
  FOLIO_RETURN_IF_ERROR(
      CheckNoGaps(controls.ids, std::string(kParamPropertyId) + "[N]",
                  [](size_t n) { return Quoted(ControlName(kParamPropertyId, n)); }));
  const auto check_has_id = [&](size_t n, const std::string& control) -> Status {
    if (controls.ids.contains(n)) return OkStatus();
    return InvalidArgument(Quoted(control) + " has no " + Quoted(ControlName(kParamPropertyId, n)));
  };
  for (const auto& [n, unused] : controls.single_values) {
    FOLIO_RETURN_IF_ERROR(check_has_id(n, ControlName(kParamPropertyValue, n)));
  }
  for (const auto& [n, values] : controls.multi_values) {
    FOLIO_RETURN_IF_ERROR(
        check_has_id(n, ControlName(kParamPropertyValue, n, values.begin()->first)));
    if (controls.single_values.contains(n)) {
      return InvalidArgument("property " + Quoted(controls.ids.at(n)) + " has both " +
                             Quoted(ControlName(kParamPropertyValue, n)) + " and " +
                             Quoted(ControlName(kParamPropertyValue, n, values.begin()->first)));
    }
    FOLIO_RETURN_IF_ERROR(
        CheckNoGaps(values, ControlName(kParamPropertyValue, n) + "[M]",
                    // A structured binding cannot be captured before C++20 as clang 14 has it.
                    [n = size_t{n}](size_t m) { return Quoted(ControlName(kParamPropertyValue, n, m)); }));
  }
  Json out = Json::object();
  for (const auto& [n, id] : controls.ids) {
    if (id.empty()) return InvalidArgument(Quoted(ControlName(kParamPropertyId, n)) + " is empty");
    Json value = nullptr;  // propertyId[N] alone: "not set"
    if (const auto single = controls.single_values.find(n);
        single != controls.single_values.end()) {
      value = single->second;
    } else if (const auto multi = controls.multi_values.find(n);
               multi != controls.multi_values.end()) {
      value = Json::array();
      for (const auto& [m, element] : multi->second) value.push_back(element);
    }
    FOLIO_RETURN_IF_ERROR(AddProperty(out, id, std::move(value)));
  }
  return out;
}

// --- ACEs

struct AceNames {
  std::string_view json;        // addACEs
  std::string_view principal;   // addACEPrincipal
  std::string_view permission;  // addACEPermission
};

AceNames NamesFor(AceList which) {
  if (which == AceList::kAdd) {
    return {kParamAddAces, kParamAddAcePrincipal, kParamAddAcePermission};
  }
  return {kParamRemoveAces, kParamRemoveAcePrincipal, kParamRemoveAcePermission};
}

Result<std::vector<Ace>> AcesFromJson(const Json& array, std::string_view list_name) {
  std::vector<Ace> aces;
  for (size_t i = 0; i < array.size(); ++i) {
    const Json& element = array[i];
    const std::string where = std::string(list_name) + "[" + std::to_string(i) + "]";
    if (!element.is_object()) {
      return InvalidArgument(where + " must be an object, got " +
                             std::string(JsonTypeForMessage(element)));
    }
    Ace ace;
    const auto principal = element.find(kJsonPrincipal);
    if (principal != element.end() && principal->is_string()) {
      ace.principal = principal->get<std::string>();
    } else if (principal != element.end() && principal->is_object()) {
      const auto id = principal->find(kJsonPrincipalId);
      if (id != principal->end() && id->is_string()) ace.principal = id->get<std::string>();
    }
    if (ace.principal.empty()) {
      return InvalidArgument(where +
                             " has no principal: expected {\"principal\": "
                             "{\"principalId\": \"...\"}, \"permissions\": [...]}");
    }
    const auto permissions = element.find(kJsonPermissions);
    if (permissions != element.end() && permissions->is_string()) {
      ace.permissions.push_back(permissions->get<std::string>());
    } else if (permissions != element.end() && permissions->is_array()) {
      for (const Json& permission : *permissions) {
        if (!permission.is_string()) {
          return InvalidArgument(where + ".permissions must hold strings, got " +
                                 std::string(JsonTypeForMessage(permission)));
        }
        ace.permissions.push_back(permission.get<std::string>());
      }
    }
    if (ace.permissions.empty()) {
      return InvalidArgument(where + " for principal " + Quoted(ace.principal) +
                             " has no permissions");
    }
    for (const std::string& permission : ace.permissions) {
      if (permission.empty()) return InvalidArgument(where + " has an empty permission");
    }
    aces.push_back(std::move(ace));
  }
  return aces;
}

Result<std::vector<Ace>> AcesFromForm(const Params& params, const AceNames& names, bool* found) {
  std::map<size_t, std::string> principals;
  std::map<size_t, std::map<size_t, std::string>> permissions;
  for (const Params::Entry& entry : params.entries()) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<ControlIndex> p,
                           ParseControl(entry.name, names.principal));
    if (p) {
      if (p->m) {
        return InvalidArgument("malformed form control " + Quoted(entry.name) + ": expected " +
                               std::string(names.principal) + "[N]");
      }
      FOLIO_ASSIGN_OR_RETURN(principals[p->n], ControlText(entry));
      continue;
    }
    FOLIO_ASSIGN_OR_RETURN(std::optional<ControlIndex> q,
                           ParseControl(entry.name, names.permission));
    if (!q) continue;
    if (!q->m) {
      return InvalidArgument("malformed form control " + Quoted(entry.name) + ": expected " +
                             std::string(names.permission) + "[N][M]");
    }
    FOLIO_ASSIGN_OR_RETURN(permissions[q->n][*q->m], ControlText(entry));
  }
  *found = !principals.empty() || !permissions.empty();
  FOLIO_RETURN_IF_ERROR(
      CheckNoGaps(principals, std::string(names.principal) + "[N]",
                  [&](size_t n) { return Quoted(ControlName(names.principal, n)); }));
  for (const auto& [n, list] : permissions) {
    if (!principals.contains(n)) {
      return InvalidArgument(Quoted(ControlName(names.permission, n, list.begin()->first)) +
                             " has no " + Quoted(ControlName(names.principal, n)));
    }
    FOLIO_RETURN_IF_ERROR(
        CheckNoGaps(list, ControlName(names.permission, n) + "[M]",
                    [&names, n = size_t{n}](size_t m) { return Quoted(ControlName(names.permission, n, m)); }));
  }
  std::vector<Ace> aces;
  for (const auto& [n, principal] : principals) {
    const std::string control = Quoted(ControlName(names.principal, n));
    if (principal.empty()) return InvalidArgument(control + " is empty");
    const auto list = permissions.find(n);
    if (list == permissions.end()) {
      return InvalidArgument(control + " (" + Quoted(principal) + ") has no " +
                             Quoted(ControlName(names.permission, n, 0)));
    }
    Ace ace{principal, {}};
    for (const auto& [m, permission] : list->second) {
      if (permission.empty()) {
        return InvalidArgument(Quoted(ControlName(names.permission, n, m)) + " is empty");
      }
      ace.permissions.push_back(permission);
    }
    aces.push_back(std::move(ace));
  }
  return aces;
}

}  // namespace

Result<Json> ReadProperties(const Params& params) {
  FOLIO_ASSIGN_OR_RETURN(std::optional<Json> object, params.GetJsonObject(kParamProperties));
  FOLIO_ASSIGN_OR_RETURN(PropertyControls controls, CollectPropertyControls(params));
  if (object && !controls.empty()) {
    return InvalidArgument("properties are given both as '" + std::string(kParamProperties) +
                           "' and as " + std::string(kParamPropertyId) + "[N] form controls");
  }
  if (object) return PropertiesFromJson(*object);
  return PropertiesFromForm(controls);
}

Result<std::vector<Ace>> ReadAces(const Params& params, AceList which) {
  const AceNames names = NamesFor(which);
  FOLIO_ASSIGN_OR_RETURN(std::optional<Json> array, params.GetJsonArray(names.json));
  bool form_found = false;
  FOLIO_ASSIGN_OR_RETURN(std::vector<Ace> form_aces, AcesFromForm(params, names, &form_found));
  if (array && form_found) {
    return InvalidArgument("ACEs are given both as '" + std::string(names.json) + "' and as " +
                           std::string(names.principal) + "[N] form controls");
  }
  if (array) return AcesFromJson(*array, names.json);
  return form_aces;
}

Result<std::vector<std::string>> ReadIndexedStrings(const Params& params, std::string_view prefix, size_t max,
                                                    IndexGaps gaps) {
  std::map<size_t, std::string> values;
  for (const Params::Entry& entry : params.entries()) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<ControlIndex> index, ParseControl(entry.name, prefix));
    if (!index) continue;
    if (index->m) {
      return InvalidArgument("malformed form control " + Quoted(entry.name) + ": expected " + std::string(prefix) +
                             "[N]");
    }
    FOLIO_ASSIGN_OR_RETURN(values[index->n], ControlText(entry));
    if (values.size() > max) {
      return Constraint("too many " + std::string(prefix) + "[N] controls: at most " + std::to_string(max) +
                        " allowed");
    }
  }
  std::vector<std::string> out;
  if (gaps == IndexGaps::kRefused) {
    FOLIO_RETURN_IF_ERROR(CheckNoGaps(values, std::string(prefix) + "[N]",
                                      [prefix](size_t n) { return Quoted(ControlName(prefix, n)); }));
  } else if (!values.empty() && values.rbegin()->first >= max) {
    return Constraint("form control " + Quoted(ControlName(prefix, values.rbegin()->first)) +
                      ": at most " + std::to_string(max) + " allowed");
  }
  for (auto& [n, value] : values) {
    out.resize(n);  // the missing indices before n (none when gaps are refused)
    out.push_back(std::move(value));
  }
  return out;
}

std::string StripJsonQuotes(std::string_view text) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::string(text);
  Result<Json> decoded = ParseJsonText(text, "quoted id");
  if (decoded.ok() && decoded->is_string()) return decoded->get<std::string>();
  return std::string(text.substr(1, text.size() - 2));
}

}  // namespace folio::api
