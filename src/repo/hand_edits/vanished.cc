// Objects removed or moved by hand with their folder; see vanished.h.
#include "repo/hand_edits/vanished.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/adopter.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/hand_edits/logged_objects.h"
#include "repo/lookup/locator.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {
namespace {

// Deeper than any tree Folio serves is a loop of bind mounts or the like: not walked.
constexpr int kMaxWalkDepth = 1024;

std::optional<BaseType> BaseOfKind(const std::string& kind) {
  if (kind == "folder") return BaseType::kFolder;
  if (kind == "document") return BaseType::kDocument;
  if (kind == "item") return BaseType::kItem;
  if (kind == "relationship") return BaseType::kRelationship;
  return std::nullopt;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The type id a directory of `.folio/typed/` is named after (`%XX` decoded).
std::string UnescapeFileName(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%' && i + 2 < name.size() && HexValue(name[i + 1]) >= 0 && HexValue(name[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(name[i + 1]) * 16 + HexValue(name[i + 2]));
      i += 2;
    } else {
      out += name[i];
    }
  }
  return out;
}

}  // namespace

bool Vanished::StillVanished(const std::string& id) { return VanishedBase(id).has_value(); }

bool Vanished::Misplaced(const std::string& id) {
  if (id.empty() || id == engine_.info.root_folder_id) return false;
  auto entry = storage::ReadIndexEntry(engine_.fs, engine_.layout, id);
  if (!entry.ok() || entry->kind != "folder" || entry->parent.empty()) return false;
  auto loc = engine_.locator.Locate(id);
  if (!loc.ok() || loc->base != BaseType::kFolder) return false;
  auto parent = engine_.records.ReadRecord(engine_.layout.FolderFile(storage::ParentPath(loc->folder)));
  return parent.ok() && parent->id != entry->parent;
}

std::optional<BaseType> Vanished::VanishedBase(const std::string& id) {
  if (id.empty() || id == engine_.info.root_folder_id || !Exists(engine_.fs, engine_.layout.IndexEntry(id))) {
    return std::nullopt;
  }
  auto loc = engine_.locator.Locate(id);
  if (loc.ok() || loc.status().kind() != ErrorKind::kObjectNotFound) return std::nullopt;
  // Not found may also mean a record that cannot be read (damaged, or a failing disk):
  // that object is still there, and fsck's to tell. Gone is a record that is missing
  // where the entry says, or holds another object's id.
  auto entry = storage::ReadIndexEntry(engine_.fs, engine_.layout, id);
  if (!entry.ok()) return std::nullopt;
  const auto base = BaseOfKind(entry->kind);
  if (!base) return std::nullopt;
  const std::string parent = storage::ParentPath(entry->path);
  std::string record;
  const char* key = "id";
  switch (*base) {
    case BaseType::kFolder: record = engine_.layout.FolderFile(entry->path); break;
    case BaseType::kDocument:
      record = engine_.layout.SeriesFile(parent, entry->name);
      key = "seriesId";
      break;
    case BaseType::kItem: record = engine_.layout.ItemFile(parent, entry->name); break;
    case BaseType::kRelationship: record = engine_.layout.RelationshipFile(id); break;
  }
  auto json = engine_.records.Read(record);
  const bool gone = json.ok() ? storage::StringOr(**json, key, "") != id
                              : json.status().Is(std::errc::no_such_file_or_directory) ||
                                    json.status().Is(std::errc::not_a_directory);
  if (!gone) return std::nullopt;
  return base;
}

