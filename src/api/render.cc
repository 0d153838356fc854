// Object, type and repository JSON; see render.h.
#include "api/render.h"

#include "api/cmis_names.h"
#include "repo/acl/actions.h"
#include "repo/acl/guarded_repository.h"
#include "repo/acl/principals.h"
#include "storage/datetime.h"

namespace folio::api {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsIdChar(char c) {
  return static_cast<unsigned char>(c) >= 0x80 || std::isalnum(static_cast<unsigned char>(c)) ||
         c == ':' || c == '_' || c == '-' || c == '.';
}

// The JSON type name of a value whose definition is unknown.
std::string_view InferredType(const Json& value) {
  const Json& v = value.is_array() && !value.empty() ? value[0] : value;
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "decimal";
  return "string";
}

}  // namespace

Result<PropertyFilter> ParseFilter(std::string_view filter) {
  filter = Trim(filter);
  if (filter.empty() || filter == "*") return PropertyFilter();
  std::set<std::string, std::less<>> ids;
  size_t pos = 0;
  while (pos <= filter.size()) {
    size_t comma = filter.find(',', pos);
    if (comma == std::string_view::npos) comma = filter.size();
    const std::string_view entry = Trim(filter.substr(pos, comma - pos));
    pos = comma + 1;
    if (entry.empty()) continue;
    if (entry == "*") return PropertyFilter();
    for (char c : entry) {
      if (!IsIdChar(c)) {
        return Status(ErrorKind::kFilterNotValid, "invalid property filter entry '" + std::string(entry) + "'");
      }
    }
    ids.emplace(ToCanonicalPropertyId(entry));
  }
  return PropertyFilter(std::move(ids));
}

const PropertyDefinitionIndex* Renderer::PropertyDefinitions(const std::string& type_id) {
  if (repo_ == nullptr) return nullptr;
  auto it = types_.find(type_id);
  if (it == types_.end()) {
    auto defs = repo_->GetPropertyDefinitions(type_id);
    it = types_.emplace(type_id, defs.ok() ? *defs : nullptr).first;
  }
  return it->second.get();
}

const Json* Renderer::Definition(const ObjectData& object, const PropertyDefinitionIndex* defs, const std::string& id) {
  if (defs == nullptr) return nullptr;
  if (const auto d = defs->by_id.find(id); d != defs->by_id.end()) return d->second;
  const auto secondary = object.properties.find(std::string(kPropSecondaryObjectTypeIds));
  if (secondary == object.properties.end() || !secondary->is_array()) return nullptr;
  for (const Json& type_id : *secondary) {
    if (!type_id.is_string()) continue;
    const PropertyDefinitionIndex* own = PropertyDefinitions(type_id.get_ref<const std::string&>());
    if (own == nullptr) continue;
    if (const auto d = own->by_id.find(id); d != own->by_id.end()) return d->second;
  }
  return nullptr;
}

namespace {

// The string member `key` of a property definition, or `fallback`.
std::string_view DefinitionString(const Json* definition, const char* key, std::string_view fallback) {
  if (definition == nullptr) return fallback;
  const auto it = definition->find(key);
  return it != definition->end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : fallback;
}

void WriteDate(const Json& v, JsonWriter& w) {
  if (v.is_number_integer() && v.get<int64_t>() >= storage::kMinDateTimeMs &&
      v.get<int64_t>() <= storage::kMaxDateTimeMs) {
    w.String(storage::FormatIsoMs(v.get<int64_t>()));
  } else {
    w.Value(v);
  }
}

}  // namespace

void Renderer::WriteValue(std::string_view id, const Json& value, const Json* definition, JsonWriter& w) const {
  // Type ids in values follow the variant too (cmis:objectTypeId, cmis:baseTypeId).
  if ((id == kPropObjectTypeId || id == kPropBaseTypeId) && value.is_string()) {
    w.String(ToResponseId(options_.variant, value.get_ref<const std::string&>()));
    return;
  }
  if (!options_.extended_dates || value.is_null() || DefinitionString(definition, "propertyType", "") != "datetime") {
    w.Value(value);
    return;
  }
  if (!value.is_array()) {
    WriteDate(value, w);
    return;
  }
  w.BeginArray();
  for (const Json& v : value) WriteDate(v, w);
  w.EndArray();
}

void Renderer::WriteDetailed(std::string_view id, std::string_view response_id, std::string_view query_name,
                             const Json& value, const Json* definition, JsonWriter& w) const {
  const size_t colon = id.find(':');
  const std::string_view local = colon == std::string_view::npos ? id : id.substr(colon + 1);
  w.BeginObject();
  w.Key("id").String(response_id);
  w.Key("localName").String(DefinitionString(definition, "localName", local));
  w.Key("displayName").String(DefinitionString(definition, "displayName", local));
  w.Key("queryName").String(query_name);
  w.Key("type").String(definition != nullptr ? DefinitionString(definition, "propertyType", "string")
                                             : InferredType(value));
  w.Key("cardinality").String(definition != nullptr ? DefinitionString(definition, "cardinality", "single")
                                                    : (value.is_array() ? "multi" : "single"));
  w.Key("value");
  WriteValue(id, value, definition, w);
  w.EndObject();
}

