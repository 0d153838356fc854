// Property and content updates; see updater.h.
#include "repo/changes/updater.h"

#include <algorithm>
#include <system_error>

#include "folio/cmis_ids.h"
#include "repo/changes/relocation.h"
#include "repo/changes/staging.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/lookup/record_reader.h"
#include "repo/types/properties.h"
#include "repo/types/secondary_types.h"
#include "repo/versions/version_list.h"
#include "storage/committer.h"
#include "storage/datetime.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/layout.h"
#include "storage/name_rules.h"

namespace folio::repo::changes {
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

Result<lookup::Target> Updater::WriteTarget(const std::string& id, const WriteCheck& check) {
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveIdToChange(id, [&](const lookup::Target& found) {
    return CheckWrite(check, WriteRole::kObject, engine_.builder, found);
  }));
  if (t.loc.base != BaseType::kDocument || t.pwc || t.label) return t;
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(t.loc.folder, t.loc.name));
  if (series.checked_out) t.pwc = true;
  return t;
}

Result<ObjectData> Updater::UpdateProperties(const std::string& id, const Json& changes, const std::string& user,
                                             const WriteCheck& check) {
  lookup::Target out;
  bool changed = false;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, WriteTarget(id, check));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    const lookup::Loc& loc = t.loc;
    out = t;
    std::string record_path;
    switch (loc.base) {
      case BaseType::kFolder: record_path = engine_.layout.FolderFile(loc.folder); break;
      case BaseType::kItem: record_path = engine_.layout.ItemFile(loc.folder, loc.name); break;
      case BaseType::kRelationship: record_path = engine_.layout.RelationshipFile(loc.id); break;
      case BaseType::kDocument: break;
    }
    std::optional<SeriesRecord> series;
    std::string label;
    if (loc.base == BaseType::kDocument) {
      FOLIO_ASSIGN_OR_RETURN(series, engine_.records.ReadSeries(loc.folder, loc.name));
      if (t.pwc) {
        if (!series->checked_out) return ObjectNotFound("no private working copy '" + id + "'");
        record_path = engine_.layout.PwcProps(loc.folder, loc.name);
      } else {
        label = t.label ? *t.label : versions::LatestLabel(*series);
        FOLIO_ASSIGN_OR_RETURN(bool listed, engine_.versions.Lists(loc.folder, loc.name, *series, label));
        if (!listed) return ObjectNotFound("no object with id '" + id + "'");
        record_path = engine_.layout.VersionProps(loc.folder, loc.name, label);
      }
    }
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(record_path));
    const std::string type_id = StoredTypeId(rec.properties, loc.base);
    FOLIO_ASSIGN_OR_RETURN(auto primary, engine_.types.Get(type_id));
    Json given = changes;
    FOLIO_ASSIGN_OR_RETURN(types::SecondaryChange rules,
                           types::PlanSecondaryChange(engine_.types, primary, rec.properties, given));
    FOLIO_ASSIGN_OR_RETURN(
        Json norm, types::NormalizeProperties(*rules.after, given,
                                              t.pwc ? types::PropertyMode::kUpdatePwc : types::PropertyMode::kUpdate,
                                              rec.properties));
    const Json before = rec.properties;
    const std::string new_name = ApplyChanges(rec.properties, norm);
    if (rules.listed) types::ApplySecondaryTypes(rec.properties, rules.ids, *rules.before, *rules.after);
    FOLIO_RETURN_IF_ERROR(types::CheckRequiredWithSecondaryTypes(engine_.types, *rules.after, rec.properties));
    const std::string current_name =
        loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship
            ? storage::StringOr(rec.properties, cmis::kName, loc.name)
            : loc.name;
    const bool renamed = !new_name.empty() && new_name != current_name;
    if (!renamed && rec.properties == before) return OkStatus();  // nothing changes: nothing is written
    changed = true;
    Touch(rec.properties, user, storage::NowMs());
    // Only the latest version's name is the document's file name; a working copy's
    // name takes effect when it is checked in, except in a document created checked out
    // (no version yet), which it alone names; a relationship has no file.
    const bool names_document =
        loc.base != BaseType::kDocument ||
        (t.pwc ? series->versions.empty() && series->archived.empty() : label == versions::LatestLabel(*series));
    const bool renames_file = renamed && loc.base != BaseType::kRelationship && names_document;
    if (renamed && (loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship)) {
      FOLIO_RETURN_IF_ERROR(storage::ValidateName(new_name));
      rec.properties[cmis::kName] = new_name;
    }
    if (renames_file && loc.base == BaseType::kFolder && loc.folder.empty()) {
      return Constraint("the root folder cannot be renamed");
    }
    // The rename is staged first and the record is written at its new place: applying
    // this change again after a crash (docs/STORAGE.md §8) never writes into a
    // directory that was renamed away.
    std::string final_record_path = record_path;
    if (renames_file) {
      const std::string parent_folder = loc.ParentFolder();
      FOLIO_ASSIGN_OR_RETURN(std::string parent_id, engine_.locator.FolderIdAt(parent_folder));
      FOLIO_ASSIGN_OR_RETURN(lookup::Loc renamed_to,
                             engine_.relocation.Stage(change, loc, {parent_folder, parent_id, new_name}));
      switch (loc.base) {
        case BaseType::kFolder: final_record_path = engine_.layout.FolderFile(renamed_to.folder); break;
        case BaseType::kItem: final_record_path = engine_.layout.ItemFile(renamed_to.folder, new_name); break;
        case BaseType::kDocument:
          final_record_path = t.pwc ? engine_.layout.PwcProps(renamed_to.folder, new_name)
                                    : engine_.layout.VersionProps(renamed_to.folder, new_name, label);
          break;
        case BaseType::kRelationship: break;
      }
      out.loc.folder = renamed_to.folder;
      out.loc.name = new_name;
    }
    change.PutJson(final_record_path, ToJson(rec));
    if (loc.base == BaseType::kRelationship && renamed) {
      storage::StageIndexEntry(change, engine_.layout, loc.id, {"relationship", "", new_name, ""});
    }
    const std::string event_id = loc.base != BaseType::kDocument ? loc.id
                                 : t.pwc                          ? storage::PwcId(loc.id)
                                                                  : storage::VersionId(loc.id, label);
    change.Record(Event("updated", event_id, loc.base, type_id));
    if (rules.listed) {
      FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(engine_.staging, change, type_id, rec.properties, loc.id));
    }
    return OkStatus();
  }));
  (void)changed;
  if (out.loc.base == BaseType::kDocument) {
    FOLIO_ASSIGN_OR_RETURN(lookup::Target fresh, engine_.locator.DocumentTarget(out.loc.folder, out.loc.name));
    fresh.label = out.label;
    fresh.pwc = out.pwc;
    return engine_.builder.Build(fresh);
  }
  out.loc.record.reset();
  return engine_.builder.Build(out);
}

