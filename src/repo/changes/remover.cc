// Deletion; see remover.h.
#include "repo/changes/remover.h"

#include <algorithm>
#include <set>

#include "folio/cmis_ids.h"
#include "repo/changes/relocation.h"
#include "repo/changes/staging.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/lookup/record_reader.h"
#include "repo/versions/version_list.h"
#include "repo/versions/versioning.h"
#include "storage/committer.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo::changes {

// Every object at or below a folder: their ids (index entries to remove) and events.
struct Remover::Collected {
  std::vector<std::string> ids;
  std::vector<storage::ChangeEvent> events;
  std::vector<std::string> checked_out;
  std::vector<std::string> adopted_folders;  // folders whose adoption tables go too
};

Status Remover::Delete(const std::string& id, bool all_versions, const WriteCheck& check) {
  bool cancel = false;
  Status s = engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    auto allowed = [&](const lookup::Target& found) {
      return CheckWrite(check, WriteRole::kObject, engine_.builder, found);
    };
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveIdToChange(id, allowed));
    const lookup::Loc& loc = t.loc;
    if (t.pwc) {
      cancel = true;  // deleting a working copy cancels the check-out (which checks)
      return OkStatus();
    }
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    switch (loc.base) {
      case BaseType::kFolder: {
        if (loc.folder.empty()) return Constraint("the root folder cannot be deleted");
        FOLIO_ASSIGN_OR_RETURN(auto listing, engine_.listings.List(loc.folder));
        if (!listing->children.empty()) {
          return Constraint("folder '/" + loc.folder + "' is not empty (" + std::to_string(listing->children.size()) +
                            " children); use deleteTree");
        }
        FOLIO_RETURN_IF_ERROR(engine_.records.ReadRecord(engine_.layout.FolderFile(loc.folder)).status());
        // As a tree: what its listing does not show may be left of its adopted documents
        // (a table entry a series directory shadows) and goes with it, unchecked: no
        // caller is shown such leftovers.
        Collected c;
        FOLIO_RETURN_IF_ERROR(Collect(loc.folder, true, WriteCheck::Trusted(), c));
        return StageTreeRemoval(change, loc, c);
      }
      case BaseType::kItem: {
        FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec,
                               engine_.records.ReadRecord(engine_.layout.ItemFile(loc.folder, loc.name)));
        change.Remove(engine_.layout.ItemDir(loc.folder, loc.name),
                      storage::Guard::RecordId(std::string(storage::kItemFileName), "id", loc.id));
        storage::StageIndexRemoval(change, engine_.layout, loc.id);
        change.Record(DeletedEvent(loc.id, BaseType::kItem, StoredTypeId(rec.properties, BaseType::kItem), rec.acl));
        return OkStatus();
      }
      case BaseType::kRelationship: {
        FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(engine_.layout.RelationshipFile(loc.id)));
        change.Remove(engine_.layout.RelationshipFile(loc.id));
        storage::StageIndexRemoval(change, engine_.layout, loc.id);
        change.Record(DeletedEvent(loc.id, BaseType::kRelationship,
                                   StoredTypeId(rec.properties, BaseType::kRelationship), rec.acl));
        return OkStatus();
      }
      case BaseType::kDocument: break;
    }
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(loc.folder, loc.name));
    const bool whole = all_versions || !t.label || versions::VersionCount(series) <= 1;
    std::string type_id = cmis::kDocument;
    std::vector<Ace> acl;  // the document's, as its latest version has it
    if (auto latest = engine_.records.ReadDocumentRecord(loc.folder, loc.name, series); latest.ok()) {
      type_id = StoredTypeId(latest->properties, BaseType::kDocument);
      acl = std::move(latest->acl);
    }
    if (whole) {
      // A history whose archive cannot be read still goes: its listed versions are named.
      auto labels = engine_.versions.AllLabels(loc.folder, loc.name, series);
      FOLIO_RETURN_IF_ERROR(engine_.staging.StageSeriesRemoval(change, loc));
      for (storage::ChangeEvent& e : DocumentDeletedEvents(loc.id, labels.ok() ? *labels : series.versions,
                                                           series.checked_out.has_value(), type_id, acl)) {
        change.Record(std::move(e));
      }
      return OkStatus();
    }
    const std::string label = *t.label;
    const bool was_latest = label == versions::LatestLabel(series);
    if (series.checked_out && series.checked_out->from == label) {
      return folio::Versioning("version " + label + " of '" + loc.name + "' is the base of the working copy held by " +
                        series.checked_out->by + "; check it in or cancel it first");
    }
    // The latest version deleted: the one before becomes the latest, and its name the
    // document's (its file's), renamed first as a check-in does (changes::Relocation).
    lookup::Loc now_at = loc;
    if (was_latest) {
      FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> all, engine_.versions.AllLabels(loc.folder, loc.name, series));
      if (all.size() >= 2) {
        FOLIO_ASSIGN_OR_RETURN(ObjectRecord before, engine_.records.ReadRecord(engine_.layout.VersionProps(
                                                        loc.folder, loc.name, all[all.size() - 2])));
        const std::string name = storage::StringOr(before.properties, cmis::kName, loc.name);
        if (name != loc.name && storage::ValidateName(name).ok()) {
          FOLIO_ASSIGN_OR_RETURN(std::string parent_id, engine_.locator.FolderIdAt(loc.folder));
          FOLIO_ASSIGN_OR_RETURN(
              now_at, engine_.relocation.Stage(change, loc, {loc.folder, parent_id, name}, VisibleFile::kRestaged));
        }
      }
    }
    // Takes the label out (reading its archive once); an error below discards the change.
    FOLIO_ASSIGN_OR_RETURN(bool listed,
                           engine_.versions.RemoveLabel(change, loc.folder, loc.name, series, label, now_at.name));
    if (!listed) return ObjectNotFound("no object with id '" + id + "'");
    change.Remove(engine_.layout.VersionProps(now_at.folder, now_at.name, label));
    // Its content file as found now, removed where the change has it then.
    if (auto st = engine_.fs.Stat(engine_.layout.VersionContent(loc.folder, loc.name, label)); st.ok()) {
      change.Remove(engine_.layout.VersionContent(now_at.folder, now_at.name, label), storage::Guard::Inode(*st));
    } else if (!st.status().Is(std::errc::no_such_file_or_directory)) {
      return st.status();
    }
    if (was_latest) {
      // The version before becomes the latest: the visible file holds its content.
      const std::string now_latest = versions::LatestLabel(series);
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec,
                             engine_.records.ReadRecord(engine_.layout.VersionProps(loc.folder, loc.name, now_latest)));
      std::string source;
      storage::Guard guard;
      if (rec.content) {
        source = engine_.layout.VersionContent(now_at.folder, now_at.name, now_latest);
        FOLIO_ASSIGN_OR_RETURN(FileStat st,
                               engine_.fs.Stat(engine_.layout.VersionContent(loc.folder, loc.name, now_latest)));
        guard = storage::Guard::Inode(st);
      }
      engine_.staging.StageVisibleAndSeries(change, now_at, source, guard, series);
    } else {
      change.PutJson(engine_.layout.SeriesFile(loc.folder, loc.name), ToJson(series));
    }
    change.Record(DeletedEvent(storage::VersionId(loc.id, label), BaseType::kDocument, type_id, acl));
    return OkStatus();
  });
  FOLIO_RETURN_IF_ERROR(s);
  if (cancel) return engine_.versioning.CancelCheckOut(id, check);
  return OkStatus();
}

