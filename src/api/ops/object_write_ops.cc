// Object writes (docs/API.md §7.7–§7.9): create*, createDocumentFromSource, update, bulkUpdate,
// delete, deleteTree, move. Content writes are in content_ops.cc.
#include <algorithm>
#include <unordered_set>

#include "api/ascii.h"
#include "api/cmis_names.h"
#include "api/json_input.h"
#include "api/ops/ops.h"
#include "api/properties_form.h"

namespace folio::api::ops {
namespace {

std::optional<BaseType> BaseOfOperation(Operation op) {
  switch (op) {
    case Operation::kCreateDocument: return BaseType::kDocument;
    case Operation::kCreateFolder: return BaseType::kFolder;
    case Operation::kCreateItem: return BaseType::kItem;
    case Operation::kCreateRelationship: return BaseType::kRelationship;
    default: return std::nullopt;
  }
}

std::optional<BaseType> BaseOfTypeId(std::string_view base_id) {
  if (base_id == kTypeDocument) return BaseType::kDocument;
  if (base_id == kTypeFolder) return BaseType::kFolder;
  if (base_id == kTypeItem) return BaseType::kItem;
  if (base_id == kTypeRelationship) return BaseType::kRelationship;
  return std::nullopt;
}

Result<VersioningState> ReadVersioningState(const Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string text, ctx.params.GetString("versioningState", "major"));
  const std::string lower = AsciiToLower(text);
  if (lower == "major") return VersioningState::kMajor;
  if (lower == "minor") return VersioningState::kMinor;
  if (lower == "checkedout") return VersioningState::kCheckedOut;
  if (lower == "none") return VersioningState::kNone;
  return InvalidArgument("parameter 'versioningState' must be none, major, minor or checkedout, got '" + text + "'");
}

// The property id as the repository's variant spells it, for messages.
std::string Shown(const Context& ctx, std::string_view canonical) {
  return std::string(ToResponseId(ctx.variant, canonical));
}

// A folder id parameter of move. A value starting with '/' is the folder's path in the
// repository ("/" is the root folder): no object id starts with '/', and a curl user
// knows the path. "" when absent and not `required`.
// Errors: kInvalidArgument when required and absent; kObjectNotFound for no such path.
Result<std::string> FolderIdParam(Context& ctx, std::string_view name, bool required) {
  if (required) FOLIO_RETURN_IF_ERROR(ctx.params.RequireString(name).status());
  FOLIO_ASSIGN_OR_RETURN(std::string value, ctx.params.GetString(name));
  if (!value.starts_with('/')) return value;
  const size_t first = value.find_first_not_of('/');
  if (first == std::string::npos) return ctx.repo->info().root_folder_id;
  const size_t last = value.find_last_not_of('/');
  // A path the caller may not read is refused as the change would refuse it.
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> folder,
                         ctx.repo->GetObjectByPath(value.substr(first, last - first + 1), acl::Action::kRead));
  return folder->id;
}

constexpr size_t kMaxBulkObjects = 1000;

