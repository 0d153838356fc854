// Property and content updates; see updater.h.
#include "repo/updater.h"

#include <algorithm>

#include "folio/cmis_ids.h"
#include "repo/folder_markers.h"
#include "repo/listings.h"
#include "repo/locator.h"
#include "repo/object_builder.h"
#include "repo/properties.h"
#include "repo/record_reader.h"
#include "repo/staging.h"
#include "repo/version_list.h"
#include "repo/write_check.h"
#include "storage/datetime.h"
#include "storage/committer.h"
#include "storage/id_index.h"
#include "storage/json_access.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

// Applies normalized changes to stored properties (null unsets). Returns the new name
// when cmis:name was among them, "" otherwise.
std::string ApplyChanges(Json& stored, Json changes) {
  std::string name;
  if (auto it = changes.find(cmis::kName); it != changes.end()) {
    if (it->is_string()) name = it->get<std::string>();
    changes.erase(cmis::kName);
  }
  changes.erase(cmis::kObjectTypeId);
  for (auto& [k, v] : changes.items()) {
    if (v.is_null()) {
      stored.erase(k);
    } else {
      stored[k] = v;
    }
  }
  return name;
}

}  // namespace

Result<Target> Updater::WriteTarget(const std::string& id, const WriteCheck& check) {
  FOLIO_ASSIGN_OR_RETURN(Target t, locator_.ResolveIdToChange(id, [&](const Target& found) {
                           return CheckWrite(check, WriteRole::kObject, builder_, found);
                         }));
  if (t.loc.base != BaseType::kDocument || t.pwc || t.label) return t;
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(t.loc.folder, t.loc.name));
  if (series.checked_out) t.pwc = true;
  return t;
}