// One object an ACL change reaches: the records that hold its ACL (a document: every
// version and its working copy, which share one ACL) and the id its "security" event
// names (a document: its latest version, or its working copy before any version).
struct Updater::AclObject {
  BaseType base = BaseType::kFolder;
  std::string id;    // object or series id (a WriteCheck's kBelow names it)
  std::string path;  // repository-relative ("" for a relationship)
  std::string event_id;
  std::vector<std::string> records;
};

Result<Updater::AclObject> Updater::DocumentAclObject(const std::string& folder, const std::string& name,
                                                      const SeriesRecord& series) {
  AclObject o;
  o.base = BaseType::kDocument;
  o.id = series.series_id;
  o.path = storage::JoinPath(folder, name);
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels, engine_.versions.AllLabels(folder, name, series));
  for (const std::string& label : labels) o.records.push_back(engine_.layout.VersionProps(folder, name, label));
  if (series.checked_out) o.records.push_back(engine_.layout.PwcProps(folder, name));
  o.event_id = labels.empty() ? storage::PwcId(series.series_id)
                              : storage::VersionId(series.series_id, versions::LatestLabel(series));
  return o;
}

Status Updater::CollectAclObjects(const std::string& folder, std::vector<AclObject>& out) {
  // Documents, then items, then each subfolder and what it holds. A folder without
  // documents or items has no directory for them. A record that cannot be read fails
  // the change: a restriction that skipped an object would leave it open.
  Fs& fs = engine_.staging.fs();
  const auto listed = [&](const std::string& dir) -> Result<std::vector<DirEntry>> {
    auto entries = fs.List(dir);
    if (!entries.ok() && entries.status().Is(std::errc::no_such_file_or_directory)) return std::vector<DirEntry>{};
    return entries;
  };
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> docs, listed(engine_.layout.DocsDir(folder)));
  for (const DirEntry& e : docs) {
    if (e.type != FileType::kDirectory) continue;
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(folder, e.name));
    if (series.series_id.empty()) continue;
    FOLIO_ASSIGN_OR_RETURN(AclObject o, DocumentAclObject(folder, e.name, series));
    out.push_back(std::move(o));
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> items, listed(engine_.layout.ItemsDir(folder)));
  for (const DirEntry& e : items) {
    if (e.type != FileType::kDirectory) continue;
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(engine_.layout.ItemFile(folder, e.name)));
    out.push_back(AclObject{BaseType::kItem, rec.id, storage::JoinPath(folder, e.name), rec.id,
                            {engine_.layout.ItemFile(folder, e.name)}});
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, fs.List(engine_.layout.Dir(folder)));
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  for (const DirEntry& e : entries) {
    if (e.type != FileType::kDirectory || storage::IsReservedName(e.name)) continue;
    const std::string sub = storage::JoinPath(folder, e.name);
    auto rec = engine_.records.ReadRecord(engine_.layout.FolderFile(sub));
    if (!rec.ok() && !rec.status().Is(std::errc::no_such_file_or_directory)) return rec.status();
    if (rec.ok() && !rec->id.empty()) {
      out.push_back(AclObject{BaseType::kFolder, rec->id, sub, rec->id, {engine_.layout.FolderFile(sub)}});
    }
    FOLIO_RETURN_IF_ERROR(CollectAclObjects(sub, out));
  }
  return OkStatus();
}