// The ids of parameter `objectIds`: a JSON array of strings (a JSON value, or text
// holding one), or a comma-separated list (spaces around an id are dropped). Errors:
// kInvalidArgument naming the parameter and the entry at fault (an empty id, a value
// that is not a string, text that is not a JSON array).
Result<std::vector<std::string>> ObjectIdsList(const Json& list) {
  std::vector<std::string> ids;
  Json array;
  if (list.is_array()) {
    array = list;
  } else if (!list.is_string()) {
    return InvalidArgument("parameter 'objectIds' must be a comma-separated list or a JSON array of ids");
  } else {
    std::string_view text = list.get_ref<const std::string&>();
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (!text.empty() && text.front() == '[') {
      FOLIO_ASSIGN_OR_RETURN(array, ParseJsonText(text, "parameter 'objectIds'"));
      if (!array.is_array()) return InvalidArgument("parameter 'objectIds' must be a JSON array of ids");
    } else {
      size_t n = 0;
      for (std::string_view rest = text;; ++n) {
        const size_t comma = rest.find(',');
        std::string_view one = rest.substr(0, comma);
        while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
        while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
        if (one.empty()) {
          return InvalidArgument("parameter 'objectIds' has an empty id at position " + std::to_string(n + 1) +
                                 " of '" + std::string(text) + "'");
        }
        ids.emplace_back(one);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
      return ids;
    }
  }
  for (size_t i = 0; i < array.size(); ++i) {
    const Json& one = array[i];
    if (!one.is_string() || one.get_ref<const std::string&>().empty()) {
      return InvalidArgument("parameter 'objectIds': entry " + std::to_string(i) + " must be a non-empty id, got " +
                             one.dump());
    }
    ids.push_back(one.get<std::string>());
  }
  return ids;
}

// The objects of a bulkUpdate: objectId[N], then those of objectIds not named already
// (CmisJS sends the same ids both ways): each object once, in the order first named.
Result<std::vector<std::string>> BulkObjectIds(const Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> ids, ReadIndexedStrings(ctx.params, "objectId", kMaxBulkObjects));
  const size_t indexed = ids.size();
  if (const Json* list = ctx.params.Find("objectIds")) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> listed, ObjectIdsList(*list));
    if (listed.size() > kMaxBulkObjects) {
      return Constraint("too many objects: " + std::to_string(listed.size()) + " in 'objectIds', at most " +
                        std::to_string(kMaxBulkObjects) + " allowed");
    }
    for (std::string& id : listed) ids.push_back(std::move(id));
  }
  if (ids.empty()) return InvalidArgument("missing required parameter 'objectId[0]' (or 'objectIds')");
  std::unordered_set<std::string> seen(ids.begin(), ids.begin() + indexed);
  size_t kept = indexed;
  for (size_t i = indexed; i < ids.size(); ++i) {
    if (!seen.insert(ids[i]).second) continue;
    // Never a move onto itself: that leaves the id empty ("no object with id ''").
    if (kept != i) ids[kept] = std::move(ids[i]);
    ++kept;
  }
  ids.resize(kept);
  if (ids.size() > kMaxBulkObjects) {
    return Constraint("too many objects: " + std::to_string(ids.size()) + " given, at most " +
                      std::to_string(kMaxBulkObjects) + " allowed");
  }
  return ids;
}

}  // namespace

Result<Response> CreateObject(Context& ctx) {
  const std::optional<BaseType> wanted = BaseOfOperation(ctx.op);
  FOLIO_ASSIGN_OR_RETURN(Json props, InputProperties(ctx, ""));
  FOLIO_ASSIGN_OR_RETURN(std::optional<ContentSource> content, InputContent(ctx));
  std::string type_id;
  if (auto it = props.find(std::string(kPropObjectTypeId)); it != props.end() && it->is_string()) {
    type_id = it->get<std::string>();
  }
  if (type_id.empty()) {
    if (wanted) {
      type_id = std::string(BaseTypeId(*wanted));
    } else if (content) {
      type_id = std::string(kTypeDocument);
    } else {
      return InvalidArgument("missing required property '" + Shown(ctx, kPropObjectTypeId) + "'");
    }
  }
  auto type = ctx.repo->GetTypeDefinition(type_id);
  if (!type.ok()) {
    if (type.status().kind() == ErrorKind::kObjectNotFound) {
      return InvalidArgument("unknown object type '" + type_id + "' in property '" + Shown(ctx, kPropObjectTypeId) +
                             "'");
    }
    return type.status();
  }
  const std::optional<BaseType> base = BaseOfTypeId(type->value("baseId", ""));
  if (!base) return Constraint("objects of type '" + type_id + "' cannot be created");
  if (wanted && *wanted != *base) {
    return InvalidArgument("type '" + type_id + "' is not a " + Shown(ctx, BaseTypeId(*wanted)) + " type (operation '" +
                           std::string(OperationName(ctx.op)) + "')");
  }
  FOLIO_RETURN_IF_ERROR(NormalizeDatetimes(*ctx.repo, type_id, props));
  NewObject obj;
  obj.type_id = type_id;
  if (auto it = props.find(std::string(kPropName)); it != props.end() && !it->is_null()) {
    if (!it->is_string()) return InvalidArgument("property '" + Shown(ctx, kPropName) + "' must be a string");
    obj.name = it->get<std::string>();
  } else if (*base != BaseType::kRelationship && !(*base == BaseType::kDocument && content &&
                                                     !content->file_name.empty())) {
    return InvalidArgument("missing required property '" + Shown(ctx, kPropName) + "': " + HowToPassProperties() +
                           (*base == BaseType::kDocument ? "; a multipart upload without one takes its file's name"
                                                         : ""));
  }
  if (obj.name.empty() && *base == BaseType::kDocument && content && !content->file_name.empty()) {
    // An upload (`curl -F content=@q3.txt`) without a name is named after its file.
    obj.name = content->file_name;
    props[std::string(kPropName)] = obj.name;
  }
  obj.properties = props;
  if (content && *base != BaseType::kDocument) {
    return StreamNotSupported("a " + Shown(ctx, BaseTypeId(*base)) + " cannot have content");
  }
  Result<ObjectData> made = RuntimeError("unreachable");
  if (*base == BaseType::kRelationship) {
    // Both ends must be readable (the engine checks them); the relationship starts with
    // its creator's entry.
    FOLIO_ASSIGN_OR_RETURN(obj.acl, NewObjectAcl(ctx, {}));
    made = ctx.repo->CreateRelationship(obj);
  } else {
    FOLIO_ASSIGN_OR_RETURN(const ObjectData* parent_ptr, ctx.Target());
    const ObjectData& parent = *parent_ptr;
    if (parent.base != BaseType::kFolder) {
      return InvalidArgument("the parent '" + (parent.path.empty() ? parent.id : "/" + parent.path) +
                             "' is not a folder");
    }
    FOLIO_ASSIGN_OR_RETURN(obj.acl, NewObjectAcl(ctx, parent.acl));
    switch (*base) {
      case BaseType::kFolder: made = ctx.repo->CreateFolder(parent.id, obj); break;
      case BaseType::kItem: made = ctx.repo->CreateItem(parent.id, obj); break;
      case BaseType::kDocument: {
        FOLIO_ASSIGN_OR_RETURN(VersioningState state, ReadVersioningState(ctx));
        made = ctx.repo->CreateDocument(parent.id, obj, content, state);
        break;
      }
      case BaseType::kRelationship: break;
    }
  }
  if (!made.ok()) return made.status();
  return ObjectResponse(ctx, *made, 201);
}