Result<ObjectData> Updater::UpdateProperties(const std::string& id, const Json& changes, const std::string& user,
                                             const WriteCheck& check) {
  Target out;
  bool changed = false;
  FOLIO_RETURN_IF_ERROR(committer_.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(Target t, WriteTarget(id, check));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    const Loc& loc = t.loc;
    out = t;
    std::string record_path;
    switch (loc.base) {
      case BaseType::kFolder: record_path = layout_.FolderFile(loc.folder); break;
      case BaseType::kItem: record_path = layout_.ItemFile(loc.folder, loc.name); break;
      case BaseType::kRelationship: record_path = layout_.RelationshipFile(loc.id); break;
      case BaseType::kDocument: break;
    }
    std::optional<SeriesRecord> series;
    std::string label;
    if (loc.base == BaseType::kDocument) {
      FOLIO_ASSIGN_OR_RETURN(series, records_.ReadSeries(loc.folder, loc.name));
      if (t.pwc) {
        if (!series->checked_out) return ObjectNotFound("no private working copy '" + id + "'");
        record_path = layout_.PwcProps(loc.folder, loc.name);
      } else {
        label = t.label ? *t.label : LatestLabel(*series);
        FOLIO_ASSIGN_OR_RETURN(bool listed, versions_.Lists(loc.folder, loc.name, *series, label));
        if (!listed) return ObjectNotFound("no object with id '" + id + "'");
        record_path = layout_.VersionProps(loc.folder, loc.name, label);
      }
    }
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, records_.ReadRecord(record_path));
    const std::string type_id = StoredTypeId(rec.properties, loc.base);
    FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(type_id));
    FOLIO_ASSIGN_OR_RETURN(Json norm, NormalizeProperties(*type, changes,
                                                          t.pwc ? PropertyMode::kUpdatePwc : PropertyMode::kUpdate,
                                                          rec.properties));
    const Json before = rec.properties;
    const std::string new_name = ApplyChanges(rec.properties, norm);
    FOLIO_RETURN_IF_ERROR(CheckRequired(*type, rec.properties));
    const std::string current_name =
        loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship
            ? storage::StringOr(rec.properties, cmis::kName, loc.name)
            : loc.name;
    const bool renamed = !new_name.empty() && new_name != current_name;
    if (!renamed && rec.properties == before) return OkStatus();  // nothing changes: nothing is written
    changed = true;
    Touch(rec.properties, user, storage::NowMs());
    // Only the latest version's name is the document's file name; a working copy's
    // name takes effect when it is checked in; a relationship has no file.
    const bool renames_file = renamed && loc.base != BaseType::kRelationship &&
                              !(loc.base == BaseType::kDocument && (t.pwc || label != LatestLabel(*series)));
    if (renamed && (loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship)) {
      FOLIO_RETURN_IF_ERROR(storage::ValidateName(new_name));
      rec.properties[cmis::kName] = new_name;
    }
    if (renames_file && loc.base == BaseType::kFolder && loc.folder.empty()) {
      return Constraint("the root folder cannot be renamed");
    }
    const std::string parent_folder = loc.ParentFolder();
    if (renames_file) FOLIO_RETURN_IF_ERROR(listings_.CheckNameFree(parent_folder, new_name));
    if (renames_file && loc.base == BaseType::kFolder) {
      FOLIO_RETURN_IF_ERROR(listings_.CheckTreeFits(loc.folder, parent_folder, new_name));
    }
    // Renames come first and the record is written at its new place: applying this
    // change again after a crash (docs/STORAGE.md §8) never writes into a directory that
    // was renamed away.
    std::string final_record_path = record_path;
    if (renames_file) {
      const std::string new_path = storage::JoinPath(parent_folder, new_name);
      FOLIO_ASSIGN_OR_RETURN(std::string parent_id, locator_.FolderIdAt(parent_folder));
      if (loc.base == BaseType::kFolder) {
        FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, staging_.fs(), layout_, loc.folder));
        change.Rename(layout_.Dir(loc.folder), layout_.Dir(new_path),
                      storage::Guard::RecordId(storage::FolderFileInDir(), "id", loc.id));
        storage::StageIndexEntry(change, layout_, loc.id, {"folder", parent_id, new_name, new_path});
        FOLIO_RETURN_IF_ERROR(StageFolderMarker(change, staging_, new_path, loc.id));
        final_record_path = layout_.FolderFile(new_path);
        out.loc.folder = new_path;
      } else if (loc.base == BaseType::kItem) {
        change.Rename(layout_.ItemDir(loc.folder, loc.name), layout_.ItemDir(loc.folder, new_name),
                      storage::Guard::RecordId(std::string(storage::kItemFileName), "id", loc.id));
        storage::StageIndexEntry(change, layout_, loc.id, {"item", parent_id, new_name, new_path});
        final_record_path = layout_.ItemFile(loc.folder, new_name);
      } else {
        FOLIO_ASSIGN_OR_RETURN(FileStat visible, staging_.fs().Stat(layout_.Child(loc.folder, loc.name)));
        change.Rename(layout_.Child(loc.folder, loc.name), layout_.Child(loc.folder, new_name),
                      storage::Guard::Inode(visible));
        change.Rename(layout_.SeriesDir(loc.folder, loc.name), layout_.SeriesDir(loc.folder, new_name),
                      storage::Guard::RecordId(std::string(storage::kSeriesFileName), "seriesId", loc.id));
        storage::StageIndexEntry(change, layout_, loc.id, {"document", parent_id, new_name, new_path});
        final_record_path = layout_.VersionProps(loc.folder, new_name, label);
      }
      out.loc.name = new_name;
    }
    change.PutJson(final_record_path, ToJson(rec));
    if (loc.base == BaseType::kRelationship && renamed) {
      storage::StageIndexEntry(change, layout_, loc.id, {"relationship", "", new_name, ""});
    }
    const std::string event_id = loc.base != BaseType::kDocument ? loc.id
                                 : t.pwc                          ? storage::PwcId(loc.id)
                                                                  : storage::VersionId(loc.id, label);
    change.Record(Event("updated", event_id, loc.base, type_id));
    return OkStatus();
  }));
  (void)changed;
  if (out.loc.base == BaseType::kDocument) {
    FOLIO_ASSIGN_OR_RETURN(Target fresh, locator_.DocumentTarget(out.loc.folder, out.loc.name));
    fresh.label = out.label;
    fresh.pwc = out.pwc;
    return builder_.Build(fresh);
  }
  out.loc.record.reset();
  return builder_.Build(out);
}