Result<bool> Updater::StageAcl(storage::ChangeSet& change, const AclObject& object, const AclChange& acl_change,
                               const WriteCheck* below) {
  bool changed = false;
  std::string type_id;
  std::optional<std::vector<Ace>> acl;  // the new ACL, from the first record's (a series shares one)
  for (const std::string& path : object.records) {
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(path));
    if (!acl) {
      type_id = StoredTypeId(rec.properties, object.base);
      if (below != nullptr && !below->trusted()) {
        FOLIO_RETURN_IF_ERROR((*below)(WriteRole::kBelow, CheckedObject(object.base, object.id, type_id, object.path,
                                                                        rec.acl)));
      }
      acl = acl_change(rec.acl);
    }
    if (SameAcl(rec.acl, *acl)) continue;
    rec.acl = *acl;
    change.PutJson(path, ToJson(rec));
    changed = true;
  }
  if (changed) change.Record(Event("security", object.event_id, object.base, type_id));
  return changed;
}

Result<ObjectData> Updater::ChangeAcl(const std::string& id, const AclChange& acl_change, const WriteCheck& check,
                                      bool below) {
  lookup::Target out;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    auto allowed = [&](const lookup::Target& found) {
      return CheckWrite(check, WriteRole::kObject, engine_.builder, found);
    };
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveIdToChange(id, allowed));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    out = t;
    const lookup::Loc& loc = t.loc;
    AclObject top{loc.base, loc.id, loc.folder, loc.id, {}};
    switch (loc.base) {
      case BaseType::kFolder: top.records.push_back(engine_.layout.FolderFile(loc.folder)); break;
      case BaseType::kItem: top.records.push_back(engine_.layout.ItemFile(loc.folder, loc.name)); break;
      case BaseType::kRelationship: top.records.push_back(engine_.layout.RelationshipFile(loc.id)); break;
      case BaseType::kDocument: {
        FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(loc.folder, loc.name));
        if (t.pwc && !series.checked_out) return ObjectNotFound("no private working copy '" + id + "'");
        FOLIO_ASSIGN_OR_RETURN(top, DocumentAclObject(loc.folder, loc.name, series));
        top.event_id = t.pwc ? storage::PwcId(loc.id)
                             : storage::VersionId(loc.id, t.label ? *t.label : versions::LatestLabel(series));
        break;
      }
    }
    FOLIO_ASSIGN_OR_RETURN(bool changed, StageAcl(change, top, acl_change, nullptr));
    (void)changed;
    if (!below || loc.base != BaseType::kFolder) return OkStatus();
    // Everything below, in the same change: all of it or none (docs/API.md §11.3).
    std::vector<AclObject> objects;
    FOLIO_RETURN_IF_ERROR(CollectAclObjects(loc.folder, objects));
    for (const AclObject& o : objects) FOLIO_RETURN_IF_ERROR(StageAcl(change, o, acl_change, &check).status());
    return OkStatus();
  }));
  out.loc.record.reset();
  return engine_.builder.Build(out);
}