Result<Response> CreateDocumentFromSource(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string source_id, ctx.params.RequireString("sourceId"));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> source_ptr,
                         ctx.repo->GetObject(source_id, acl::Action::kRead));
  const ObjectData& source = *source_ptr;
  if (source.base != BaseType::kDocument) {
    return InvalidArgument("source '" + source_id + "' is a " + Shown(ctx, BaseTypeId(source.base)) +
                           ", not a document");
  }
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* parent, ctx.Target());
  if (parent->base != BaseType::kFolder) {
    return InvalidArgument("the parent '" + (parent->path.empty() ? parent->id : "/" + parent->path) +
                           "' is not a folder");
  }
  FOLIO_ASSIGN_OR_RETURN(Json given, InputProperties(ctx, source.type_id));
  NewObject obj;
  obj.type_id = source.type_id;
  if (auto it = given.find(std::string(kPropObjectTypeId)); it != given.end() && it->is_string()) {
    obj.type_id = it->get<std::string>();
  }
  FOLIO_ASSIGN_OR_RETURN(Json type, ctx.repo->GetTypeDefinition(obj.type_id));
  if (type.value("baseId", "") != kTypeDocument) {
    return InvalidArgument("type '" + obj.type_id + "' is not a " + Shown(ctx, kTypeDocument) + " type");
  }
  // The source's settable properties that the new type or the copy's secondary types
  // have, then the request's. The copy keeps the source's secondary types unless the
  // request lists others (docs/API.md §6.6): the properties of those it leaves out are
  // not copied.
  Json defs = type.value("propertyDefinitions", Json::object());
  Json listed = source.properties.value(std::string(kPropSecondaryObjectTypeIds), Json());
  if (auto it = given.find(std::string(kPropSecondaryObjectTypeIds)); it != given.end()) listed = *it;
  if (listed.is_string()) listed = Json::array({listed});
  if (listed.is_array()) {
    for (const Json& secondary_id : listed) {
      if (!secondary_id.is_string()) continue;
      auto secondary = ctx.repo->GetTypeDefinition(secondary_id.get<std::string>());
      if (!secondary.ok()) continue;  // the engine refuses the copy, naming it
      const Json own = secondary->value("propertyDefinitions", Json::object());
      for (auto it = own.begin(); it != own.end(); ++it) {
        if (!defs.contains(it.key())) defs[it.key()] = *it;
      }
    }
  }
  for (auto it = source.properties.begin(); it != source.properties.end(); ++it) {
    const auto def = defs.find(it.key());
    if (def == defs.end() || !def->is_object() || it->is_null() || it.key() == kPropObjectTypeId) continue;
    const std::string updatability = def->value("updatability", "readonly");
    if (updatability == "readwrite" || updatability == "oncreate") obj.properties[it.key()] = *it;
  }
  for (auto it = given.begin(); it != given.end(); ++it) obj.properties[it.key()] = *it;
  if (auto it = obj.properties.find(std::string(kPropName)); it != obj.properties.end() && it->is_string()) {
    obj.name = it->get<std::string>();
  } else {
    return InvalidArgument("property '" + Shown(ctx, kPropName) + "' must be a string");
  }
  FOLIO_ASSIGN_OR_RETURN(obj.acl, NewObjectAcl(ctx, parent->acl));
  FOLIO_ASSIGN_OR_RETURN(VersioningState state, ReadVersioningState(ctx));
  std::optional<ContentSource> content;
  std::unique_ptr<Upload> copy;  // kept until the change returns
  if (source.content) {
    FOLIO_ASSIGN_OR_RETURN(ContentStream stream, ctx.repo->OpenContent(source));
    FOLIO_ASSIGN_OR_RETURN(copy, CopyIntoUpload(ctx, {stream.file.get()}));
    content = copy->AsContent(stream.info.mime_type, stream.info.file_name);
  }
  FOLIO_ASSIGN_OR_RETURN(ObjectData made, ctx.repo->CreateDocument(parent->id, obj, content, state));
  return ObjectResponse(ctx, made, 201);
}