void Renderer::WriteProperties(const ObjectData& object, JsonWriter& w) {
  const bool need_defs = !options_.succinct || options_.extended_dates;
  const PropertyDefinitionIndex* defs = need_defs ? PropertyDefinitions(object.type_id) : nullptr;
  const bool variant_a = options_.variant == Variant::kA;
  w.BeginObject();
  for (auto it = object.properties.begin(); it != object.properties.end(); ++it) {
    const std::string& id = it.key();
    if (options_.filter && !options_.filter->contains(id)) continue;
    if (variant_a && !id.starts_with(kCmisPrefix) && ToCanonicalPropertyId(id) != id) continue;
    const Json* def = Definition(object, defs, id);
    const std::string_view response_id = ToResponseId(options_.variant, id);
    w.Key(response_id);
    if (options_.succinct) {
      WriteValue(id, *it, def, w);
    } else {
      WriteDetailed(id, response_id, response_id, *it, def, w);
    }
  }
  w.EndObject();
}

void Renderer::WriteObject(const ObjectData& object, JsonWriter& w, const Json* allowable_actions,
                           const Json* extra) {
  w.BeginObject();
  w.Key(options_.succinct ? "succinctProperties" : "properties");
  WriteProperties(object, w);
  if (allowable_actions != nullptr) w.Key("allowableActions").Value(*allowable_actions);
  if (extra != nullptr) {
    for (auto it = extra->begin(); it != extra->end(); ++it) w.Key(it.key()).Value(*it);
  }
  w.EndObject();
}

void Renderer::WriteQueryResult(const ObjectData& object, const std::vector<ResultColumn>& columns, JsonWriter& w,
                                const Json* allowable_actions) {
  const bool need_defs = !options_.succinct || options_.extended_dates;
  const PropertyDefinitionIndex* defs = need_defs ? PropertyDefinitions(object.type_id) : nullptr;
  static const Json kNull;
  w.BeginObject();
  w.Key(options_.succinct ? "succinctProperties" : "properties");
  w.BeginObject();
  // Columns of SELECT * come in the order the object has its properties: each is looked
  // for where the last one was found first (the object's properties find linearly).
  auto next = object.properties.begin();
  const auto end = object.properties.end();
  for (const ResultColumn& c : columns) {
    if (c.computed) {
      if (c.quoted_key.empty()) {
        w.Key(c.alias);
      } else {
        w.QuotedKey(c.quoted_key);
      }
      if (options_.succinct) {
        w.Value(*c.computed);
      } else {
        WriteDetailed(c.alias, c.alias, c.alias, *c.computed, nullptr, w);
      }
      continue;
    }
    const Json* def = Definition(object, defs, c.property_id);
    auto it = next != end && next.key() == c.property_id ? next : object.properties.find(c.property_id);
    if (it != end) next = std::next(it);
    const Json& value = it == end ? kNull : *it;
    const std::string_view response_id = ToResponseId(options_.variant, c.property_id);
    const std::string_view key = c.alias.empty() ? response_id : std::string_view(c.alias);
    if (c.quoted_key.empty()) {
      w.Key(key);
    } else {
      w.QuotedKey(c.quoted_key);
    }
    if (options_.succinct) {
      WriteValue(c.property_id, value, def, w);
    } else {
      WriteDetailed(c.property_id, response_id, key, value, def, w);
    }
  }
  w.EndObject();
  if (allowable_actions != nullptr) w.Key("allowableActions").Value(*allowable_actions);
  w.EndObject();
}

void Renderer::PrepareQueryColumns(std::vector<ResultColumn>& columns) const {
  for (ResultColumn& c : columns) {
    const std::string_view key =
        !c.alias.empty() || c.computed ? std::string_view(c.alias) : ToResponseId(options_.variant, c.property_id);
    c.quoted_key = JsonWriter::Quote(key);
  }
}