Status Vanished::Absorb(const std::string& id) {
  if (engine_.committer.read_only() || engine_.committer.on_read_only_fs()) return OkStatus();
  // Cheap: a lookup that fails for another reason costs no sweep.
  if (!StillVanished(id) && !Misplaced(id)) return OkStatus();
  if (sweeping_.exchange(true)) return OkStatus();
  struct Done {
    std::atomic<bool>& flag;
    ~Done() { flag = false; }
  } done{sweeping_};
  // A folder moved by hand is not gone: found first, it keeps its id.
  FOLIO_RETURN_IF_ERROR(FindMoved("", engine_.info.root_folder_id, 0));
  const auto id_base = VanishedBase(id);
  if (!id_base) return OkStatus();
  auto shards = engine_.fs.List(engine_.layout.IndexDir());
  if (!shards.ok()) return shards.status();
  std::vector<Gone> batch;
  const auto push = [&](Gone g) -> Status {
    batch.push_back(std::move(g));
    if (batch.size() < kAdoptionBatch) return OkStatus();
    FOLIO_RETURN_IF_ERROR(Forget(batch));
    batch.clear();
    return OkStatus();
  };
  // A vanished folder's adopted documents (docs/STORAGE.md §4.1) come before it, in
  // batches of their own if need be: their tables shrink batch by batch and the folder's
  // entry goes with the last, so that a sweep cut short resumes with the rest.
  const auto add = [&](const std::string& gone, BaseType base) -> Status {
    if (base == BaseType::kFolder) {
      auto adopted = engine_.adopted.All(gone);
      // Tables that cannot be read (damage, a failing disk): the folder is not taken
      // for removed, and stays for a later sweep (or fsck) to settle.
      if (!adopted.ok()) return OkStatus();
      for (const auto& [name, doc] : *adopted) FOLIO_RETURN_IF_ERROR(push(Gone{doc->entry.series_id, gone, name}));
    }
    return push(Gone{gone, "", ""});
  };
  for (const DirEntry& shard : *shards) {
    if (shard.type != FileType::kDirectory || storage::IsTempName(shard.name)) continue;
    auto entries = engine_.fs.List(storage::JoinPath(engine_.layout.IndexDir(), shard.name));
    if (!entries.ok()) {
      if (entries.status().Is(std::errc::no_such_file_or_directory)) continue;
      return entries.status();
    }
    for (const DirEntry& e : *entries) {
      auto other = storage::IdOfRecordFileName(e.name);
      if (!other || *other == id) continue;
      if (auto base = VanishedBase(*other)) FOLIO_RETURN_IF_ERROR(add(*other, *base));
    }
  }
  FOLIO_RETURN_IF_ERROR(add(id, *id_base));
  return batch.empty() ? OkStatus() : Forget(batch);
}

Status Vanished::FindMoved(const std::string& folder, const std::string& folder_id, int depth) {
  if (depth > kMaxWalkDepth) return OkStatus();
  auto entries = engine_.fs.List(engine_.layout.Dir(folder));
  if (!entries.ok()) return OkStatus();  // gone meanwhile: nothing moved into it
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kDirectory || storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) {
      continue;
    }
    const std::string path = storage::JoinPath(folder, e.name);
    // A directory made by hand is adopted, as its listing would (a moved folder may be
    // inside it).
    auto id = engine_.adopter.FolderIdAdopting(path);
    if (!id.ok()) continue;  // damaged or gone: fsck's to tell
    if (StillVanished(*id) || Misplaced(*id)) FOLIO_RETURN_IF_ERROR(Reidentify(path, *id, folder_id));
    FOLIO_RETURN_IF_ERROR(FindMoved(path, *id, depth + 1));
  }
  return OkStatus();
}

std::optional<std::string> Vanished::IndexedPlace(const storage::IndexEntry& entry) {
  if (entry.parent.empty()) return std::nullopt;
  auto parent = engine_.locator.Locate(entry.parent);
  if (!parent.ok() || parent->base != BaseType::kFolder) return std::nullopt;
  return storage::JoinPath(parent->folder, entry.name);
}

Status Vanished::Reidentify(const std::string& path, const std::string& id, const std::string& parent_id) {
  return engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    if (!StillVanished(id) && !Misplaced(id)) return OkStatus();
    auto rec = engine_.records.ReadRecord(engine_.layout.FolderFile(path));
    if (!rec.ok() || rec->id != id) return OkStatus();  // moved again meanwhile
    // Its marker moves too: the one at its old place goes (a folder made there since
    // keeps its own), one is written at its new place.
    if (auto entry = storage::ReadIndexEntry(engine_.fs, engine_.layout, id); entry.ok()) {
      if (auto old = IndexedPlace(*entry); old && *old != path) {
        FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, engine_.fs, engine_.layout, *old, id));
      }
    }
    storage::StageIndexEntry(change, engine_.layout, id, {"folder", parent_id, storage::BaseName(path), path});
    FOLIO_RETURN_IF_ERROR(StageFolderMarker(change, engine_.staging, path, id));
    change.Record(
        changes::Event("updated", id, BaseType::kFolder, changes::StoredTypeId(rec->properties, BaseType::kFolder)));
    return OkStatus();
  });
}

