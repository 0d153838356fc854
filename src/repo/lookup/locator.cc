// Resolving ids and paths; see locator.h. An id is looked up in the on-disk index; the
// recorded path is verified against the object's own record (which holds its id) and,
// when stale (a parent folder was moved), re-derived through the parent's entry.
#include "repo/lookup/locator.h"

#include "folio/repository.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/hand_edits/seen_edits.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/lookup_scope.h"
#include "storage/name_rules.h"

namespace folio::repo::lookup {
namespace {

std::optional<BaseType> KindFromName(const std::string& kind) {
  if (kind == "folder") return BaseType::kFolder;
  if (kind == "document") return BaseType::kDocument;
  if (kind == "item") return BaseType::kItem;
  if (kind == "relationship") return BaseType::kRelationship;
  return std::nullopt;
}

Status NotFoundId(const std::string& id) { return ObjectNotFound("no object with id '" + id + "'"); }

// The location an index entry names (not yet verified).
std::optional<Loc> LocFromEntry(const std::string& id, const storage::IndexEntry& entry) {
  auto kind = KindFromName(entry.kind);
  if (!kind) return std::nullopt;
  Loc loc;
  loc.base = *kind;
  loc.id = id;
  loc.name = entry.name;
  loc.folder = *kind == BaseType::kFolder         ? entry.path
               : *kind == BaseType::kRelationship ? std::string()
                                                  : storage::ParentPath(entry.path);
  return loc;
}

}  // namespace

bool Locator::Verify(Loc& loc, Status* damage) {
  std::string path;
  const char* key = "id";
  switch (loc.base) {
    case BaseType::kFolder: path = engine_.layout.FolderFile(loc.folder); break;
    case BaseType::kDocument:
      path = engine_.layout.SeriesFile(loc.folder, loc.name);
      key = "seriesId";
      break;
    case BaseType::kItem: path = engine_.layout.ItemFile(loc.folder, loc.name); break;
    case BaseType::kRelationship: path = engine_.layout.RelationshipFile(loc.id); break;
  }
  auto j = engine_.records.Read(path);
  if (!j.ok() && loc.base == BaseType::kDocument && j.status().Is(std::errc::no_such_file_or_directory)) {
    // An adopted document (docs/STORAGE.md §4.1) is verified against its table.
    auto doc = engine_.adopted.FindAt(loc.folder, loc.name);
    if (!doc.ok() || *doc == nullptr || (*doc)->entry.series_id != loc.id) return false;
    SetAdopted(loc, *doc);
    return true;
  }
  if (!j.ok()) {
    if (damage != nullptr && !j.status().Is(std::errc::no_such_file_or_directory) &&
        !j.status().Is(std::errc::not_a_directory)) {
      *damage = j.status();
    }
    return false;
  }
  if (storage::StringField(**j, key) != loc.id) return false;
  loc.record = *j;
  loc.adopted = nullptr;
  return true;
}

void Locator::SetAdopted(Loc& loc, const std::shared_ptr<const hand_edits::AdoptedDoc>& doc, bool with_record) {
  loc.id = doc->entry.series_id;
  loc.record = with_record ? doc->SeriesJson() : nullptr;
  loc.adopted = doc;
}

Result<Loc> Locator::LocateAdopted(const std::string& series_id, int depth) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const hand_edits::AdoptedDoc> doc, engine_.adopted.FindId(series_id));
  if (doc == nullptr) return NotFoundId(series_id);
  auto folder = LocateAt(doc->folder_id, depth + 1);
  if (!folder.ok()) {
    if (folder.status().kind() == ErrorKind::kObjectNotFound) return NotFoundId(series_id);
    return folder.status();
  }
  if (folder->base != BaseType::kFolder) return NotFoundId(series_id);
  Loc loc{BaseType::kDocument, series_id, folder->folder, doc->name};
  // A series of its own takes precedence over the entry (docs/STORAGE.md §4.1). A
  // folder whose documents are all adopted has no docs directory: looked at first, it
  // answers for all of them (once for a whole query page, storage/look_once.h).
  if (Exists(engine_.fs, engine_.layout.DocsDir(loc.folder)) &&
      Exists(engine_.fs, engine_.layout.SeriesDir(loc.folder, loc.name))) {
    return NotFoundId(series_id);
  }
  SetAdopted(loc, doc);
  return loc;
}