Result<size_t> Updater::ChangeEveryAcl(const AclChange& acl_change) {
  size_t count = 0;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    count = 0;
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord root, engine_.records.ReadRecord(engine_.layout.FolderFile("")));
    std::vector<AclObject> objects{AclObject{BaseType::kFolder, root.id, "", root.id, {engine_.layout.FolderFile("")}}};
    FOLIO_RETURN_IF_ERROR(CollectAclObjects("", objects));
    auto rels = engine_.staging.fs().List(engine_.layout.RelationshipsDir());
    if (!rels.ok() && !rels.status().Is(std::errc::no_such_file_or_directory)) return rels.status();
    if (rels.ok()) {
      std::sort(rels->begin(), rels->end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
      for (const DirEntry& e : *rels) {
        if (e.type != FileType::kFile) continue;
        const std::optional<std::string> rid = storage::IdOfRecordFileName(e.name);
        if (!rid) continue;
        objects.push_back(AclObject{BaseType::kRelationship, *rid, "", *rid, {engine_.layout.RelationshipFile(*rid)}});
      }
    }
    for (const AclObject& o : objects) {
      FOLIO_ASSIGN_OR_RETURN(bool changed, StageAcl(change, o, acl_change, nullptr));
      if (changed) ++count;
    }
    return OkStatus();
  }));
  return count;
}

Result<ObjectData> Updater::SetContent(const std::string& id, const std::optional<ContentSource>& content,
                                       bool overwrite, const std::string& user, const WriteCheck& check) {
  lookup::Target out;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, WriteTarget(id, check));
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    out = t;
    const lookup::Loc& loc = t.loc;
    if (loc.base != BaseType::kDocument) return Constraint("object '" + id + "' is not a document and has no content");
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(loc.folder, loc.name));
    if (t.pwc && !series.checked_out) return ObjectNotFound("no private working copy '" + id + "'");
    const std::string label = t.pwc ? "pwc" : (t.label ? *t.label : versions::LatestLabel(series));
    if (!t.pwc) {
      FOLIO_ASSIGN_OR_RETURN(bool listed, engine_.versions.Lists(loc.folder, loc.name, series, label));
      if (!listed) return ObjectNotFound("no object with id '" + id + "'");
    }
    const std::string props_path = t.pwc ? engine_.layout.PwcProps(loc.folder, loc.name)
                                         : engine_.layout.VersionProps(loc.folder, loc.name, label);
    const std::string content_path = t.pwc ? engine_.layout.PwcContent(loc.folder, loc.name)
                                           : engine_.layout.VersionContent(loc.folder, loc.name, label);
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(props_path));
    FOLIO_ASSIGN_OR_RETURN(auto type, engine_.types.Get(StoredTypeId(rec.properties, BaseType::kDocument)));
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
      FOLIO_ASSIGN_OR_RETURN(ContentInfo info, engine_.staging.StageContent(change, content_path, *content, loc.name));
      rec.content = info;
    } else {
      FOLIO_RETURN_IF_ERROR(engine_.staging.StageRemoveFile(change, content_path));
      rec.content.reset();
    }
    Touch(rec.properties, user, storage::NowMs());
    change.PutJson(props_path, ToJson(rec));
    if (!t.pwc && label == versions::LatestLabel(series)) {
      engine_.staging.StageVisibleAndSeries(change, loc, content ? content_path : "", storage::Guard::None(), series);
    }
    change.Record(Event("updated", t.pwc ? storage::PwcId(loc.id) : storage::VersionId(loc.id, label),
                        BaseType::kDocument, type->id));
    out.label = t.pwc ? std::nullopt : std::optional<std::string>(label);
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(lookup::Target fresh, engine_.locator.DocumentTarget(out.loc.folder, out.loc.name));
  fresh.label = out.label;
  fresh.pwc = out.pwc;
  return engine_.builder.Build(fresh);
}

}  // namespace folio::repo::changes
