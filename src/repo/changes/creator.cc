// Creating objects; see creator.h.
#include "repo/changes/creator.h"

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/types/properties.h"
#include "repo/types/secondary_types.h"
#include "repo/versions/version_label.h"
#include "storage/committer.h"
#include "storage/datetime.h"
#include "storage/id_index.h"
#include "storage/ids.h"

namespace folio::repo::changes {

Result<types::TypeDef> CreatableType(types::TypeRegistry& types, const std::string& requested, BaseType base) {
  const std::string id = requested.empty() ? std::string(BaseTypeId(base)) : requested;
  auto type = types.Get(id);
  if (!type.ok()) {
    if (type.status().kind() == ErrorKind::kObjectNotFound) return InvalidArgument("unknown object type '" + id + "'");
    return type.status();
  }
  const types::TypeDef& def = **type;
  if (types::BaseIdOf(def) != BaseTypeId(base)) {
    return InvalidArgument("type '" + id + "' is not a " + std::string(BaseTypeId(base)) + " type");
  }
  if (!def.creatable) return Constraint("type '" + id + "' is not creatable");
  return def;
}

Result<Json> InitialProperties(types::TypeRegistry& types, const types::TypeDef& type, const Json& input_in,
                               const std::string& user, int64_t now) {
  Json input = input_in.is_object() ? input_in : Json::object();
  input.erase(cmis::kName);
  input.erase(cmis::kObjectTypeId);
  // The secondary types given add their properties to those the input may set.
  std::vector<std::string> secondary;
  if (auto it = input.find(cmis::kSecondaryObjectTypeIds); it != input.end()) {
    FOLIO_ASSIGN_OR_RETURN(secondary, types::GivenSecondaryTypeIds(*it));
    input.erase(it);
  }
  std::shared_ptr<const types::TypeDef> with_secondary;
  const types::TypeDef* rules = &type;
  if (!secondary.empty()) {
    FOLIO_ASSIGN_OR_RETURN(with_secondary, types::WithSecondaryTypes(
                                               types, std::make_shared<const types::TypeDef>(type), secondary, true));
    rules = with_secondary.get();
  }
  FOLIO_ASSIGN_OR_RETURN(Json given, types::NormalizeProperties(*rules, input, types::PropertyMode::kCreate));
  Json stored = NewObjectProperties(type.id, user, now);
  for (auto& [k, v] : given.items()) {
    if (!v.is_null()) stored[k] = v;
  }
  if (!secondary.empty()) stored[cmis::kSecondaryObjectTypeIds] = secondary;
  FOLIO_RETURN_IF_ERROR(types::CheckRequiredWithSecondaryTypes(types, *rules, stored));
  return stored;
}

// What every creation of a filed object checks and starts from: the parent folder, a
// creatable type of the base, a free name, and the new record with its initial
// properties (and a fresh id, unless the prefix is 0).
struct Creator::Filed {
  lookup::Loc parent;
  types::TypeDef type;
  ObjectRecord rec;
};

Result<Creator::Filed> Creator::PrepareFiled(const std::string& parent_id, const NewObject& obj, BaseType base,
                                             char id_prefix, const std::string& user, const WriteCheck& check) {
  Filed f;
  FOLIO_ASSIGN_OR_RETURN(f.parent, engine_.locator.LocateFolder(parent_id));
  FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, f.parent));
  FOLIO_ASSIGN_OR_RETURN(f.type, CreatableType(engine_.types, obj.type_id, base));
  FOLIO_RETURN_IF_ERROR(engine_.listings.CheckNameFree(f.parent.folder, obj.name));
  if (id_prefix != 0) f.rec.id = engine_.staging.NewObjectId(id_prefix);
  FOLIO_ASSIGN_OR_RETURN(f.rec.properties,
                         InitialProperties(engine_.types, f.type, obj.properties, user, storage::NowMs()));
  f.rec.acl = obj.acl;
  return f;
}

Result<ObjectData> Creator::CreateFolder(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                         const WriteCheck& check) {
  lookup::Loc made;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(parent_id, obj, BaseType::kFolder, 'f', user, check));
    const std::string path = storage::JoinPath(f.parent.folder, obj.name);
    change.MakeDir(engine_.layout.Dir(path));
    change.MakeDir(engine_.layout.FolderMeta(path));
    change.PutJson(engine_.layout.FolderFile(path), ToJson(f.rec));
    storage::StageIndexEntry(change, engine_.layout, f.rec.id, {"folder", f.parent.id, obj.name, path});
    FOLIO_RETURN_IF_ERROR(hand_edits::StageFolderMarker(change, engine_.staging, path, f.rec.id));
    change.Record(Event("created", f.rec.id, BaseType::kFolder, f.type.id));
    FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(engine_.staging, change, f.type.id, f.rec.properties, f.rec.id));
    made = lookup::Loc{BaseType::kFolder, f.rec.id, path, obj.name};
    return OkStatus();
  }));
  return engine_.builder.BuildFolder(made);
}

