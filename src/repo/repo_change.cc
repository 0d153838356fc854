// Changing objects: properties (and renames), content, deletion, moves. None of these
// creates a version (seed §3, rule 5).
#include "repo/repo_impl.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

// Applies normalized changes to stored properties (null unsets). Returns the new name
// if cmis:name was among them, "" otherwise.
std::string Apply(Json& stored, Json changes) {
  std::string name;
  if (changes.contains("cmis:name")) {
    if (changes["cmis:name"].is_string()) name = changes["cmis:name"];
    changes.erase("cmis:name");
  }
  changes.erase("cmis:objectTypeId");
  for (auto& [k, v] : changes.items()) {
    if (v.is_null()) {
      stored.erase(k);
    } else {
      stored[k] = v;
    }
  }
  return name;
}

// True when applying `changes` (normalized) to `stored` would leave every value, and
// the name `current_name`, as they are.
bool ChangesNothing(const Json& stored, const Json& changes, const std::string& current_name) {
  for (const auto& [k, v] : changes.items()) {
    if (k == "cmis:objectTypeId") continue;  // never applied (Apply)
    if (k == "cmis:name") {
      if (v.is_string() && v.get_ref<const std::string&>() != current_name) return false;
      continue;
    }
    const auto it = stored.find(k);
    if (v.is_null() ? it != stored.end() : (it == stored.end() || *it != v)) return false;
  }
  return true;
}

}  // namespace

Result<ObjectData> RepoImpl::UpdateProperties(const std::string& id, const Json& changes, const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  const int64_t now = storage::NowMs();
  const Loc& loc = t.loc;
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
    FOLIO_ASSIGN_OR_RETURN(series, ReadSeries(loc.folder, loc.name));
    if (t.pwc) {
      if (!series->checked_out) return ObjectNotFound("no private working copy '" + id + "'");
      record_path = layout_.PwcProps(loc.folder, loc.name);
    } else {
      label = t.label ? *t.label : LatestLabel(*series);
      if (std::find(series->versions.begin(), series->versions.end(), label) == series->versions.end()) {
        return ObjectNotFound("no object with id '" + id + "'");
      }
      record_path = layout_.VersionProps(loc.folder, loc.name, label);
    }
  }
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ReadRecord(record_path));
  const std::string type_id = rec.properties.value("cmis:objectTypeId", std::string(BaseTypeId(loc.base)));
  FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(type_id));
  FOLIO_ASSIGN_OR_RETURN(Json norm, NormalizeProperties(*type, changes, t.pwc ? PropertyMode::kUpdatePwc
                                                                              : PropertyMode::kUpdate,
                                                        rec.properties));
  // An update that changes nothing writes nothing: no new modification date or token.
  // (Folders and items are named by their directory; documents and relationships keep
  // their name in the record.)
  const bool named_in_record = loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship;
  const std::string current_name = named_in_record ? rec.properties.value("cmis:name", loc.name) : loc.name;
  if (ChangesNothing(rec.properties, norm, current_name)) return Build(t);
  std::string new_name = Apply(rec.properties, norm);
  FOLIO_RETURN_IF_ERROR(CheckRequired(*type, rec.properties));
  Touch(rec.properties, user, now);

  // Only the latest version's name is the document's file name; a working copy's
  // name takes effect when it is checked in; a relationship has no file.
  const bool renames_file = !new_name.empty() && new_name != loc.name && loc.base != BaseType::kRelationship &&
                            !(loc.base == BaseType::kDocument && (t.pwc || label != LatestLabel(*series)));
  if (!new_name.empty() && (loc.base == BaseType::kDocument || loc.base == BaseType::kRelationship)) {
    FOLIO_RETURN_IF_ERROR(storage::ValidateName(new_name));
    rec.properties["cmis:name"] = new_name;
  }
  if (renames_file && loc.base == BaseType::kFolder && loc.folder.empty()) {
    return Constraint("the root folder cannot be renamed");
  }
  const std::string parent_folder = loc.FolderPathOfParent();
  if (renames_file) FOLIO_RETURN_IF_ERROR(CheckNameFree(parent_folder, new_name));

  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(record_path, ToJson(rec)).status());
  if (loc.base == BaseType::kRelationship && !new_name.empty() && new_name != loc.name) {
    FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"relationship", "", new_name, ""}));
  }
  Loc moved = loc;
  if (renames_file) {
    moved.name = new_name;
    std::string new_path = storage::JoinPath(parent_folder, new_name);
    std::string parent_id;
    FOLIO_ASSIGN_OR_RETURN(parent_id, FolderIdAt(parent_folder));
    if (loc.base == BaseType::kFolder) {
      moved.folder = new_path;
      tx.Rename(layout_.Dir(loc.folder), layout_.Dir(new_path));
      FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"folder", parent_id, new_name, new_path}));
    } else if (loc.base == BaseType::kItem) {
      tx.Rename(layout_.ItemDir(loc.folder, loc.name), layout_.ItemDir(loc.folder, new_name));
      FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"item", parent_id, new_name, new_path}));
    } else {
      tx.Rename(layout_.Child(loc.folder, loc.name), layout_.Child(loc.folder, new_name));
      tx.Rename(layout_.SeriesDir(loc.folder, loc.name), layout_.SeriesDir(loc.folder, new_name));
      FOLIO_RETURN_IF_ERROR(
          storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"document", parent_id, new_name, new_path}));
    }
  }
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  Target out = t;
  out.loc = moved;
  return Build(out);
}

