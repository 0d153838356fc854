// Built-in and custom type definitions; see types.h.
#include "repo/types/types.h"

#include "folio/cmis_ids.h"
#include "storage/committer.h"
#include "storage/json_access.h"
#include "storage/json_file.h"

namespace folio::repo::types {
namespace {

struct BuiltInProp {
  const char* id;
  const char* display;
  PropertyType type;
  bool multi;
  Updatability upd;
  bool required;
};

// docs/API.md §6.1
const BuiltInProp kCommon[] = {
    {cmis::kName, "Name", PropertyType::kString, false, Updatability::kReadWrite, true},
    {cmis::kDescription, "Description", PropertyType::kString, false, Updatability::kReadWrite, false},
    {cmis::kObjectId, "Object Id", PropertyType::kId, false, Updatability::kReadOnly, false},
    {cmis::kBaseTypeId, "Base Type Id", PropertyType::kId, false, Updatability::kReadOnly, false},
    {cmis::kObjectTypeId, "Object Type Id", PropertyType::kId, false, Updatability::kOnCreate, true},
    {cmis::kSecondaryObjectTypeIds, "Secondary Type Ids", PropertyType::kId, true, Updatability::kReadWrite, false},
    {cmis::kCreatedBy, "Created By", PropertyType::kString, false, Updatability::kReadOnly, false},
    {cmis::kCreationDate, "Creation Date", PropertyType::kDateTime, false, Updatability::kReadOnly, false},
    {cmis::kLastModifiedBy, "Last Modified By", PropertyType::kString, false, Updatability::kReadOnly, false},
    {cmis::kLastModificationDate, "Last Modification Date", PropertyType::kDateTime, false,
     Updatability::kReadOnly, false},
    {cmis::kChangeToken, "Change Token", PropertyType::kString, false, Updatability::kReadOnly, false},
};
// the document properties of docs/API.md §6.1, plus the service's versionSeriesCheckedOutDate.
const BuiltInProp kDocument[] = {
    {cmis::kIsImmutable, "Is Immutable", PropertyType::kBoolean, false, Updatability::kReadOnly, false},
    {cmis::kIsLatestVersion, "Is Latest Version", PropertyType::kBoolean, false, Updatability::kReadOnly, false},
    {cmis::kIsMajorVersion, "Is Major Version", PropertyType::kBoolean, false, Updatability::kReadOnly, false},
    {cmis::kIsLatestMajorVersion, "Is Latest Major Version", PropertyType::kBoolean, false,
     Updatability::kReadOnly, false},
    {cmis::kIsPrivateWorkingCopy, "Is Private Working Copy", PropertyType::kBoolean, false,
     Updatability::kReadOnly, false},
    {cmis::kVersionLabel, "Version Label", PropertyType::kString, false, Updatability::kReadOnly, false},
    {cmis::kVersionSeriesId, "Version Series Id", PropertyType::kId, false, Updatability::kReadOnly, false},
    {cmis::kIsVersionSeriesCheckedOut, "Is Version Series Checked Out", PropertyType::kBoolean, false,
     Updatability::kReadOnly, false},
    {cmis::kVersionSeriesCheckedOutBy, "Version Series Checked Out By", PropertyType::kString, false,
     Updatability::kReadOnly, false},
    {cmis::kVersionSeriesCheckedOutId, "Version Series Checked Out Id", PropertyType::kId, false,
     Updatability::kReadOnly, false},
    {cmis::kVersionSeriesCheckedOutDate, "Version Series Checked Out Date", PropertyType::kDateTime, false,
     Updatability::kReadOnly, false},
    {cmis::kCheckinComment, "Checkin Comment", PropertyType::kString, false, Updatability::kReadOnly, false},
    {cmis::kContentStreamLength, "Content Stream Length", PropertyType::kInteger, false, Updatability::kReadOnly,
     false},
    {cmis::kContentStreamMimeType, "Content Stream MIME Type", PropertyType::kString, false,
     Updatability::kReadOnly, false},
    {cmis::kContentStreamFileName, "Content Stream Filename", PropertyType::kString, false,
     Updatability::kReadOnly, false},
    {cmis::kContentStreamId, "Content Stream Id", PropertyType::kId, false, Updatability::kReadOnly, false},
    {cmis::kContentStreamHash, "Content Stream Hash", PropertyType::kString, true, Updatability::kReadOnly, false},
};
const BuiltInProp kFolder[] = {
    {cmis::kParentId, "Parent Id", PropertyType::kId, false, Updatability::kReadOnly, false},
    {cmis::kPath, "Path", PropertyType::kString, false, Updatability::kReadOnly, false},
    {cmis::kAllowedChildObjectTypeIds, "Allowed Child Object Type Ids", PropertyType::kId, true,
     Updatability::kReadOnly, false},
};
const BuiltInProp kRelationship[] = {
    {cmis::kSourceId, "Source Id", PropertyType::kId, false, Updatability::kOnCreate, true},
    {cmis::kTargetId, "Target Id", PropertyType::kId, false, Updatability::kOnCreate, true},
};
const BuiltInProp kPolicy[] = {
    {cmis::kPolicyText, "Policy Text", PropertyType::kString, false, Updatability::kReadWrite, false},
};

const char* UpdatabilityName(Updatability u) {
  switch (u) {
    case Updatability::kReadOnly: return "readonly";
    case Updatability::kReadWrite: return "readwrite";
    case Updatability::kWhenCheckedOut: return "whencheckedout";
    case Updatability::kOnCreate: return "oncreate";
  }
  return "readonly";
}

std::optional<Updatability> ParseUpdatability(std::string_view s) {
  if (s == "readonly") return Updatability::kReadOnly;
  if (s == "readwrite") return Updatability::kReadWrite;
  if (s == "whencheckedout") return Updatability::kWhenCheckedOut;
  if (s == "oncreate") return Updatability::kOnCreate;
  return std::nullopt;
}

Json PropertyDefJson(const PropertyDef& p, const std::string& display, bool inherited) {
  std::string local = p.id.substr(p.id.find(':') == std::string::npos ? 0 : p.id.find(':') + 1);
  return Json{{"id", p.id},
              {"localName", local},
              {"localNamespace", "http://docs.oasis-open.org/ns/cmis/core/200908/"},
              {"displayName", display},
              {"queryName", p.id},
              {"description", display},
              {"propertyType", PropertyTypeName(p.type)},
              {"cardinality", p.multi ? "multi" : "single"},
              {"updatability", UpdatabilityName(p.updatability)},
              {"inherited", inherited},
              {"required", p.required},
              {"queryable", true},
              {"orderable", !p.multi},
              {"openChoice", false}};
}

TypeDef MakeBase(const char* id, const char* display, BaseType base, std::initializer_list<const BuiltInProp*> groups,
                 std::initializer_list<size_t> sizes) {
  TypeDef t;
  t.id = id;
  t.base = base;
  t.versionable = base == BaseType::kDocument;
  t.creatable = std::string_view(id) != cmis::kSecondary && std::string_view(id) != cmis::kPolicy;
  const bool secondary = std::string_view(id) == cmis::kSecondary;
  const bool fileable =
      !secondary && (base == BaseType::kDocument || base == BaseType::kFolder || base == BaseType::kItem);
  Json defs = Json::object();
  auto add = [&](const BuiltInProp* props, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      PropertyDef p{props[i].id, props[i].type, props[i].multi, props[i].upd, props[i].required};
      t.properties[p.id] = p;
      defs[p.id] = PropertyDefJson(p, props[i].display, false);
    }
  };
  auto g = groups.begin();
  auto s = sizes.begin();
  for (; g != groups.end(); ++g, ++s) add(*g, *s);
  std::string local = std::string(id).substr(5);
  t.json = Json{{"id", id},
                {"localName", local},
                {"localNamespace", "http://docs.oasis-open.org/ns/cmis/core/200908/"},
                {"displayName", display},
                {"queryName", id},
                {"description", display},
                {"baseId", id},
                {"parentId", nullptr},
                {"creatable", t.creatable},
                {"fileable", fileable},
                {"queryable", true},
                {"fulltextIndexed", base == BaseType::kDocument && std::string_view(id) == cmis::kDocument},
                {"includedInSupertypeQuery", true},
                {"controllablePolicy", false},
                {"controllableACL", !secondary},
                {"typeMutability", {{"create", true}, {"update", false}, {"delete", false}}}};
  if (base == BaseType::kDocument) {
    t.json["versionable"] = true;
    t.json["contentStreamAllowed"] = "allowed";
  }
  if (base == BaseType::kRelationship) {
    t.json["allowedSourceTypes"] = nullptr;
    t.json["allowedTargetTypes"] = nullptr;
  }
  t.json["propertyDefinitions"] = std::move(defs);
  return t;
}

const std::map<std::string, std::shared_ptr<const TypeDef>>& BaseTypes() {
  static const std::map<std::string, std::shared_ptr<const TypeDef>> kTypes = [] {
    std::map<std::string, TypeDef> m;
    constexpr size_t nc = std::size(kCommon);
    m[cmis::kDocument] = MakeBase(cmis::kDocument, "Document", BaseType::kDocument, {kCommon, kDocument},
                                  {nc, std::size(kDocument)});
    m[cmis::kFolder] =
        MakeBase(cmis::kFolder, "Folder", BaseType::kFolder, {kCommon, kFolder}, {nc, std::size(kFolder)});
    m[cmis::kItem] = MakeBase(cmis::kItem, "Item", BaseType::kItem, {kCommon}, {nc});
    m[cmis::kRelationship] = MakeBase(cmis::kRelationship, "Relationship", BaseType::kRelationship,
                                      {kCommon, kRelationship}, {nc, std::size(kRelationship)});
    m[cmis::kPolicy] = MakeBase(cmis::kPolicy, "Policy", BaseType::kItem, {kCommon, kPolicy}, {nc, std::size(kPolicy)});
    TypeDef secondary = MakeBase(cmis::kSecondary, "Secondary Type", BaseType::kItem, {}, {});
    secondary.properties.clear();
    secondary.json["propertyDefinitions"] = Json::object();
    m[cmis::kSecondary] = secondary;
    std::map<std::string, std::shared_ptr<const TypeDef>> out;
    for (auto& [id, t] : m) out[id] = std::make_shared<const TypeDef>(std::move(t));
    return out;
  }();
  return kTypes;
}

Status Invalid(const std::string& what) { return InvalidArgument("type definition: " + what); }

// Attributes of a property definition Folio does not enforce: given with a value, they
// are refused rather than stored and ignored.
constexpr const char* kUnenforcedPropertyAttributes[] = {"defaultValue", "choices",   "maxLength", "minValue",
                                                         "maxValue",     "precision", "resolution"};

// Checks a property definition a type adds (createType, updateType) and completes it
// (id, queryName and localName defaulting to the id, inherited). Errors:
// kInvalidArgument naming the property and what is wrong; kConstraint naming an
// attribute Folio cannot honour (an orderable multi-valued property, choices, ...).
Status ValidateNewProperty(const std::string& pid, Json& pdef, const TypeDef& parent) {
  if (cmis::IsBuiltInId(pid)) return Invalid("property '" + pid + "' may not use the cmis: namespace");
  if (parent.properties.count(pid)) return Invalid("property '" + pid + "' is already defined by a supertype");
  if (!pdef.is_object()) return Invalid("property '" + pid + "' must be an object");
  if (!ParsePropertyType(storage::StringOr(pdef, "propertyType", ""))) {
    return Invalid("property '" + pid + "' has an unknown propertyType");
  }
  const std::string card = storage::StringOr(pdef, "cardinality", "single");
  if (card != "single" && card != "multi") return Invalid("property '" + pid + "' has an unknown cardinality");
  if (!ParseUpdatability(storage::StringOr(pdef, "updatability", "readwrite"))) {
    return Invalid("property '" + pid + "' has an unknown updatability");
  }
  for (const char* key : {"queryName", "localName", "localNamespace", "displayName", "description"}) {
    if (pdef.contains(key) && !pdef[key].is_string() && !pdef[key].is_null()) {
      return Invalid("property '" + pid + "': '" + key + "' must be a string");
    }
  }
  for (const char* key : {"required", "queryable", "orderable", "openChoice"}) {
    if (pdef.contains(key) && !pdef[key].is_boolean() && !pdef[key].is_null()) {
      return Invalid("property '" + pid + "': '" + key + "' must be true or false");
    }
  }
  if (card == "multi" && storage::BoolOr(pdef, "orderable", false)) {
    return Constraint("type definition: property '" + pid + "' is multi-valued and cannot be orderable");
  }
  for (const char* key : kUnenforcedPropertyAttributes) {
    if (pdef.contains(key) && !pdef[key].is_null() && pdef[key] != Json::array() && pdef[key] != Json::object()) {
      return Constraint("type definition: property '" + pid + "': '" + key +
                        "' is not supported (Folio would not enforce it)");
    }
  }
  pdef["id"] = pid;
  for (const char* key : {"queryName", "localName"}) {
    if (!pdef.contains(key) || pdef[key].is_null() || pdef[key] == "") pdef[key] = pid;
  }
  pdef["inherited"] = false;
  return OkStatus();
}

// Completes and checks the attributes of a new type `stored` (createType) whose parent
// is `parent`: what the client gave is kept, what it left out takes the parent's value
// (queryName and localName: the id). Errors: kInvalidArgument for a value of the wrong
// JSON type; kConstraint naming an attribute whose value Folio cannot honour.
Status CompleteTypeAttributes(Json& stored, const std::string& id, const TypeDef& parent) {
  const std::string base_id = storage::StringOr(parent.json, "baseId", std::string(BaseTypeId(parent.base)));
  for (const char* key : {"queryName", "localName", "localNamespace", "displayName", "description", "baseId",
                          "contentStreamAllowed"}) {
    if (stored.contains(key) && !stored[key].is_string() && !stored[key].is_null()) {
      return Invalid("'" + std::string(key) + "' must be a string");
    }
  }
  for (const char* key : {"creatable", "fileable", "queryable", "fulltextIndexed", "includedInSupertypeQuery",
                          "controllablePolicy", "controllableACL", "versionable"}) {
    if (stored.contains(key) && !stored[key].is_boolean() && !stored[key].is_null()) {
      return Invalid("'" + std::string(key) + "' must be true or false");
    }
    // Left out (or null): the parent's.
    if (!stored.contains(key) || stored[key].is_null()) {
      if (const Json* inherited = storage::Member(parent.json, key)) {
        stored[key] = *inherited;
      } else {
        stored.erase(key);
      }
    }
  }
  if (auto given = storage::StringField(stored, "baseId"); given && *given != base_id) {
    return Constraint("type '" + id + "': baseId '" + *given + "' is not the base of its parent '" + parent.id +
                      "' (" + base_id + ")");
  }
  stored["baseId"] = base_id;
  for (const char* key : {"queryName", "localName"}) {
    if (!stored.contains(key) || stored[key].is_null() || stored[key] == "") stored[key] = id;
  }
  const bool document = parent.base == BaseType::kDocument;
  if (auto c = storage::StringField(stored, "contentStreamAllowed")) {
    if (*c != "notallowed" && *c != "allowed" && *c != "required") {
      return Invalid("'contentStreamAllowed' must be notallowed, allowed or required, not '" + *c + "'");
    }
    if (!document && *c != "notallowed") {
      return Constraint("type '" + id + "': contentStreamAllowed '" + *c + "' is not supported: only documents "
                        "have content");
    }
  }
  if (!document) {
    if (storage::BoolOr(stored, "versionable", false)) {
      return Constraint("type '" + id + "': versionable true is not supported: only documents are versionable");
    }
    stored.erase("versionable");  // what a document type's definition says, not this one's
    stored.erase("contentStreamAllowed");
  }
  // What Folio can honour: fileable, controllableACL and controllablePolicy as the base
  // type has them (no unfiling or multi-filing; the ACL of every object that has one
  // can be changed; no policies are applied); only documents are full-text indexed.
  for (const char* key : {"fileable", "controllableACL", "controllablePolicy"}) {
    const Json* want = storage::Member(parent.json, key);
    const Json* given = storage::Member(stored, key);
    if (want == nullptr || given == nullptr || *want == *given) continue;
    return Constraint("type '" + id + "': " + key + " " + given->dump() + " is not supported: objects of base type '" +
                      base_id + "' are always " + key + " " + want->dump());
  }
  if (base_id == cmis::kSecondary && storage::BoolOr(stored, "creatable", false)) {
    return Constraint("type '" + id + "': creatable true is not supported: objects are never of a secondary type; "
                      "it is added to them through cmis:secondaryObjectTypeIds");
  }
  if (!document && storage::BoolOr(stored, "fulltextIndexed", false)) {
    return Constraint("type '" + id + "': fulltextIndexed true is not supported: only documents are full-text indexed");
  }
  return OkStatus();
}

// What updateType may change (docs/API.md §7.4): display attributes only. Every other
// attribute decides what stored objects are, so changing it could invalidate them.
bool IsDisplayAttribute(const std::string& key) {
  return key == "displayName" || key == "description" || key == "localName" || key == "localNamespace";
}

// The member `key` of `object`, or null.
const Json* Find(const Json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// `value` as an update of `current` (null: `current` is absent): equal, or a display
// attribute. Errors: kConstraint naming `what`.
Status CheckUnchanged(const std::string& what, const std::string& key, const Json& value, const Json* current) {
  if (IsDisplayAttribute(key)) return OkStatus();
  const bool same = current != nullptr ? *current == value : value.is_null();
  if (same) return OkStatus();
  return Constraint(what + ": '" + key + "' cannot be changed (" + (current ? current->dump() : "absent") + " -> " +
                    value.dump() + "); updateType changes displayName, description, localName and "
                    "localNamespace, and adds optional properties");
}

}  // namespace

std::string_view PropertyTypeName(PropertyType t) {
  switch (t) {
    case PropertyType::kString: return "string";
    case PropertyType::kBoolean: return "boolean";
    case PropertyType::kId: return "id";
    case PropertyType::kInteger: return "integer";
    case PropertyType::kDecimal: return "decimal";
    case PropertyType::kDateTime: return "datetime";
    case PropertyType::kUri: return "uri";
    case PropertyType::kHtml: return "html";
  }
  return "string";
}

std::optional<PropertyType> ParsePropertyType(std::string_view name) {
  for (PropertyType t : {PropertyType::kString, PropertyType::kBoolean, PropertyType::kId, PropertyType::kInteger,
                         PropertyType::kDecimal, PropertyType::kDateTime, PropertyType::kUri, PropertyType::kHtml}) {
    if (PropertyTypeName(t) == name) return t;
  }
  return std::nullopt;
}

std::shared_ptr<const TypeDef> BuiltInType(std::string_view id) {
  auto it = BaseTypes().find(std::string(id));
  if (it == BaseTypes().end()) return nullptr;
  return it->second;
}

const std::vector<std::string>& BuiltInTypeIds() {
  static const std::vector<std::string> kIds = {cmis::kDocument, cmis::kFolder, cmis::kItem,
                                                cmis::kRelationship, cmis::kPolicy, cmis::kSecondary};
  return kIds;
}

Result<std::shared_ptr<const TypeDef>> TypeRegistry::Get(const std::string& id) { return Load(id, 0); }

Result<std::shared_ptr<const PropertyDefinitionIndex>> TypeRegistry::Definitions(const std::string& id) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const TypeDef> type, Get(id));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = definitions_.find(id);
    if (it != definitions_.end() && it->second.first == type) return it->second.second;
  }
  auto index = std::make_shared<PropertyDefinitionIndex>();
  if (const Json* defs = storage::Member(type->json, "propertyDefinitions"); defs != nullptr && defs->is_object()) {
    index->json = *defs;
  }
  // Indexed only now that the JSON sits in its final place.
  for (auto d = index->json.begin(); d != index->json.end(); ++d) {
    if (d->is_object()) index->by_id.emplace(d.key(), &*d);
  }
  std::lock_guard<std::mutex> lock(mu_);
  definitions_[id] = {type, index};
  return std::shared_ptr<const PropertyDefinitionIndex>(std::move(index));
}