Result<ObjectData> Updater::ChangeAcl(const std::string& id, const AclChange& acl_change, const WriteCheck& check) {
  Target out;
  FOLIO_RETURN_IF_ERROR(committer_.Run([&](storage::ChangeSet& change) -> Status {
    auto allowed = [&](const Target& found) { return CheckWrite(check, WriteRole::kObject, builder_, found); };
    FOLIO_ASSIGN_OR_RETURN(Target t, locator_.ResolveIdToChange(id, allowed));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    out = t;
    const Loc& loc = t.loc;
    std::vector<std::string> records;
    std::string type_id;
    std::string event_id = loc.id;
    switch (loc.base) {
      case BaseType::kFolder: records.push_back(layout_.FolderFile(loc.folder)); break;
      case BaseType::kItem: records.push_back(layout_.ItemFile(loc.folder, loc.name)); break;
      case BaseType::kRelationship: records.push_back(layout_.RelationshipFile(loc.id)); break;
      case BaseType::kDocument: {
        FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(loc.folder, loc.name));
        if (t.pwc && !series.checked_out) return ObjectNotFound("no private working copy '" + id + "'");
        FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels, versions_.AllLabels(loc.folder, loc.name, series));
        for (const std::string& label : labels) records.push_back(layout_.VersionProps(loc.folder, loc.name, label));
        if (series.checked_out) records.push_back(layout_.PwcProps(loc.folder, loc.name));
        event_id = t.pwc ? storage::PwcId(loc.id)
                         : storage::VersionId(loc.id, t.label ? *t.label : LatestLabel(series));
        break;
      }
    }
    bool changed = false;
    std::optional<std::vector<Ace>> acl;  // the new ACL, from the first record's (a series shares one)
    for (const std::string& path : records) {
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, records_.ReadRecord(path));
      if (type_id.empty()) type_id = StoredTypeId(rec.properties, loc.base);
      if (!acl) acl = acl_change(rec.acl);
      if (SameAcl(rec.acl, *acl)) continue;
      rec.acl = *acl;
      change.PutJson(path, ToJson(rec));
      changed = true;
    }
    if (!changed) return OkStatus();
    change.Record(Event("security", event_id, loc.base, type_id));
    return OkStatus();
  }));
  out.loc.record.reset();
  return builder_.Build(out);
}

Result<ObjectData> Updater::SetContent(const std::string& id, const std::optional<ContentSource>& content,
                                       bool overwrite, const std::string& user, const WriteCheck& check) {
  Target out;
  FOLIO_RETURN_IF_ERROR(committer_.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(Target t, WriteTarget(id, check));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    out = t;
    const Loc& loc = t.loc;
    if (loc.base != BaseType::kDocument) return Constraint("object '" + id + "' is not a document and has no content");
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(loc.folder, loc.name));
    if (t.pwc && !series.checked_out) return ObjectNotFound("no private working copy '" + id + "'");
    const std::string label = t.pwc ? "pwc" : (t.label ? *t.label : LatestLabel(series));
    if (!t.pwc) {
      FOLIO_ASSIGN_OR_RETURN(bool listed, versions_.Lists(loc.folder, loc.name, series, label));
      if (!listed) return ObjectNotFound("no object with id '" + id + "'");
    }
    const std::string props_path =
        t.pwc ? layout_.PwcProps(loc.folder, loc.name) : layout_.VersionProps(loc.folder, loc.name, label);
    const std::string content_path =
        t.pwc ? layout_.PwcContent(loc.folder, loc.name) : layout_.VersionContent(loc.folder, loc.name, label);
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, records_.ReadRecord(props_path));
    FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(StoredTypeId(rec.properties, BaseType::kDocument)));
    if (content && type->content_stream_allowed == "notallowed") {
      return StreamNotSupported("type '" + type->id + "' does not allow content");
    }
    if (!content && type->content_stream_allowed == "required") {
      return Constraint("type '" + type->id + "' requires content; it cannot be deleted");
    }
    if (content && rec.content && !overwrite) {
      return ContentAlreadyExists("document '" + loc.name + "' has content and overwriteFlag is false");
    }
    if (!content && !rec.content) return OkStatus();  // nothing to delete: nothing changes
    if (content) {
      FOLIO_ASSIGN_OR_RETURN(ContentInfo info, staging_.StageContent(change, content_path, *content, loc.name));
      rec.content = info;
    } else {
      FOLIO_RETURN_IF_ERROR(staging_.StageRemoveFile(change, content_path));
      rec.content.reset();
    }
    Touch(rec.properties, user, storage::NowMs());
    change.PutJson(props_path, ToJson(rec));
    if (!t.pwc && label == LatestLabel(series)) {
      staging_.StageVisibleAndSeries(change, loc, content ? content_path : "", storage::Guard::None(), series);
    }
    change.Record(Event("updated", t.pwc ? storage::PwcId(loc.id) : storage::VersionId(loc.id, label),
                        BaseType::kDocument, type->id));
    out.label = t.pwc ? std::nullopt : std::optional<std::string>(label);
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(Target fresh, locator_.DocumentTarget(out.loc.folder, out.loc.name));
  fresh.label = out.label;
  fresh.pwc = out.pwc;
  return builder_.Build(fresh);
}

}  // namespace folio::repo