Result<ObjectData> RepoImpl::SetContent(const std::string& id, const std::optional<ContentSource>& content,
                                        bool overwrite, const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  const Loc& loc = t.loc;
  if (loc.base != BaseType::kDocument) return Constraint("object '" + id + "' is not a document and has no content");
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, ReadSeries(loc.folder, loc.name));
  std::string label = t.pwc ? "pwc" : (t.label ? *t.label : LatestLabel(series));
  if (t.pwc && !series.checked_out) return ObjectNotFound("no private working copy '" + id + "'");
  const std::string props_path =
      t.pwc ? layout_.PwcProps(loc.folder, loc.name) : layout_.VersionProps(loc.folder, loc.name, label);
  const std::string content_path =
      t.pwc ? layout_.PwcContent(loc.folder, loc.name) : layout_.VersionContent(loc.folder, loc.name, label);
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ReadRecord(props_path));
  FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(rec.properties.value("cmis:objectTypeId", "cmis:document")));
  if (content && type->content_stream_allowed == "notallowed") {
    return StreamNotSupported("type '" + type->id + "' does not allow content");
  }
  if (!content && type->content_stream_allowed == "required") {
    return Constraint("type '" + type->id + "' requires content; it cannot be deleted");
  }
  if (content && rec.content && !overwrite) {
    return ContentAlreadyExists("document '" + loc.name + "' has content and overwriteFlag is false");
  }
  storage::Transaction tx(fs_, layout_.JournalDir());
  std::string staged;
  if (content) {
    FOLIO_ASSIGN_OR_RETURN(staged, StageContent(tx, content_path, *content));
    FOLIO_ASSIGN_OR_RETURN(rec.content, DescribeContent(content, staged, loc.name));
  } else {
    tx.Remove(content_path);
    rec.content.reset();
  }
  Touch(rec.properties, user, storage::NowMs());
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(props_path, ToJson(rec)).status());
  if (!t.pwc && label == LatestLabel(series)) {
    FOLIO_RETURN_IF_ERROR(StageVisible(tx, layout_.Child(loc.folder, loc.name), staged, series));
    FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(loc.folder, loc.name), ToJson(series)).status());
  }
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildDocument(loc, series, t.pwc ? std::nullopt : std::optional<std::string>(label), t.pwc);
}