Result<std::shared_ptr<const TypeDef>> TypeRegistry::Load(const std::string& id, int depth) {
  if (auto b = BuiltInType(id)) return b;
  if (id.empty() || id.size() > 200) return ObjectNotFound("no type '" + id + "'");
  if (depth > 64) return StorageError("type '" + id + "' has a supertype chain that is too deep or cyclic");
  const std::string path = layout_.TypeFile(id);
  auto st = fs_.Stat(path);
  if (!st.ok()) {
    if (st.status().Is(std::errc::no_such_file_or_directory)) return ObjectNotFound("no type '" + id + "'");
    return st.status();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = custom_.find(id);
    if (it != custom_.end() && it->second.first.inode == st->inode && it->second.first.mtime_ns == st->mtime_ns &&
        it->second.first.size == st->size) {
      return it->second.second;
    }
  }
  auto j = storage::ReadJsonFile(fs_, path);
  if (!j.ok()) {
    if (j.status().Is(std::errc::no_such_file_or_directory)) return ObjectNotFound("no type '" + id + "'");
    return j.status();
  }
  const Json& def = *j;
  auto parent_field = storage::StringField(def, "parentId");
  if (!parent_field) return StorageError("type file of '" + id + "' has no parentId");
  const std::string parent_id = *parent_field;
  if (parent_id == id) return StorageError("type '" + id + "' is its own parent");
  FOLIO_ASSIGN_OR_RETURN(auto parent_ptr, Load(parent_id, depth + 1));
  const TypeDef& parent = *parent_ptr;
  TypeDef t = parent;
  t.id = id;
  t.parent_id = parent_id;
  t.json = def;
  // Attributes a file leaves out (made by hand, or by an older Folio) or gives a value
  // of another JSON type: the parent's; queryName and localName: the id.
  for (const char* key : {"creatable", "fileable", "queryable", "fulltextIndexed", "includedInSupertypeQuery",
                          "controllablePolicy", "controllableACL"}) {
    t.json[key] = storage::BoolOr(def, key, storage::BoolOr(parent.json, key, false));
  }
  for (const char* key : {"queryName", "localName"}) {
    const std::string given = storage::StringOr(def, key, "");
    t.json[key] = given.empty() ? id : given;
  }
  const Json* inherited = storage::Member(parent.json, "propertyDefinitions");
  Json all = inherited != nullptr && inherited->is_object() ? *inherited : Json::object();
  for (auto& [pid, pdef] : all.items()) pdef["inherited"] = true;
  if (auto v = storage::BoolField(def, "versionable")) t.versionable = *v;
  if (auto c = storage::StringField(def, "contentStreamAllowed")) t.content_stream_allowed = *c;
  if (auto c = storage::BoolField(def, "creatable")) t.creatable = *c;
  const Json* own = storage::Member(def, "propertyDefinitions");
  if (own != nullptr && own->is_object()) {
    for (auto& [pid, pdef] : own->items()) {
      if (!pdef.is_object()) {
        return StorageError("type file of '" + id + "' has a malformed definition of property '" + pid + "'");
      }
      PropertyDef p;
      p.id = pid;
      p.type = ParsePropertyType(storage::StringOr(pdef, "propertyType", "string")).value_or(PropertyType::kString);
      p.multi = storage::StringOr(pdef, "cardinality", "single") == "multi";
      p.updatability =
          ParseUpdatability(storage::StringOr(pdef, "updatability", "readwrite")).value_or(Updatability::kReadWrite);
      p.required = storage::BoolOr(pdef, "required", false);
      t.properties[pid] = p;
      // The definition as the engine reads it: a file edited by hand may give these
      // attributes other types or values, and every reader of the served definition
      // (the api, inspect) may then rely on their type.
      Json& shown = all[pid] = pdef;
      shown["propertyType"] = std::string(PropertyTypeName(p.type));
      shown["cardinality"] = p.multi ? "multi" : "single";
      shown["updatability"] = std::string(UpdatabilityName(p.updatability));
      shown["required"] = p.required;
      shown["inherited"] = false;
      shown["queryable"] = storage::BoolOr(pdef, "queryable", true);
      shown["orderable"] = !p.multi && storage::BoolOr(pdef, "orderable", true);
      for (const char* key : {"queryName", "localName"}) {
        const std::string given = storage::StringOr(pdef, key, "");
        shown[key] = given.empty() ? pid : given;
      }
    }
  }
  if (const Json* m = storage::Member(def, "typeMutability"); m == nullptr || !m->is_object()) {
    t.json["typeMutability"] = Json{{"create", true}, {"update", true}, {"delete", true}};
  }
  t.json["id"] = id;  // the file's name says which type it is, whatever its "id" says
  // The parent's: cmis:policy and cmis:secondary have `base` kItem.
  t.json["baseId"] = storage::StringOr(parent.json, "baseId", std::string(BaseTypeId(t.base)));
  t.json["propertyDefinitions"] = std::move(all);
  auto shared = std::make_shared<const TypeDef>(std::move(t));
  std::lock_guard<std::mutex> lock(mu_);
  custom_[id] = {*st, shared};
  return shared;
}