Result<ObjectData> Creator::CreateDocument(const std::string& parent_id, const NewObject& obj,
                                           const std::optional<ContentSource>& content, VersioningState state,
                                           const std::string& user, const WriteCheck& check) {
  lookup::Loc made;
  SeriesRecord series;
  const bool checked_out = state == VersioningState::kCheckedOut;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(parent_id, obj, BaseType::kDocument, 0, user, check));
    const types::TypeDef& type = f.type;
    if (content && type.content_stream_allowed == "notallowed") {
      return StreamNotSupported("type '" + type.id + "' does not allow content");
    }
    if (!content && type.content_stream_allowed == "required") {
      return Constraint("type '" + type.id + "' requires content");
    }
    if (!type.versionable && (state == VersioningState::kMinor || checked_out)) {
      return Constraint("type '" + type.id + "' is not versionable");
    }
    const int64_t now = storage::NowMs();
    ObjectRecord rec = f.rec;
    rec.properties[cmis::kName] = obj.name;
    series = SeriesRecord{};
    series.series_id = engine_.staging.NewObjectId('d');
    series.versionable = type.versionable && state != VersioningState::kNone;
    std::string file_label;  // of the content and record files: "1.0", "0.1" or "pwc"
    if (checked_out) {
      file_label = "pwc";
      rec.label = "pwc";
      series.checked_out = CheckOutRecord{user, now, ""};
    } else {
      const versions::VersionLabel label = state == VersioningState::kMinor ? versions::VersionLabel::FirstMinor()
                                                                            : versions::VersionLabel::FirstMajor();
      file_label = label.ToString();
      rec.label = file_label;
      rec.major = label.IsMajor();
      series.versions = {file_label};
    }
    made = lookup::Loc{BaseType::kDocument, series.series_id, f.parent.folder, obj.name};
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageFolderMeta(change, f.parent.folder, false));
    const std::string dir = engine_.layout.SeriesDir(f.parent.folder, obj.name);
    change.MakeDir(dir);
    const std::string content_path = storage::JoinPath(dir, storage::VersionContentName(file_label));
    if (content) {
      FOLIO_ASSIGN_OR_RETURN(ContentInfo info, engine_.staging.StageContent(change, content_path, *content, obj.name));
      rec.content = info;
    }
    change.PutJson(storage::JoinPath(dir, storage::VersionPropsName(file_label)), ToJson(rec));
    // The visible file holds the latest version's content; a document created checked
    // out has no version yet, so its file is empty until the first check-in.
    engine_.staging.StageVisibleAndSeries(change, made, content && !checked_out ? content_path : "",
                                          storage::Guard::None(), series, /*visible_new=*/true);
    storage::StageIndexEntry(change, engine_.layout, series.series_id,
                             {"document", f.parent.id, obj.name, storage::JoinPath(f.parent.folder, obj.name)});
    if (checked_out) FOLIO_RETURN_IF_ERROR(engine_.staging.StageCheckedOutMarker(change, series.series_id, true));
    change.Record(Event("created",
                        checked_out ? storage::PwcId(series.series_id) : storage::VersionId(series.series_id, file_label),
                        BaseType::kDocument, type.id));
    FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(engine_.staging, change, type.id, rec.properties, series.series_id));
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.DocumentTarget(made.folder, made.name));
  return engine_.builder.Build(t);
}

Result<ObjectData> Creator::CreateItem(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                       const WriteCheck& check) {
  lookup::Loc made;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(Filed f, PrepareFiled(parent_id, obj, BaseType::kItem, 'i', user, check));
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageFolderMeta(change, f.parent.folder, true));
    const std::string dir = engine_.layout.ItemDir(f.parent.folder, obj.name);
    change.MakeDir(dir);
    change.PutJson(engine_.layout.ItemFile(f.parent.folder, obj.name), ToJson(f.rec));
    storage::StageIndexEntry(change, engine_.layout, f.rec.id,
                             {"item", f.parent.id, obj.name, storage::JoinPath(f.parent.folder, obj.name)});
    change.Record(Event("created", f.rec.id, BaseType::kItem, f.type.id));
    FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(engine_.staging, change, f.type.id, f.rec.properties, f.rec.id));
    made = lookup::Loc{BaseType::kItem, f.rec.id, f.parent.folder, obj.name};
    return OkStatus();
  }));
  return engine_.builder.BuildItem(made);
}

Result<ObjectData> Creator::CreateRelationship(const NewObject& obj, const std::string& user,
                                               const WriteCheck& check) {
  lookup::Loc made;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(types::TypeDef type, CreatableType(engine_.types, obj.type_id, BaseType::kRelationship));
    const Json& props = obj.properties;
    for (const char* end : {cmis::kSourceId, cmis::kTargetId}) {
      auto it = props.find(end);
      if (it == props.end() || !it->is_string()) {
        return InvalidArgument("relationship needs the property '" + std::string(end) + "'");
      }
      auto found = engine_.locator.ResolveId(it->get<std::string>());
      if (!found.ok()) {
        return InvalidArgument(std::string(end) + " '" + it->get<std::string>() + "' is not an existing object");
      }
      const WriteRole role = std::string_view(end) == cmis::kSourceId ? WriteRole::kSource : WriteRole::kTarget;
      FOLIO_RETURN_IF_ERROR(CheckWrite(check, role, engine_.builder, *found));
    }
    ObjectRecord rec;
    rec.id = engine_.staging.NewObjectId('r');
    FOLIO_ASSIGN_OR_RETURN(rec.properties,
                           InitialProperties(engine_.types, type, obj.properties, user, storage::NowMs()));
    rec.properties[cmis::kName] = obj.name;
    rec.acl = obj.acl;
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageDirIfMissing(change, engine_.layout.RelationshipsDir()));
    change.PutJson(engine_.layout.RelationshipFile(rec.id), ToJson(rec));
    storage::StageIndexEntry(change, engine_.layout, rec.id, {"relationship", "", obj.name, ""});
    change.Record(Event("created", rec.id, BaseType::kRelationship, type.id));
    FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(engine_.staging, change, type.id, rec.properties, rec.id));
    made = lookup::Loc{BaseType::kRelationship, rec.id, "", obj.name};
    return OkStatus();
  }));
  return engine_.builder.BuildRelationship(made);
}

}  // namespace folio::repo::changes