Status RepoImpl::Delete(const std::string& id, bool all_versions) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  const Loc& loc = t.loc;
  storage::Transaction tx(fs_, layout_.JournalDir());
  switch (loc.base) {
    case BaseType::kFolder: {
      if (loc.folder.empty()) return Constraint("the root folder cannot be deleted");
      FOLIO_ASSIGN_OR_RETURN(auto listing, List(loc.folder));
      if (!listing->children.empty()) {
        return Constraint("folder '/" + loc.folder + "' is not empty (" + std::to_string(listing->children.size()) +
                          " children); use deleteTree");
      }
      FOLIO_RETURN_IF_ERROR(StageDiscard(tx, layout_.Dir(loc.folder)));
      storage::StageIndexRemoval(tx, layout_, loc.id);
      break;
    }
    case BaseType::kItem: {
      FOLIO_RETURN_IF_ERROR(StageDiscard(tx, layout_.ItemDir(loc.folder, loc.name)));
      storage::StageIndexRemoval(tx, layout_, loc.id);
      break;
    }
    case BaseType::kRelationship:
      tx.Remove(layout_.RelationshipFile(loc.id));
      storage::StageIndexRemoval(tx, layout_, loc.id);
      break;
    case BaseType::kDocument: {
      if (t.pwc) return CancelCheckOut(id);  // deleting a working copy cancels the check-out
      FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, ReadSeries(loc.folder, loc.name));
      const bool whole = all_versions || !t.label || series.versions.size() <= 1;
      if (whole) {
        FOLIO_RETURN_IF_ERROR(StageSeriesRemoval(tx, loc));
        break;
      }
      const std::string label = *t.label;
      auto it = std::find(series.versions.begin(), series.versions.end(), label);
      if (it == series.versions.end()) return ObjectNotFound("no object with id '" + id + "'");
      if (series.checked_out && series.checked_out->from == label) {
        return Versioning("version " + label + " of '" + loc.name + "' is the base of the working copy held by " +
                          series.checked_out->by + "; check it in or cancel it first");
      }
      const bool was_latest = label == LatestLabel(series);
      series.versions.erase(it);
      tx.Remove(layout_.VersionProps(loc.folder, loc.name, label));
      tx.Remove(layout_.VersionContent(loc.folder, loc.name, label));
      if (was_latest) {
        const std::string now_latest = LatestLabel(series);
        FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ReadRecord(layout_.VersionProps(loc.folder, loc.name, now_latest)));
        FOLIO_RETURN_IF_ERROR(StageVisible(tx, layout_.Child(loc.folder, loc.name),
                                           rec.content ? layout_.VersionContent(loc.folder, loc.name, now_latest) : "",
                                           series));
      }
      FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(loc.folder, loc.name), ToJson(series)).status());
      break;
    }
  }
  return tx.Commit();
}

// Every indexed id at or below `folder` (and the checked-out series among them).
static Status CollectIds(RepoImpl& r, const std::string& folder, std::vector<std::string>& ids,
                         std::vector<std::string>& checked_out) {
  auto folder_rec = r.cache_.Read(r.fs_, r.layout_.FolderFile(folder));
  if (folder_rec.ok()) ids.push_back((*folder_rec)->value("id", ""));
  auto docs = r.fs_.List(r.layout_.DocsDir(folder));
  if (docs.ok()) {
    for (const DirEntry& e : *docs) {
      auto s = r.cache_.Read(r.fs_, r.layout_.SeriesFile(folder, e.name));
      if (!s.ok()) continue;
      ids.push_back((*s)->value("seriesId", ""));
      if ((*s)->contains("checkedOut") && !(**s)["checkedOut"].is_null()) checked_out.push_back(ids.back());
    }
  }
  auto items = r.fs_.List(r.layout_.ItemsDir(folder));
  if (items.ok()) {
    for (const DirEntry& e : *items) {
      auto s = r.cache_.Read(r.fs_, r.layout_.ItemFile(folder, e.name));
      if (s.ok()) ids.push_back((*s)->value("id", ""));
    }
  }
  FOLIO_ASSIGN_OR_RETURN(auto entries, r.fs_.List(r.layout_.Dir(folder)));
  for (const DirEntry& e : entries) {
    if (e.type == FileType::kDirectory && !storage::IsReservedName(e.name)) {
      FOLIO_RETURN_IF_ERROR(CollectIds(r, storage::JoinPath(folder, e.name), ids, checked_out));
    }
  }
  return OkStatus();
}