Result<Loc> Locator::Locate(const std::string& base_id) {
  const storage::LookupScope lookup;
  return LocateAt(base_id, 0);
}

Result<Loc> Locator::LocateAt(const std::string& base_id, int depth) {
  if (depth > 256) return StorageError("index entries of '" + base_id + "' form a cycle or are nested too deep");
  // The cached entry, unvalidated, is a fine hint: the record it leads to is verified.
  if (auto hint = engine_.records.Peek(engine_.layout.IndexEntry(base_id))) {
    auto entry = storage::IndexEntryFromJson(*hint, "");
    if (entry.ok()) {
      if (auto loc = LocFromEntry(base_id, *entry); loc && Verify(*loc)) return *loc;
    }
  }
  // An adopted document's id names the folder whose tables hold it, and it has no index
  // entry until its first change, which gives it one and takes it out of the tables in
  // one commit (docs/STORAGE.md §4.1): the tables are asked before the entry is looked
  // for on disk, which spares a failing look per adopted document (a query page of
  // them). Not found there (changed since, or its folder gone), the entry decides.
  std::optional<Result<Loc>> adopted;
  if (storage::AdoptedFolderOf(base_id)) {
    adopted = LocateAdopted(base_id, depth);
    if (adopted->ok()) return std::move(*adopted);
  }
  auto entry_json = engine_.records.Read(engine_.layout.IndexEntry(base_id));
  if (!entry_json.ok()) {
    if (entry_json.status().Is(std::errc::no_such_file_or_directory)) {
      // Not indexed: an adopted document's id names the folder whose tables hold it.
      if (adopted) return std::move(*adopted);
      return NotFoundId(base_id);
    }
    return entry_json.status();
  }
  FOLIO_ASSIGN_OR_RETURN(storage::IndexEntry entry,
                         storage::IndexEntryFromJson(**entry_json, engine_.layout.IndexEntry(base_id)));
  auto found = LocFromEntry(base_id, entry);
  if (!found) return StorageError("index entry of '" + base_id + "' has unknown kind '" + entry.kind + "'");
  Loc loc = *found;
  // A record where the entry says, or where its parent now is, that cannot be read is
  // the object, damaged (docs/STORAGE.md §9): answered as such, never taken for gone.
  // But a recorded path may be stale (a folder renamed by hand) and hold another
  // object's damaged record now: where the parent now is decides first, so that one
  // damaged record spoils only its own object.
  Status damage;
  if (Verify(loc, &damage)) return loc;
  const Status gone = damage.ok() ? NotFoundId(base_id) : damage;
  if (entry.parent.empty()) return gone;
  auto parent = LocateAt(entry.parent, depth + 1);
  if (!parent.ok() || parent->base != BaseType::kFolder) return gone;
  Loc derived = loc;
  derived.folder = loc.base == BaseType::kFolder ? storage::JoinPath(parent->folder, entry.name) : parent->folder;
  if (derived.folder == loc.folder) return gone;
  Status derived_damage;
  if (Verify(derived, &derived_damage)) return derived;
  if (!derived_damage.ok()) return derived_damage;
  return gone;
}

Result<Loc> Locator::LocateFolder(const std::string& id) {
  const storage::LookupScope lookup;
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  if (t.loc.base != BaseType::kFolder) return InvalidArgument("object '" + id + "' is not a folder");
  return t.loc;
}