Result<std::vector<Json>> TypeRegistry::Children(const std::string& parent_id) {
  std::vector<Json> out;
  if (parent_id.empty()) {
    for (const char* id : {cmis::kDocument, cmis::kFolder, cmis::kItem, cmis::kRelationship, cmis::kPolicy,
                                  cmis::kSecondary}) {
      out.push_back(BuiltInType(id)->json);
    }
    return out;
  }
  FOLIO_RETURN_IF_ERROR(Get(parent_id).status());
  auto entries = fs_.List(layout_.TypesDir());
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return out;
    return entries.status();
  }
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kFile || storage::IsTempName(e.name)) continue;
    auto j = storage::ReadJsonFile(fs_, storage::JoinPath(layout_.TypesDir(), e.name));
    if (!j.ok()) continue;
    auto child_id = storage::StringField(*j, "id");
    if (!child_id || storage::StringOr(*j, "parentId", "") != parent_id) continue;
    auto t = Get(*child_id);
    if (t.ok()) out.push_back((*t)->json);
  }
  std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) {
    return storage::StringOr(a, "id", "") < storage::StringOr(b, "id", "");
  });
  return out;
}

Result<Json> TypeRegistry::Create(const Json& definition, const std::function<Status()>& allowed) {
  if (!definition.is_object()) return Invalid("must be a JSON object");
  auto id_field = storage::StringField(definition, "id");
  if (!id_field || id_field->empty()) return Invalid("'id' is missing");
  const std::string id = *id_field;
  if (id.size() > 200) return Invalid("'id' is longer than 200 bytes");
  auto parent_field = storage::StringField(definition, "parentId");
  if (!parent_field) return Invalid("'parentId' is missing");
  if (BuiltInType(id)) return ContentAlreadyExists("type '" + id + "' is a built-in type");
  const std::string parent_id = *parent_field;
  auto parent = Get(parent_id);
  if (!parent.ok()) return Constraint("parent type '" + parent_id + "' of '" + id + "' does not exist");
  Json stored = definition;
  FOLIO_RETURN_IF_ERROR(CompleteTypeAttributes(stored, id, **parent));
  const Json* given = storage::Member(definition, "propertyDefinitions");
  Json props = given != nullptr ? *given : Json::object();
  if (!props.is_object()) return Invalid("'propertyDefinitions' must be an object");
  for (auto& [pid, pdef] : props.items()) FOLIO_RETURN_IF_ERROR(ValidateNewProperty(pid, pdef, **parent));
  stored["propertyDefinitions"] = props;
  if (committer_ == nullptr) return PermissionDenied("types cannot be created here (read-only)");
  FOLIO_RETURN_IF_ERROR(committer_->Run([&](storage::ChangeSet& change) -> Status {
    if (allowed) FOLIO_RETURN_IF_ERROR(allowed());
    if (Exists(fs_, layout_.TypeFile(id))) return ContentAlreadyExists("type '" + id + "' exists");
    if (!Exists(fs_, layout_.TypesDir())) change.MakeDir(layout_.TypesDir());
    change.PutJson(layout_.TypeFile(id), stored);
    // Its objects will each have a marker here: what deleteType reads (docs/STORAGE.md §7).
    if (!Exists(fs_, layout_.TypeUsageDir())) change.MakeDir(layout_.TypeUsageDir());
    change.MakeDir(layout_.TypeUsageDir(id));
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(auto t, Get(id));
  return t->json;
}

Result<Json> TypeRegistry::Update(const Json& definition, const std::function<Status()>& allowed) {
  if (!definition.is_object()) return Invalid("must be a JSON object");
  auto id_field = storage::StringField(definition, "id");
  if (!id_field || id_field->empty()) return Invalid("'id' is missing");
  const std::string id = *id_field;
  if (BuiltInType(id)) return Constraint("built-in type '" + id + "' cannot be changed");
  const Json* given_props = storage::Member(definition, "propertyDefinitions");
  if (given_props != nullptr && !given_props->is_object() && !given_props->is_null()) {
    return Invalid("'propertyDefinitions' must be an object");
  }
  if (committer_ == nullptr) return PermissionDenied("types cannot be changed here (read-only)");
  FOLIO_RETURN_IF_ERROR(committer_->Run([&](storage::ChangeSet& change) -> Status {
    if (allowed) FOLIO_RETURN_IF_ERROR(allowed());
    FOLIO_ASSIGN_OR_RETURN(auto current, Get(id));
    const TypeDef& type = *current;
    FOLIO_ASSIGN_OR_RETURN(auto parent, Get(type.parent_id));
    if (const Json* mut = storage::Member(type.json, "typeMutability")) {
      if (storage::BoolOr(*mut, "update", true) == false) {
        return Constraint("type '" + id + "' says it cannot be updated (typeMutability.update is false)");
      }
    }
    FOLIO_ASSIGN_OR_RETURN(Json stored, storage::ReadJsonFile(fs_, layout_.TypeFile(id)));
    const std::string what = "type '" + id + "'";
    for (auto it = definition.begin(); it != definition.end(); ++it) {
      if (it.key() == "propertyDefinitions") continue;
      FOLIO_RETURN_IF_ERROR(CheckUnchanged(what, it.key(), *it, Find(type.json, it.key())));
      if (IsDisplayAttribute(it.key())) stored[it.key()] = *it;
    }
    if (given_props == nullptr || given_props->is_null()) {
      change.PutJson(layout_.TypeFile(id), stored);
      return OkStatus();
    }
    Json own = storage::Member(stored, "propertyDefinitions") != nullptr && stored["propertyDefinitions"].is_object()
                   ? stored["propertyDefinitions"]
                   : Json::object();
    const Json& all = type.json["propertyDefinitions"];
    for (auto& [pid, given] : given_props->items()) {
      const std::string pwhat = what + ", property '" + pid + "'";
      if (!given.is_object()) return Invalid("property '" + pid + "' must be an object");
      auto existing = all.find(pid);
      if (existing == all.end()) {
        // A new property: stored objects lack it, so it must be optional.
        Json pdef = given;
        FOLIO_RETURN_IF_ERROR(ValidateNewProperty(pid, pdef, type));
        if (storage::BoolOr(pdef, "required", false)) {
          return Constraint(pwhat + ": a new property must be optional (required false): objects of the type "
                            "that exist do not have it");
        }
        own[pid] = std::move(pdef);
        continue;
      }
      // An existing one (own or inherited): display attributes of its own may change.
      const bool inherited = parent->properties.count(pid) > 0;
      for (auto a = given.begin(); a != given.end(); ++a) {
        if (a.key() == "inherited") continue;  // derived: how the type shows it
        if (inherited && IsDisplayAttribute(a.key())) {
          const Json* now = Find(*existing, a.key());
          if (now == nullptr || *now != *a) return Constraint(pwhat + ": it is inherited; change it on its supertype");
          continue;
        }
        FOLIO_RETURN_IF_ERROR(CheckUnchanged(pwhat, a.key(), *a, Find(*existing, a.key())));
        if (IsDisplayAttribute(a.key())) own[pid][a.key()] = *a;
      }
    }
    stored["propertyDefinitions"] = std::move(own);
    change.PutJson(layout_.TypeFile(id), stored);
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(auto t, Get(id));
  return t->json;
}

Status TypeRegistry::Delete(const std::string& id, const std::function<Status(bool has_markers)>& check_unused,
                            const std::function<Status()>& allowed) {
  if (BuiltInType(id)) return Constraint("built-in type '" + id + "' cannot be deleted");
  if (committer_ == nullptr) return PermissionDenied("types cannot be deleted here (read-only)");
  return committer_->Run([&](storage::ChangeSet& change) -> Status {
    if (allowed) FOLIO_RETURN_IF_ERROR(allowed());
    FOLIO_RETURN_IF_ERROR(Get(id).status());
    FOLIO_ASSIGN_OR_RETURN(auto children, Children(id));
    if (!children.empty()) {
      return Constraint("type '" + id + "' has subtypes (" + storage::StringOr(children.front(), "id", "") +
                        (children.size() > 1 ? " and " + std::to_string(children.size() - 1) + " more" : "") +
                        "): delete them first");
    }
    const bool has_markers = Exists(fs_, layout_.TypeUsageDir(id));
    FOLIO_RETURN_IF_ERROR(check_unused(has_markers));
    change.Remove(layout_.TypeFile(id));
    if (has_markers) change.Remove(layout_.TypeUsageDir(id));  // with the markers of objects gone by hand
    return OkStatus();
  });
}

}  // namespace folio::repo::types