Json Renderer::Type(const Json& type, bool with_property_definitions) const {
  const Variant v = options_.variant;
  Json out = Json::object();
  for (auto it = type.begin(); it != type.end(); ++it) {
    const std::string& key = it.key();
    if (key == "propertyDefinitions") {
      if (!with_property_definitions) continue;
      Json defs = Json::object();
      for (auto d = it->begin(); d != it->end(); ++d) {
        Json def = *d;
        const std::string id(ToResponseId(v, d.key()));
        if (def.contains("id")) def["id"] = id;
        // A queryName the type gave of its own is kept; the id as queryName is spelled
        // as the id is.
        if (def.contains("queryName") && def["queryName"] == d.key()) def["queryName"] = id;
        defs[id] = std::move(def);
      }
      out[key] = std::move(defs);
      continue;
    }
    if ((key == "id" || key == "baseId" || key == "parentId" || key == "queryName") && it->is_string()) {
      out[key] = std::string(ToResponseId(v, it->get_ref<const std::string&>()));
      continue;
    }
    out[key] = *it;
  }
  return out;
}

Json RepositoryInfoJson(const RepositoryInfo& info, Variant variant, const std::string& repository_url,
                        const ChangeLogStatus& changes, bool read_only) {
  Json caps = {
      {"capabilityContentStreamUpdatability", "anytime"},
      {"capabilityChanges", "all"},
      {"capabilityRenditions", "none"},
      {"capabilityGetDescendants", true},
      {"capabilityGetFolderTree", true},
      {"capabilityMultifiling", false},
      {"capabilityUnfiling", false},
      {"capabilityVersionSpecificFiling", false},
      {"capabilityPWCUpdatable", true},
      {"capabilityPWCSearchable", false},
      {"capabilityAllVersionsSearchable", true},
      {"capabilityOrderBy", "common"},
      {"capabilityQuery", "bothcombined"},
      {"capabilityJoin", "none"},
      {"capabilityACL", acl::Capabilities().capability},
      {"capabilityCreatablePropertyTypes",
       {{"canCreate", {"string", "boolean", "id", "integer", "decimal", "datetime", "uri", "html"}}}},
      {"capabilityNewTypeSettableAttributes",
       {{"id", true}, {"localName", true}, {"localNamespace", true}, {"displayName", true},
        {"queryName", true}, {"description", true}, {"creatable", true}, {"fileable", true},
        {"queryable", true}, {"fulltextIndexed", true}, {"includedInSupertypeQuery", true},
        {"controllablePolicy", false}, {"controllableACL", false}}},
  };
  const acl::AclCapabilities& acl = acl::Capabilities();
  Json acl_caps = {{"supportedPermissions", acl.supported_permissions}, {"propagation", acl.propagation}};
  Json permissions = Json::array();
  for (const acl::PermissionDefinition& p : acl.permissions) {
    permissions.push_back({{"permission", p.permission}, {"description", p.description}});
  }
  Json mapping = Json::array();
  for (const acl::PermissionMapping& m : acl.mapping) {
    mapping.push_back({{"key", m.key}, {"permission", Json::array({acl::PermissionName(m.permission)})}});
  }
  acl_caps["permissions"] = std::move(permissions);
  acl_caps["permissionMapping"] = std::move(mapping);
  Json r = Json::object();
  r["repositoryId"] = info.repository_id;
  r["repositoryName"] = info.name.empty() ? info.repository_id : info.name;
  r["repositoryDescription"] = info.description;
  r["vendorName"] = "Folio";
  r["productName"] = "Folio";
  r["productVersion"] = FOLIO_VERSION;
  r["rootFolderId"] = info.root_folder_id;
  r["repositoryUrl"] = repository_url;
  r["rootFolderUrl"] = repository_url;
  r["capabilities"] = std::move(caps);
  r["aclCapabilities"] = std::move(acl_caps);
  // The newest event's token; null while the log is empty (docs/API.md §7.12).
  r["latestChangeLogToken"] = changes.latest == 0 ? Json() : Json(std::to_string(changes.latest));
  r["cmisVersionSupported"] = "1.1";
  r["thinClientURI"] = nullptr;
  r["changesIncomplete"] = changes.truncated;
  // Every base type whose objects are logged (policies and secondary types have none).
  r["changesOnType"] = Json::array({ToResponseId(variant, kTypeDocument), ToResponseId(variant, kTypeFolder),
                                    ToResponseId(variant, kTypeItem), ToResponseId(variant, kTypeRelationship)});
  r["principalIdAnonymous"] = acl::kAnonymousPrincipal;
  r["principalIdAnyone"] = acl::kAnyone;
  r["extendedFeatures"] = Json::array(
      {{{"id", "http://docs.oasis-open.org/ns/cmis/extension/datetimeformat"},
        {"url", "https://docs.oasis-open.org/cmis/CMIS/v1.1/CMIS-v1.1.html"},
        {"commonName", "Browser Binding DateTime Format"},
        {"versionLabel", "1.0"},
        {"description", "dateTimeFormat=extended gives ISO 8601 datetimes"}}});
  r["variant"] = std::string(VariantName(variant));
  r["readOnly"] = read_only;  // serve --read-only: every write is refused (docs/API.md §4.4)
  return r;
}

}  // namespace folio::api