Result<Target> Locator::ResolveId(const std::string& id) {
  const storage::LookupScope lookup;
  auto parsed = storage::ParseObjectId(id);
  if (!parsed) return NotFoundId(id);
  auto loc = Locate(parsed->base);
  if (!loc.ok() && loc.status().kind() == ErrorKind::kObjectNotFound) {
    // A change in flight (another thread or process) may be moving it: wait for the
    // writers to finish, then look once more.
    wait_for_writers_();
    loc = Locate(parsed->base);
    if (!loc.ok() && loc.status().kind() == ErrorKind::kObjectNotFound &&
        Exists(engine_.fs, engine_.layout.IndexEntry(parsed->base))) {
      // Indexed but gone: removed or moved by hand with its folder (docs/STORAGE.md §9).
      FOLIO_RETURN_IF_ERROR(
          hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kVanished, "", {}, parsed->base}));
    } else if (!loc.ok() && loc.status().kind() == ErrorKind::kObjectNotFound) {
      // An adopted document's folder removed or moved by hand: its tables stay until
      // that is taken in (docs/STORAGE.md §4.1).
      auto folder_id = storage::AdoptedFolderOf(parsed->base);
      if (folder_id && Exists(engine_.fs, engine_.layout.IndexEntry(*folder_id)) && !Locate(*folder_id).ok()) {
        FOLIO_RETURN_IF_ERROR(
            hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kVanished, "", {}, *folder_id}));
      }
    }
  }
  if (!loc.ok()) return loc.status();
  Target t;
  t.loc = std::move(*loc);
  if (parsed->label) {
    if (t.loc.base != BaseType::kDocument) return NotFoundId(id);
    if (parsed->is_pwc()) {
      t.pwc = true;
    } else {
      t.label = parsed->label;
    }
  }
  return t;
}

Result<Target> Locator::ResolveIdToChange(const std::string& id,
                                          const std::function<Status(const Target&)>& may_change) {
  const storage::LookupScope lookup;
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  if (t.loc.adopted == nullptr) return t;
  if (may_change) FOLIO_RETURN_IF_ERROR(may_change(t));
  // Its first change: the document gets the files of any other first (docs/STORAGE.md
  // §4.1), then is found as one, when the write runs again.
  FOLIO_RETURN_IF_ERROR(
      hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kMaterialize, t.loc.folder, {t.loc.name}, ""}));
  return hand_edits::ReconcileFirst();
}

Result<Target> Locator::Relocate(const ObjectData& object) {
  const storage::LookupScope lookup;
  Target t;
  t.loc.base = object.base;
  t.loc.id = object.base == BaseType::kDocument ? object.series_id : object.id;
  if (object.base == BaseType::kFolder) {
    t.loc.folder = object.path;
    t.loc.name = storage::BaseName(object.path);
  } else if (object.base != BaseType::kRelationship) {
    t.loc.folder = storage::ParentPath(object.path);
    t.loc.name = storage::BaseName(object.path);
  }
  if (object.base == BaseType::kDocument) {
    if (object.is_pwc) {
      t.pwc = true;
    } else {
      t.label = object.version_label;
    }
  }
  if (!t.loc.id.empty() && Verify(t.loc)) return t;
  return ResolveId(object.id);
}