Result<Response> UpdateProperties(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData object, UpdateTarget(ctx));
  FOLIO_RETURN_IF_ERROR(CheckChangeToken(ctx, object));
  FOLIO_ASSIGN_OR_RETURN(Json props, InputProperties(ctx, object.type_id));
  // CMIS requires properties here; an update without any is a mistake to report (a
  // field the request layer does not know, say), not a change to make.
  if (props.empty()) return InvalidArgument("missing required parameter 'properties': " + HowToPassProperties());
  FOLIO_ASSIGN_OR_RETURN(ObjectData updated, ctx.repo->UpdateProperties(object.id, props));
  return ObjectResponse(ctx, updated, 200);
}

// bulkUpdate's addSecondaryTypeId[N] and removeSecondaryTypeId[N] (canonical type ids).
struct SecondaryEdit {
  std::vector<std::string> add;
  std::vector<std::string> remove;
  bool empty() const { return add.empty() && remove.empty(); }
  // The secondary type ids `object` has after the edit: its own, less those removed,
  // plus those added (in the order given).
  Json Apply(const ObjectData& object) const {
    Json out = Json::array();
    const auto listed = object.properties.find(std::string(kPropSecondaryObjectTypeIds));
    if (listed != object.properties.end() && listed->is_array()) {
      for (const Json& id : *listed) {
        if (id.is_string() && std::find(remove.begin(), remove.end(), id.get<std::string>()) == remove.end()) {
          out.push_back(id);
        }
      }
    }
    for (const std::string& id : add) {
      if (std::find(out.begin(), out.end(), Json(id)) == out.end()) out.push_back(id);
    }
    return out.empty() ? Json(nullptr) : out;
  }
};

// Errors: kInvalidArgument for a malformed index or an empty id.
Result<SecondaryEdit> ReadSecondaryEdit(Context& ctx) {
  SecondaryEdit edit;
  for (auto [field, out] : {std::pair{"addSecondaryTypeId", &edit.add}, std::pair{"removeSecondaryTypeId", &edit.remove}}) {
    FOLIO_ASSIGN_OR_RETURN(*out, ReadIndexedStrings(ctx.params, field, kMaxBulkObjects));
    for (std::string& id : *out) {
      if (id.empty()) return InvalidArgument("parameter '" + std::string(field) + "' holds an empty type id");
      id = std::string(ToCanonicalTypeId(id));
    }
  }
  return edit;
}

