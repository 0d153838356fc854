// Creating folders, documents, items and relationships. Each creation is one
// transaction: the new directory (or file) and its index entry appear together.
#include "repo/repo_impl.h"
#include "repo/version_label.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo {
namespace {

// The type to create: `requested` or the base type's own, which must be of `base`.
Result<TypeDef> CreatableType(TypeRegistry& types, const std::string& requested, BaseType base) {
  const std::string id = requested.empty() ? std::string(BaseTypeId(base)) : requested;
  auto type = types.Get(id);
  if (!type.ok()) {
    if (type.status().kind() == ErrorKind::kObjectNotFound) return InvalidArgument("unknown object type '" + id + "'");
    return type.status();
  }
  const TypeDef& def = **type;
  if (def.base != base || id == "cmis:policy" || id == "cmis:secondary") {
    return InvalidArgument("type '" + id + "' is not a " + std::string(BaseTypeId(base)) + " type");
  }
  if (!def.creatable) return Constraint("type '" + id + "' is not creatable");
  return def;
}

// Stored properties of a new object: system ones plus the validated input.
Result<Json> InitialProperties(const TypeDef& type, const NewObject& obj, const std::string& user, int64_t now) {
  Json input = obj.properties.is_object() ? obj.properties : Json::object();
  input.erase("cmis:name");
  input.erase("cmis:objectTypeId");
  FOLIO_ASSIGN_OR_RETURN(Json given, NormalizeProperties(type, input, PropertyMode::kCreate));
  Json stored = NewObjectProperties(type.id, user, now);
  for (auto& [k, v] : given.items()) {
    if (!v.is_null()) stored[k] = v;
  }
  FOLIO_RETURN_IF_ERROR(CheckRequired(type, stored));
  return stored;
}

// What every creation of a filed object checks and starts from: the parent folder, a
// creatable type of `base`, a free name, and the new record with initial properties
// (and a fresh id with `id_prefix`, unless it is 0).
struct Filed {
  Loc parent;
  TypeDef type;
  ObjectRecord rec;
};
Result<Filed> PrepareFiled(RepoImpl& r, const std::string& parent_id, const NewObject& obj, BaseType base,
                           char id_prefix, const std::string& user) {
  Filed f;
  FOLIO_ASSIGN_OR_RETURN(f.parent, r.LocateFolder(parent_id));
  FOLIO_ASSIGN_OR_RETURN(f.type, CreatableType(r.types_, obj.type_id, base));
  FOLIO_RETURN_IF_ERROR(r.CheckNameFree(f.parent.folder, obj.name));
  if (id_prefix != 0) f.rec.id = r.NewObjectId(id_prefix);
  FOLIO_ASSIGN_OR_RETURN(f.rec.properties, InitialProperties(f.type, obj, user, storage::NowMs()));
  f.rec.acl = obj.acl;
  return f;
}

}  // namespace

Result<ObjectData> RepoImpl::CreateFolder(const std::string& parent_id, const NewObject& obj,
                                          const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(*this, parent_id, obj, BaseType::kFolder, 'f', user));
  const Loc& parent = f.parent;
  const ObjectRecord& rec = f.rec;
  const std::string path = storage::JoinPath(parent.folder, obj.name);

  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_ASSIGN_OR_RETURN(std::string dir, tx.NewDir(layout_.Dir(path)));
  const std::string meta = storage::JoinPath(dir, storage::kMetaDir);
  FOLIO_RETURN_IF_ERROR(tx.NewSubdir(meta));
  FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(storage::JoinPath(meta, storage::kFolderFileName),
                                        storage::SerializeJson(ToJson(rec))));
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, rec.id, {"folder", parent.id, obj.name, path}));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildFolder(Loc{BaseType::kFolder, rec.id, path, obj.name});
}

