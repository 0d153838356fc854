// Resolving ids and paths to locations. An id is looked up in the on-disk index; the
// recorded path is verified against the object's own record (which holds its id) and,
// when stale (a parent folder was moved), re-derived through the parent's entry.
#include <optional>
#include <string>

#include "repo/repo_impl.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

std::optional<BaseType> KindFromName(const std::string& kind) {
  if (kind == "folder") return BaseType::kFolder;
  if (kind == "document") return BaseType::kDocument;
  if (kind == "item") return BaseType::kItem;
  if (kind == "relationship") return BaseType::kRelationship;
  return std::nullopt;
}

Status NotFoundId(const std::string& id) { return ObjectNotFound("no object with id '" + id + "'"); }

}  // namespace

// True if the record at `loc` carries `id`; keeps the record in `loc.record`.
static bool Verify(RepoImpl& r, Loc& loc) {
  std::string path, key = "id";
  switch (loc.base) {
    case BaseType::kFolder: path = r.layout_.FolderFile(loc.folder); break;
    case BaseType::kDocument: path = r.layout_.SeriesFile(loc.folder, loc.name); key = "seriesId"; break;
    case BaseType::kItem: path = r.layout_.ItemFile(loc.folder, loc.name); break;
    case BaseType::kRelationship: path = r.layout_.RelationshipFile(loc.id); break;
  }
  auto j = r.cache_.Read(r.fs_, path);
  if (!j.ok() || (*j)->value(key, "") != loc.id) return false;
  loc.record = *j;
  return true;
}