Result<std::vector<std::string>> RepoImpl::DeleteTree(const std::string& folder_id) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Loc loc, LocateFolder(folder_id));
  if (loc.folder.empty()) return Constraint("the root folder cannot be deleted");
  std::vector<std::string> ids, checked_out;
  FOLIO_RETURN_IF_ERROR(CollectIds(*this, loc.folder, ids, checked_out));
  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(StageDiscard(tx, layout_.Dir(loc.folder)));  // the whole tree disappears at once
  for (const std::string& gone : ids) {
    if (!gone.empty()) storage::StageIndexRemoval(tx, layout_, gone);
  }
  for (const std::string& s : checked_out) FOLIO_RETURN_IF_ERROR(StageCheckedOutMarker(tx, s, false));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return std::vector<std::string>{};
}

Result<ObjectData> RepoImpl::Move(const std::string& id, const std::string& target_folder_id,
                                  const std::string& source_folder_id, const std::string& user) {
  (void)user;
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  const Loc& loc = t.loc;
  if (loc.base == BaseType::kRelationship) return Constraint("relationships are not filed in folders");
  FOLIO_ASSIGN_OR_RETURN(Loc target, LocateFolder(target_folder_id));
  const std::string from_folder = loc.FolderPathOfParent();
  if (loc.base == BaseType::kFolder && loc.folder.empty()) return Constraint("the root folder cannot be moved");
  FOLIO_ASSIGN_OR_RETURN(std::string current_parent_id, FolderIdAt(from_folder));
  if (!source_folder_id.empty() && source_folder_id != current_parent_id) {
    return InvalidArgument("object '" + id + "' is not in folder '" + source_folder_id + "' (sourceFolderId)");
  }
  if (loc.base == BaseType::kFolder &&
      (target.folder == loc.folder || target.folder.rfind(loc.folder + "/", 0) == 0)) {
    return Constraint("folder '/" + loc.folder + "' cannot be moved into itself or below itself");
  }
  if (target.folder == from_folder) return Build(t);
  FOLIO_RETURN_IF_ERROR(CheckNameFree(target.folder, loc.name));
  const std::string new_path = storage::JoinPath(target.folder, loc.name);
  storage::Transaction tx(fs_, layout_.JournalDir());
  Target out = t;
  if (loc.base == BaseType::kFolder) {
    tx.Rename(layout_.Dir(loc.folder), layout_.Dir(new_path));
    FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"folder", target.id, loc.name, new_path}));
    out.loc.folder = new_path;
  } else if (loc.base == BaseType::kItem) {
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(target.folder)));
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.ItemsDir(target.folder)));
    tx.Rename(layout_.ItemDir(loc.folder, loc.name), layout_.ItemDir(target.folder, loc.name));
    FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"item", target.id, loc.name, new_path}));
    out.loc.folder = target.folder;
  } else {
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(target.folder)));
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.DocsDir(target.folder)));
    tx.Rename(layout_.Child(loc.folder, loc.name), layout_.Child(target.folder, loc.name));
    tx.Rename(layout_.SeriesDir(loc.folder, loc.name), layout_.SeriesDir(target.folder, loc.name));
    FOLIO_RETURN_IF_ERROR(
        storage::StageIndexEntry(fs_, tx, layout_, loc.id, {"document", target.id, loc.name, new_path}));
    out.loc.folder = target.folder;
  }
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return Build(out);
}

}  // namespace folio::repo