Result<Target> Locator::ResolvePath(const std::string& path) {
  const storage::LookupScope lookup;
  // Segments were percent-decoded by the caller; each must be a valid, non-reserved name.
  std::string clean;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string seg = path.substr(start, end - start);
    start = end + 1;
    if (seg.empty()) continue;
    if (!storage::ValidateName(seg).ok()) return ObjectNotFound("no object at path '/" + path + "'");
    clean = storage::JoinPath(clean, seg);
  }
  const std::string shown = "/" + clean;
  Target t;
  if (clean.empty()) {
    FOLIO_ASSIGN_OR_RETURN(t.loc, Locate(engine_.info.root_folder_id));
    return t;
  }
  const std::string parent = storage::ParentPath(clean);
  const std::string name = storage::BaseName(clean);
  const std::string visible = engine_.layout.Dir(clean);
  if (auto known = KnownDocumentAt(visible, parent, name)) return std::move(*known);
  auto st = engine_.fs.Stat(visible);
  if (st.ok() && st->type == FileType::kDirectory) {
    FOLIO_ASSIGN_OR_RETURN(std::string id, FolderIdAt(clean));
    t.loc = Loc{BaseType::kFolder, id, clean, name};
    return t;
  }
  if (st.ok() && st->type == FileType::kFile) {
    FOLIO_ASSIGN_OR_RETURN(t, DocumentTarget(parent, name));
    t.loc.visible = *st;
    RememberDocumentAt(visible, *st);
    return t;
  }
  // A symlink or special file is not an object; a symlink on the way is not followed.
  if (st.ok()) return ObjectNotFound("no object at path '" + shown + "'");
  if (!st.status().Is(std::errc::no_such_file_or_directory)) {
    if (st.status().Is(std::errc::too_many_symbolic_link_levels) || st.status().Is(std::errc::not_a_directory)) {
      return ObjectNotFound("no object at path '" + shown + "'");
    }
    return st.status();
  }
  auto item = engine_.records.Read(engine_.layout.ItemFile(parent, name));
  if (item.ok()) {
    t.loc = Loc{BaseType::kItem, storage::StringOr(**item, "id", ""), parent, name};
    return t;
  }
  // A document whose file was removed by hand: its deletion is to be recorded
  // (docs/STORAGE.md §9).
  if (Exists(engine_.fs, engine_.layout.SeriesFile(parent, name))) {
    FOLIO_RETURN_IF_ERROR(hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kRemovals, parent, {name}, ""}));
  } else if (auto doc = engine_.adopted.FindAt(parent, name); doc.ok() && *doc != nullptr) {
    FOLIO_RETURN_IF_ERROR(hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kRemovals, parent, {name}, ""}));
  }
  FOLIO_RETURN_IF_ERROR(SeeGoneAncestor(clean));
  return ObjectNotFound("no object at path '" + shown + "'");
}

// The by-path fast path. A confined Stat (openat2 + fstatat + close) proves that `visible`
// is a regular file reached without a symlink; its identity (device, inode) is
// remembered, and while the unconfined IdentityStat (one fstatat) still finds that very
// file there, the lookup is answered from that identity and the identity-validated
// series record. As with JsonCache, a folder on the way swapped for a symlink to that
// same folder goes unnoticed; nothing outside the data directory can match, and content
// is only ever read through the confined Open. Anything else (not remembered, a
// different file, a symlink, gone) takes the full path, which also adopts and reports.
std::optional<Target> Locator::KnownDocumentAt(const std::string& visible, const std::string& parent,
                                               const std::string& name) {
  FileStat known;
  {
    std::lock_guard<std::mutex> lock(known_mu_);
    auto it = known_paths_.find(visible);
    if (it == known_paths_.end()) return std::nullopt;
    known = it->second;
  }
  auto st = engine_.fs.IdentityStat(visible);
  if (!st.ok() || st->type != FileType::kFile || st->inode != known.inode || st->device != known.device) {
    return std::nullopt;
  }
  auto t = DocumentTarget(parent, name);
  if (!t.ok()) return std::nullopt;  // the full path reports what is wrong
  t->loc.visible = *st;
  return std::move(*t);
}

void Locator::RememberDocumentAt(const std::string& visible, const FileStat& st) {
  std::lock_guard<std::mutex> lock(known_mu_);
  if (known_paths_.size() >= max_known_paths_) known_paths_.clear();
  known_paths_[visible] = st;
}