// The location an index entry names (not yet verified).
static std::optional<Loc> LocFromEntry(const std::string& id, const storage::IndexEntry& entry) {
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

Result<Loc> RepoImpl::Locate(const std::string& base_id, int depth) {
  if (depth > 256) return StorageError("index entries of '" + base_id + "' form a cycle or are nested too deep");
  // The cached entry, unvalidated, is a fine hint: the record it leads to is verified.
  if (auto hint = cache_.Peek(layout_.IndexEntry(base_id))) {
    auto entry = storage::IndexEntryFromJson(*hint, "");
    if (entry.ok()) {
      if (auto loc = LocFromEntry(base_id, *entry); loc && Verify(*this, *loc)) return *loc;
    }
  }
  auto entry_json = cache_.Read(fs_, layout_.IndexEntry(base_id));
  if (!entry_json.ok()) {
    if (entry_json.status().Is(std::errc::no_such_file_or_directory)) return NotFoundId(base_id);
    return entry_json.status();
  }
  FOLIO_ASSIGN_OR_RETURN(storage::IndexEntry entry,
                         storage::IndexEntryFromJson(**entry_json, layout_.IndexEntry(base_id)));
  auto found = LocFromEntry(base_id, entry);
  if (!found) return StorageError("index entry of '" + base_id + "' has unknown kind '" + entry.kind + "'");
  Loc loc = *found;
  if (Verify(*this, loc)) return loc;
  if (entry.parent.empty()) return NotFoundId(base_id);
  // The recorded path is stale: derive it from the parent's (verified) location.
  auto parent = Locate(entry.parent, depth + 1);
  if (!parent.ok()) return NotFoundId(base_id);
  if (parent->base != BaseType::kFolder) return NotFoundId(base_id);
  loc.folder = loc.base == BaseType::kFolder ? storage::JoinPath(parent->folder, entry.name) : parent->folder;
  if (Verify(*this, loc)) return loc;
  return NotFoundId(base_id);
}

Result<Loc> RepoImpl::LocateFolder(const std::string& id) {
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  if (t.loc.base != BaseType::kFolder) return InvalidArgument("object '" + id + "' is not a folder");
  return t.loc;
}

Result<Target> RepoImpl::ResolveId(const std::string& id) {
  auto parsed = storage::ParseObjectId(id);
  if (!parsed) return NotFoundId(id);
  auto loc = Locate(parsed->base);
  if (!loc.ok() && loc.status().kind() == ErrorKind::kObjectNotFound && !read_only_) {
    // A change in flight (another thread or process) may have moved it: wait for the
    // writer to finish, then look once more.
    auto guard = LockForWrite();
    if (guard.ok()) loc = Locate(parsed->base);
  }
  if (!loc.ok()) return loc.status();
  Target t;
  t.loc = *loc;
  if (parsed->label) {
    if (loc->base != BaseType::kDocument) return NotFoundId(id);
    if (parsed->is_pwc()) {
      t.pwc = true;
    } else {
      t.label = parsed->label;
    }
  }
  return t;
}

Result<Target> RepoImpl::ResolvePath(const std::string& path) {
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
    FOLIO_ASSIGN_OR_RETURN(t.loc, Locate(info_.root_folder_id));
    return t;
  }
  const std::string parent = storage::ParentPath(clean);
  const std::string name = storage::BaseName(clean);
  const std::string visible = layout_.Dir(clean);
  if (auto known = KnownDocumentAt(visible, parent, name)) return std::move(*known);
  auto st = fs_.Stat(visible);
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
  auto item = cache_.Read(fs_, layout_.ItemFile(parent, name));
  if (item.ok()) {
    t.loc = Loc{BaseType::kItem, (*item)->value("id", ""), parent, name};
    return t;
  }
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
std::optional<Target> RepoImpl::KnownDocumentAt(const std::string& visible, const std::string& parent,
                                                const std::string& name) {
  FileStat known;
  {
    std::lock_guard<std::mutex> lock(known_paths_mu_);
    auto it = known_paths_.find(visible);
    if (it == known_paths_.end()) return std::nullopt;
    known = it->second;
  }
  auto st = fs_.IdentityStat(visible);
  if (!st.ok() || st->type != FileType::kFile || st->inode != known.inode || st->device != known.device) {
    return std::nullopt;
  }
  // The series record: read through the confined Open, validated by its own identity.
  auto t = DocumentTarget(parent, name);
  if (!t.ok()) return std::nullopt;  // the full path reports what is wrong
  t->loc.visible = *st;
  return std::move(*t);
}

Result<Target> RepoImpl::DocumentTarget(const std::string& folder, const std::string& name) {
  const std::string series_path = layout_.SeriesFile(folder, name);
  auto json = cache_.Read(fs_, series_path);
  if (!json.ok() && json.status().Is(std::errc::no_such_file_or_directory)) {
    FOLIO_RETURN_IF_ERROR(AdoptDocument(folder, name));
    json = cache_.Read(fs_, series_path);
  }
  if (!json.ok()) return json.status();
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const SeriesRecord> series, DecodeSeries(*json, series_path));
  Target t;
  t.loc = Loc{BaseType::kDocument, series->series_id, folder, name};
  t.loc.record = *json;  // lets Build reuse it (and its memo of built documents)
  t.pwc = series->versions.empty();  // created checked out: only the working copy exists
  return t;
}

void RepoImpl::RememberDocumentAt(const std::string& visible, const FileStat& st) {
  std::lock_guard<std::mutex> lock(known_paths_mu_);
  if (known_paths_.size() >= kMaxKnownPaths) known_paths_.clear();
  known_paths_[visible] = st;
}

Result<std::string> RepoImpl::FolderIdAt(const std::string& folder_path) {
  auto j = cache_.Read(fs_, layout_.FolderFile(folder_path));
  if (!j.ok() && j.status().Is(std::errc::no_such_file_or_directory)) {
    FOLIO_RETURN_IF_ERROR(AdoptFolder(folder_path));
    j = cache_.Read(fs_, layout_.FolderFile(folder_path));
  }
  if (!j.ok()) return j.status();
  if (!(*j)->contains("id") || !(**j)["id"].is_string()) {
    return StorageError("'" + layout_.FolderFile(folder_path) + "' has no id");
  }
  return (**j)["id"].get<std::string>();
}

}  // namespace folio::repo