Result<ObjectData> RepoImpl::CreateDocument(const std::string& parent_id, const NewObject& obj,
                                            const std::optional<ContentSource>& content, VersioningState state,
                                            const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(*this, parent_id, obj, BaseType::kDocument, 0, user));
  const Loc& parent = f.parent;
  const TypeDef& type = f.type;
  if (content && type.content_stream_allowed == "notallowed") {
    return StreamNotSupported("type '" + type.id + "' does not allow content");
  }
  if (!content && type.content_stream_allowed == "required") {
    return Constraint("type '" + type.id + "' requires content");
  }
  if (!type.versionable && (state == VersioningState::kMinor || state == VersioningState::kCheckedOut)) {
    return Constraint("type '" + type.id + "' is not versionable");
  }
  const int64_t now = storage::NowMs();
  ObjectRecord rec = f.rec;
  rec.properties["cmis:name"] = obj.name;

  SeriesRecord series;
  series.series_id = NewObjectId('d');
  series.versionable = type.versionable && state != VersioningState::kNone;
  const bool checked_out = state == VersioningState::kCheckedOut;
  std::string file_label;  // name of the content/props files: "1.0", "0.1" or "pwc"
  if (checked_out) {
    file_label = "pwc";
    rec.label = "pwc";
    series.checked_out = CheckOutRecord{user, now, ""};
  } else {
    VersionLabel label = state == VersioningState::kMinor ? VersionLabel::FirstMinor() : VersionLabel::FirstMajor();
    file_label = label.ToString();
    rec.label = file_label;
    rec.major = label.IsMajor();
    series.versions = {file_label};
  }

  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(parent.folder)));
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.DocsDir(parent.folder)));
  FOLIO_ASSIGN_OR_RETURN(std::string dir, tx.NewDir(layout_.SeriesDir(parent.folder, obj.name)));
  const std::string content_path = storage::JoinPath(dir, file_label + ".content");
  if (content) {
    if (content->bytes) {
      FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(content_path, *content->bytes));
    } else {
      if (content->upload_path.rfind(layout_.UploadsDir() + "/", 0) != 0) {
        return InvalidArgument("upload '" + content->upload_path + "' is not in this repository's upload area");
      }
      FOLIO_RETURN_IF_ERROR(tx.MoveNewFile(content->upload_path, content_path));
    }
  }
  FOLIO_ASSIGN_OR_RETURN(rec.content, DescribeContent(content, content_path, obj.name));
  // The visible file holds the latest version's content; a document created checked
  // out has no version yet, so its file is empty until the first check-in.
  FOLIO_RETURN_IF_ERROR(StageVisible(tx, layout_.Child(parent.folder, obj.name),
                                     content && !checked_out ? content_path : "", series));
  FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(storage::JoinPath(dir, file_label + ".json"),
                                        storage::SerializeJson(ToJson(rec))));
  FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(storage::JoinPath(dir, storage::kSeriesFileName),
                                        storage::SerializeJson(ToJson(series))));
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(
      fs_, tx, layout_, series.series_id,
      {"document", parent.id, obj.name, storage::JoinPath(parent.folder, obj.name)}));
  if (checked_out) FOLIO_RETURN_IF_ERROR(StageCheckedOutMarker(tx, series.series_id, true));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildDocument(Loc{BaseType::kDocument, series.series_id, parent.folder, obj.name}, series, std::nullopt,
                       checked_out);
}

Result<ObjectData> RepoImpl::CreateItem(const std::string& parent_id, const NewObject& obj,
                                        const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(*this, parent_id, obj, BaseType::kItem, 'i', user));
  const Loc& parent = f.parent;
  const ObjectRecord& rec = f.rec;
  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(parent.folder)));
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.ItemsDir(parent.folder)));
  FOLIO_ASSIGN_OR_RETURN(std::string dir, tx.NewDir(layout_.ItemDir(parent.folder, obj.name)));
  FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(storage::JoinPath(dir, storage::kItemFileName),
                                        storage::SerializeJson(ToJson(rec))));
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, rec.id,
                                                 {"item", parent.id, obj.name, storage::JoinPath(parent.folder, obj.name)}));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildItem(Loc{BaseType::kItem, rec.id, parent.folder, obj.name});
}

Result<ObjectData> RepoImpl::CreateRelationship(const NewObject& obj, const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(TypeDef type, CreatableType(types_, obj.type_id, BaseType::kRelationship));
  const Json& props = obj.properties;
  for (const char* end : {"cmis:sourceId", "cmis:targetId"}) {
    if (!props.contains(end) || !props[end].is_string()) {
      return InvalidArgument("relationship needs the property '" + std::string(end) + "'");
    }
    auto target = ResolveId(props[end].get<std::string>());
    if (!target.ok()) {
      return InvalidArgument(std::string(end) + " '" + props[end].get<std::string>() + "' is not an existing object");
    }
  }
  ObjectRecord rec;
  rec.id = NewObjectId('r');
  FOLIO_ASSIGN_OR_RETURN(rec.properties, InitialProperties(type, obj, user, storage::NowMs()));
  rec.properties["cmis:name"] = obj.name;
  rec.acl = obj.acl;
  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.RelationshipsDir()));
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.RelationshipFile(rec.id), ToJson(rec)).status());
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, rec.id, {"relationship", "", obj.name, ""}));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildRelationship(Loc{BaseType::kRelationship, rec.id, "", obj.name});
}

}  // namespace folio::repo