Status Remover::Collect(const std::string& folder, bool top, const WriteCheck& check, Collected& out) {
  // Each object's own record gives its type (and its ACL, for `check`); an object whose
  // record cannot be read is still deleted, as its base type, with no ACL to grant.
  // An adopted document (docs/STORAGE.md §4.1) has no index entry (`indexed` false).
  // `labels`: a document's versions, each a "deleted" event by its own id (with one for
  // `checked_out`, its working copy), as their "created" events named them.
  const auto add = [&](BaseType base, const std::string& id, const std::string& path,
                       const Result<ObjectRecord>& rec, bool indexed = true,
                       const std::vector<std::string>& labels = {}, bool checked_out = false) -> Status {
    const std::string type_id = rec.ok() ? StoredTypeId(rec->properties, base) : std::string(BaseTypeId(base));
    static const std::vector<Ace> kNoAcl;
    const std::vector<Ace>& acl = rec.ok() ? rec->acl : kNoAcl;
    if (!check.trusted() && !top) {
      FOLIO_RETURN_IF_ERROR(check(WriteRole::kBelow, CheckedObject(base, id, type_id, path, acl)));
    }
    if (indexed) out.ids.push_back(id);
    if (base == BaseType::kDocument) {
      for (storage::ChangeEvent& e : DocumentDeletedEvents(id, labels, checked_out, type_id, acl)) {
        out.events.push_back(std::move(e));
      }
    } else {
      out.events.push_back(DeletedEvent(id, base, type_id, acl));
    }
    return OkStatus();
  };
  auto folder_rec = engine_.records.ReadRecord(engine_.layout.FolderFile(folder));
  if (folder_rec.ok() && !folder_rec->id.empty()) {
    FOLIO_RETURN_IF_ERROR(add(BaseType::kFolder, folder_rec->id, folder, folder_rec));
  }
  top = false;
  std::set<std::string> series_dirs;  // a series directory wins over a table entry
  auto docs = engine_.fs.List(engine_.layout.DocsDir(folder));
  if (docs.ok()) {
    for (const DirEntry& e : *docs) {
      series_dirs.insert(e.name);
      auto series = engine_.records.ReadSeries(folder, e.name);
      if (!series.ok() || series->series_id.empty()) continue;
      // A history whose archive cannot be read still goes: its listed versions are named.
      auto labels = engine_.versions.AllLabels(folder, e.name, *series);
      FOLIO_RETURN_IF_ERROR(add(BaseType::kDocument, series->series_id, storage::JoinPath(folder, e.name),
                                engine_.records.ReadDocumentRecord(folder, e.name, *series), true,
                                labels.ok() ? *labels : series->versions, series->checked_out.has_value()));
      if (series->checked_out) out.checked_out.push_back(series->series_id);
    }
  }
  // Its adopted documents: their tables are named by its id, outside the tree. A table
  // that cannot be read refuses the change (its documents' deletions could not be
  // recorded).
  if (folder_rec.ok() && !folder_rec->id.empty()) {
    FOLIO_ASSIGN_OR_RETURN(auto adopted, engine_.adopted.All(folder_rec->id));
    for (const auto& [name, doc] : adopted) {
      if (series_dirs.count(name)) continue;
      FOLIO_RETURN_IF_ERROR(add(BaseType::kDocument, doc->entry.series_id, storage::JoinPath(folder, name),
                                hand_edits::AdoptedVersion(name, doc->entry), false,
                                hand_edits::AdoptedSeries(doc->entry).versions));
    }
    if (!adopted.empty() || Exists(engine_.fs, engine_.layout.AdoptedFolderDir(folder_rec->id))) {
      out.adopted_folders.push_back(folder_rec->id);
    }
  }
  auto items = engine_.fs.List(engine_.layout.ItemsDir(folder));
  if (items.ok()) {
    for (const DirEntry& e : *items) {
      auto rec = engine_.records.ReadRecord(engine_.layout.ItemFile(folder, e.name));
      if (!rec.ok() || rec->id.empty()) continue;
      FOLIO_RETURN_IF_ERROR(add(BaseType::kItem, rec->id, storage::JoinPath(folder, e.name), rec));
    }
  }
  FOLIO_ASSIGN_OR_RETURN(auto entries, engine_.fs.List(engine_.layout.Dir(folder)));
  for (const DirEntry& e : entries) {
    if (e.type == FileType::kDirectory && !storage::IsReservedName(e.name)) {
      FOLIO_RETURN_IF_ERROR(Collect(storage::JoinPath(folder, e.name), false, check, out));
    }
  }
  return OkStatus();
}