Result<Response> BulkUpdate(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> ids, BulkObjectIds(ctx));
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> tokens,
                         ReadIndexedStrings(ctx.params, "changeToken", kMaxBulkObjects, IndexGaps::kAllowed));
  FOLIO_ASSIGN_OR_RETURN(SecondaryEdit secondary, ReadSecondaryEdit(ctx));
  // Malformed properties fail the request, before any object changes.
  FOLIO_ASSIGN_OR_RETURN(Json props, InputProperties(ctx, ""));
  if (props.empty() && secondary.empty()) {
    return InvalidArgument("missing required parameter 'properties' (or propertyId[N], addSecondaryTypeId[N], "
                           "removeSecondaryTypeId[N])");
  }
  if (!secondary.empty() && props.contains(std::string(kPropSecondaryObjectTypeIds))) {
    return InvalidArgument("give either addSecondaryTypeId[N]/removeSecondaryTypeId[N] or the property '" +
                           Shown(ctx, kPropSecondaryObjectTypeIds) + "', not both");
  }
  std::string body;
  JsonWriter w(body);
  w.BeginArray();
  Status first_failure = OkStatus();
  size_t updated_count = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    // CMIS leaves out an object that cannot be updated; when none can, the first
    // reason is the answer (an empty list would explain nothing).
    Result<ObjectData> updated = [&]() -> Result<ObjectData> {
      // Checked early, so that a stale token of an object the caller may not change
      // tells nothing; the engine checks again inside the change.
      FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const ObjectData> found,
                             ctx.repo->GetObject(ids[i], acl::Action::kUpdateProperties));
      const ObjectData& object = *found;
      FOLIO_RETURN_IF_ERROR(CheckToken(object, i < tokens.size() ? tokens[i] : ""));
      Json typed = props;
      if (!secondary.empty()) typed[std::string(kPropSecondaryObjectTypeIds)] = secondary.Apply(object);
      FOLIO_RETURN_IF_ERROR(NormalizeDatetimes(*ctx.repo, object.type_id, typed));
      return ctx.repo->UpdateProperties(object.id, typed);
    }();
    if (!updated.ok()) {
      if (first_failure.ok()) first_failure = updated.status();
      continue;
    }
    ++updated_count;
    w.BeginObject().Key("id").String(ids[i]).Key("newId").String(updated->id).Key("changeToken");
    w.Value(updated->properties.value(std::string(kPropChangeToken), Json())).EndObject();
  }
  w.EndArray();
  if (updated_count == 0) return first_failure;
  return JsonTextResponse(200, std::move(body));
}

Result<Response> DeleteObject(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, ctx.Target());
  const ObjectData& object = *object_ptr;
  FOLIO_ASSIGN_OR_RETURN(bool all_versions, ctx.params.GetBool("allVersions", true));
  FOLIO_RETURN_IF_ERROR(ctx.repo->Delete(object.id, all_versions));
  return EmptyResponse(200);
}

Result<Response> DeleteTree(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* folder_ptr, ctx.Target());
  const ObjectData& folder = *folder_ptr;
  if (folder.base != BaseType::kFolder) return InvalidArgument("object '" + folder.id + "' is not a folder");
  FOLIO_ASSIGN_OR_RETURN(bool all_versions, ctx.params.GetBool("allVersions", true));
  FOLIO_ASSIGN_OR_RETURN(bool continue_on_failure, ctx.params.GetBool("continueOnFailure", false));
  (void)all_versions;
  (void)continue_on_failure;
  // Write on the folder and every object below it, all or nothing: the engine checks
  // them inside the change.
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> failed,
                         ctx.repo->DeleteTree(folder.id));
  if (failed.empty()) return EmptyResponse(200);
  return JsonResponse(200, Json{{"ids", failed}});
}

Result<Response> Move(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, ctx.Target());
  const ObjectData& object = *object_ptr;
  FOLIO_ASSIGN_OR_RETURN(std::string target_folder, FolderIdParam(ctx, "targetFolderId", true));
  FOLIO_ASSIGN_OR_RETURN(std::string source_folder, FolderIdParam(ctx, "sourceFolderId", false));
  // Write on the object, its folder and the folder it goes to: checked by the engine.
  FOLIO_ASSIGN_OR_RETURN(ObjectData moved, ctx.repo->Move(object.id, target_folder, source_folder));
  return ObjectResponse(ctx, moved, 201);
}

}  // namespace folio::api::ops
