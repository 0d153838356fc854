// Secondary types on objects; see secondary_types.h.
#include "repo/types/secondary_types.h"

#include <algorithm>
#include <map>

#include "folio/cmis_ids.h"
#include "repo/types/properties.h"
#include "storage/json_access.h"

namespace folio::repo::types {

std::string BaseIdOf(const TypeDef& type) {
  return storage::StringOr(type.json, "baseId", std::string(BaseTypeId(type.base)));
}

bool IsSecondaryType(const TypeDef& type) { return BaseIdOf(type) == cmis::kSecondary; }

Status StageTypeUsages(changes::Staging& staging, storage::ChangeSet& change, const std::string& type_id,
                       const Json& properties, const std::string& object_id) {
  FOLIO_RETURN_IF_ERROR(staging.StageTypeUsage(change, type_id, object_id));
  for (const std::string& secondary : StoredSecondaryTypeIds(properties)) {
    FOLIO_RETURN_IF_ERROR(staging.StageTypeUsage(change, secondary, object_id));
  }
  return OkStatus();
}

std::vector<std::string> StoredSecondaryTypeIds(const Json& properties) {
  std::vector<std::string> out;
  if (!properties.is_object()) return out;
  const auto it = properties.find(cmis::kSecondaryObjectTypeIds);
  if (it == properties.end() || !it->is_array()) return out;
  for (const Json& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

Result<std::vector<std::string>> GivenSecondaryTypeIds(const Json& value) {
  std::vector<std::string> out;
  if (value.is_null()) return out;
  const Json list = value.is_array() ? value : Json::array({value});
  for (const Json& v : list) {
    if (!v.is_string() || v.get_ref<const std::string&>().empty()) {
      return InvalidArgument("property '" + std::string(cmis::kSecondaryObjectTypeIds) +
                             "' holds a value that is not a type id: " + v.dump().substr(0, 100));
    }
    if (std::find(out.begin(), out.end(), v.get<std::string>()) == out.end()) out.push_back(v.get<std::string>());
  }
  return out;
}

Result<std::shared_ptr<const TypeDef>> WithSecondaryTypes(TypeRegistry& types,
                                                          std::shared_ptr<const TypeDef> primary,
                                                          const std::vector<std::string>& ids, bool strict) {
  if (ids.empty()) return primary;
  auto merged = std::make_shared<TypeDef>(*primary);
  std::map<std::string, std::string> defined_by;  // property id -> the secondary type that added it
  for (const std::string& id : ids) {
    auto secondary = types.Get(id);
    if (!secondary.ok()) {
      if (secondary.status().kind() != ErrorKind::kObjectNotFound) return secondary.status();
      if (!strict) continue;
      return InvalidArgument("'" + std::string(cmis::kSecondaryObjectTypeIds) + "' names the type '" + id +
                             "', which does not exist");
    }
    if (!IsSecondaryType(**secondary) || id == cmis::kSecondary) {
      if (!strict) continue;
      return InvalidArgument("'" + std::string(cmis::kSecondaryObjectTypeIds) + "' names the type '" + id +
                             "', which is not a secondary type (" +
                             (id == cmis::kSecondary ? std::string("only its subtypes are")
                                                     : "its base is " + BaseIdOf(**secondary)) + ")");
    }
    for (const auto& [pid, def] : (*secondary)->properties) {
      if (merged->properties.emplace(pid, def).second) {
        defined_by.emplace(pid, id);
        continue;
      }
      const auto other = defined_by.find(pid);
      return Constraint("secondary type '" + id + "' defines the property '" + pid + "', which the object has already" +
                        (other == defined_by.end() ? " from its type '" + primary->id + "'"
                                                   : " from the secondary type '" + other->second + "'") +
                        ": a property may come from one type only");
    }
  }
  return std::shared_ptr<const TypeDef>(std::move(merged));
}

Json SecondaryStoredToMemory(TypeRegistry& types, Json&& properties) {
  Json out = std::move(properties);
  for (const std::string& id : StoredSecondaryTypeIds(out)) {
    auto secondary = types.Get(id);
    if (secondary.ok() && IsSecondaryType(**secondary)) out = StoredToMemory(**secondary, std::move(out));
  }
  return out;
}

void ApplySecondaryTypes(Json& stored, const std::vector<std::string>& ids, const TypeDef& before,
                         const TypeDef& after) {
  if (ids.empty()) {
    stored.erase(cmis::kSecondaryObjectTypeIds);
  } else {
    stored[cmis::kSecondaryObjectTypeIds] = ids;
  }
  for (const auto& [pid, def] : before.properties) {
    if (!after.properties.contains(pid)) stored.erase(pid);
  }
}

Status CheckRequiredWithSecondaryTypes(TypeRegistry& types, const TypeDef& rules, const Json& stored) {
  for (const std::string& id : StoredSecondaryTypeIds(stored)) {
    auto secondary = types.Get(id);
    if (secondary.ok()) FOLIO_RETURN_IF_ERROR(CheckRequired(**secondary, stored));
  }
  return CheckRequired(rules, stored);
}

Result<SecondaryChange> PlanSecondaryChange(TypeRegistry& types, std::shared_ptr<const TypeDef> primary,
                                            const Json& stored, Json& changes) {
  SecondaryChange plan;
  FOLIO_ASSIGN_OR_RETURN(plan.before, WithSecondaryTypes(types, primary, StoredSecondaryTypeIds(stored), false));
  plan.after = plan.before;
  if (!changes.is_object()) return plan;
  const auto it = changes.find(cmis::kSecondaryObjectTypeIds);
  if (it == changes.end()) return plan;
  FOLIO_ASSIGN_OR_RETURN(plan.ids, GivenSecondaryTypeIds(*it));
  changes.erase(it);
  plan.listed = true;
  FOLIO_ASSIGN_OR_RETURN(plan.after, WithSecondaryTypes(types, std::move(primary), plan.ids, true));
  return plan;
}

}  // namespace folio::repo::types