Status Remover::StageTreeRemoval(storage::ChangeSet& change, const lookup::Loc& loc, Collected& c) {
  // The whole tree disappears at once (renamed into trash, removed after), and with it
  // the markers of its subfolders; its own marker is in its parent. The adoption tables
  // of its folders are outside it (named by their ids).
  FOLIO_RETURN_IF_ERROR(hand_edits::StageFolderMarkerRemoval(change, engine_.fs, engine_.layout, loc.folder));
  change.Remove(engine_.layout.Dir(loc.folder), storage::Guard::RecordId(storage::FolderFileInDir(), "id", loc.id));
  for (const std::string& gone : c.ids) storage::StageIndexRemoval(change, engine_.layout, gone);
  for (const std::string& s : c.checked_out) change.Remove(engine_.layout.CheckedOutMarker(s));
  for (const std::string& f : c.adopted_folders) engine_.adopted.StageRemoveFolder(change, f);
  for (storage::ChangeEvent& e : c.events) change.Record(std::move(e));
  return OkStatus();
}

Result<std::vector<std::string>> Remover::DeleteTree(const std::string& folder_id, const WriteCheck& check) {
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(lookup::Loc loc, engine_.locator.LocateFolder(folder_id));
    if (loc.folder.empty()) return Constraint("the root folder cannot be deleted");
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, loc));
    Collected c;
    FOLIO_RETURN_IF_ERROR(Collect(loc.folder, true, check, c));
    return StageTreeRemoval(change, loc, c);
  }));
  return std::vector<std::string>{};
}

}  // namespace folio::repo::changes