Result<Target> Locator::DocumentTarget(const std::string& folder, const std::string& name, For use) {
  const storage::LookupScope lookup;
  const std::string series_path = engine_.layout.SeriesFile(folder, name);
  // Not looked for where the folder has no docs directory (a listing's child).
  std::optional<Result<std::shared_ptr<const storage::Json>>> json;
  if (use == For::kRead || Exists(engine_.fs, engine_.layout.DocsDir(folder))) json = engine_.records.Read(series_path);
  if (!json || (!json->ok() && json->status().Is(std::errc::no_such_file_or_directory))) {
    // Adopted already (docs/STORAGE.md §4.1), or found now: a file added by hand.
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const hand_edits::AdoptedDoc> doc, engine_.adopted.FindAt(folder, name));
    if (doc == nullptr) {
      if (Exists(engine_.fs, engine_.layout.SeriesDir(folder, name))) {
        // Metadata without its series.json: damaged, not hand-added.
        return StorageError("document '/" + storage::JoinPath(folder, name) +
                            "' has a series directory without series.json; run folio fsck --repair");
      }
      FOLIO_RETURN_IF_ERROR(
          hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kAdoptDocument, folder, {name}, ""}));
      return ObjectNotFound("no document at path '/" + storage::JoinPath(folder, name) + "'");
    }
    Target t;
    t.loc = Loc{BaseType::kDocument, "", folder, name};
    SetAdopted(t.loc, doc, /*with_record=*/use == For::kRead);
    return t;
  }
  if (!json->ok()) return json->status();
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const SeriesRecord> series,
                         engine_.records.DecodeSeries(**json, series_path));
  Target t;
  t.loc = Loc{BaseType::kDocument, series->series_id, folder, name};
  t.loc.record = **json;  // lets the builder reuse it (and its memo of built documents)
  t.pwc = series->versions.empty();  // created checked out: only the working copy exists
  return t;
}

std::optional<std::string> Locator::GoneFolderId(const std::string& folder_path) {
  const storage::LookupScope lookup;
  // Its marker in its parent names it (repo/hand_edits/folder_markers.h); a folder of data written
  // before markers is known only if this process read its record.
  std::string id = hand_edits::ReadFolderMarker(engine_.fs, engine_.layout, folder_path).value_or("");
  if (id.empty()) {
    if (auto known = engine_.records.Peek(engine_.layout.FolderFile(folder_path))) {
      id = storage::StringOr(*known, "id", "");
    }
  }
  if (id.empty()) return std::nullopt;
  return id;
}

Status Locator::SeeGoneFolder(const std::string& folder_path) {
  auto id = GoneFolderId(folder_path);
  return id ? hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kVanished, "", {}, *id}) : OkStatus();
}

Status Locator::SeeGoneAncestor(const std::string& path) {
  // The highest gone folder on the way (`path` itself included): one Stat per level
  // for a path never seen, and a sweep only for a folder this process knew.
  for (std::string folder = path; !folder.empty(); folder = storage::ParentPath(folder)) {
    auto st = engine_.fs.Stat(engine_.layout.Dir(folder));
    if (st.ok() || !st.status().Is(std::errc::no_such_file_or_directory)) break;
    if (Exists(engine_.fs, engine_.layout.Dir(storage::ParentPath(folder)))) return SeeGoneFolder(folder);
  }
  return OkStatus();
}

Result<std::string> Locator::FolderIdAt(const std::string& folder_path) {
  const storage::LookupScope lookup;
  auto id = engine_.records.FolderId(folder_path);
  if (!id.ok() && id.status().Is(std::errc::no_such_file_or_directory)) {
    // A directory made by hand (or gone): to adopt, if it is a directory.
    auto st = engine_.fs.Stat(engine_.layout.Dir(folder_path));
    if (st.ok() && st->type == FileType::kDirectory) {
      FOLIO_RETURN_IF_ERROR(
          hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kAdoptFolder, folder_path, {}, ""}));
      // Not a folder yet, as far as this read goes (the next one finds it adopted).
      if (hand_edits::SeenEdits::Keeps(hand_edits::Sighting::Kind::kAdoptFolder)) {
        return ObjectNotFound("no folder at path '/" + folder_path + "' yet: made by hand, not adopted");
      }
    }
  }
  return id;
}

void Locator::DropCaches() {
  std::lock_guard<std::mutex> lock(known_mu_);
  known_paths_.clear();
}

}  // namespace folio::repo::lookup