Status Vanished::StageAdoptedGone(storage::ChangeSet& change, const std::vector<Gone>& batch,
                                  std::map<std::string, std::set<std::string>>& left) {
  std::map<std::string, std::vector<const Gone*>> by_folder;
  for (const Gone& g : batch) {
    if (!g.folder_id.empty()) by_folder[g.folder_id].push_back(&g);
  }
  std::vector<std::shared_ptr<const AdoptedDoc>> gone;
  for (const auto& [folder_id, docs] : by_folder) {
    // Checked again under the lock: another process may have recorded them, or found
    // their folder moved.
    if (!StillVanished(folder_id)) continue;
    auto all = engine_.adopted.All(folder_id);
    if (!all.ok()) continue;  // unreadable meanwhile: not taken for removed (see Absorb)
    std::set<std::string>& names = left[folder_id];
    for (const auto& [name, doc] : *all) names.insert(name);
    for (const Gone* g : docs) {
      auto it = all->find(g->name);
      if (it == all->end() || it->second->entry.series_id != g->id) continue;
      gone.push_back(it->second);
      names.erase(g->name);
      // Its one version, as its "created" event named it.
      change.Record(changes::Event("deleted", storage::VersionId(g->id, "1.0"), BaseType::kDocument, cmis::kDocument));
    }
  }
  return engine_.adopted.StageWithout(change, gone);
}

Status Vanished::Forget(const std::vector<Gone>& batch) {
  // The ids the log named for the documents among them (their records, which list their
  // versions, went with their folder): each gets its "deleted" event.
  std::set<std::string> series;
  for (const Gone& g : batch) {
    if (g.folder_id.empty()) series.insert(g.id);
  }
  FOLIO_ASSIGN_OR_RETURN(const auto logged, LoggedObjects(engine_.committer.change_log(), series));
  return engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    std::vector<std::string> typed_dirs;
    if (auto dirs = engine_.fs.List(engine_.layout.TypeUsageDir()); dirs.ok()) {
      for (const DirEntry& d : *dirs) {
        if (d.type == FileType::kDirectory && !storage::IsTempName(d.name)) typed_dirs.push_back(d.name);
      }
    }
    // Adopted documents first: a folder goes only once its tables hold nothing more.
    std::map<std::string, std::set<std::string>> left;  // entries not in this change, by folder
    FOLIO_RETURN_IF_ERROR(StageAdoptedGone(change, batch, left));
    for (const Gone& g : batch) {
      if (!g.folder_id.empty()) continue;
      const std::string& id = g.id;
      // Checked again under the lock: another process, or a change in flight, may have
      // forgotten or moved it since.
      if (!StillVanished(id)) continue;
      auto entry = storage::ReadIndexEntry(engine_.fs, engine_.layout, id);
      if (!entry.ok()) continue;
      const auto base = BaseOfKind(entry->kind);
      if (!base) continue;  // an entry of an unknown kind: fsck's to tell
      if (*base == BaseType::kFolder) {
        // Its adopted documents are all recorded (in this change or before) or it stays:
        // entries this sweep did not see (a table written meanwhile) are the next one's.
        auto known = left.find(id);
        if (known == left.end()) {
          auto all = engine_.adopted.All(id);
          if (!all.ok() || !all->empty()) continue;
        } else if (!known->second.empty()) {
          continue;
        }
        if (Exists(engine_.fs, engine_.layout.AdoptedFolderDir(id))) engine_.adopted.StageRemoveFolder(change, id);
        // Its marker in its parent, when that is still there (the parent of a tree's
        // top folder), holds an id no folder has any more.
        if (auto place = IndexedPlace(*entry)) {
          FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, engine_.fs, engine_.layout, *place, id));
        }
      }
      storage::StageIndexRemoval(change, engine_.layout, id);
      const std::string type_id = TypeOf(id, *base, typed_dirs);
      if (*base != BaseType::kDocument) {
        change.Record(changes::Event("deleted", id, *base, type_id));
        continue;
      }
      change.Remove(engine_.layout.CheckedOutMarker(id));
      auto named = logged.find(id);
      if (named == logged.end()) {
        // Its "created" events are no longer kept: the series id stands for it.
        change.Record(changes::Event("deleted", id, *base, type_id));
      } else {
        for (const std::string& object_id : named->second)
          change.Record(changes::Event("deleted", object_id, *base, type_id));
      }
    }
    return OkStatus();
  });
}

std::string Vanished::TypeOf(const std::string& id, BaseType base, const std::vector<std::string>& typed_dirs) {
  for (const std::string& dir : typed_dirs) {
    if (Exists(engine_.fs, storage::JoinPath(engine_.layout.TypeUsageDir(), dir, id))) return UnescapeFileName(dir);
  }
  return std::string(BaseTypeId(base));
}

}  // namespace folio::repo::hand_edits
