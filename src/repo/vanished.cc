// Objects removed or moved by hand with their folder; see vanished.h.
#include "repo/vanished.h"

#include "repo/adopted_docs.h"

#include <algorithm>

#include "folio/cmis_ids.h"
#include "repo/adopter.h"
#include "repo/folder_markers.h"
#include "repo/locator.h"
#include "repo/staging.h"
#include "storage/id_index.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo {
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

bool Vanished::StillVanished(const std::string& id) {
  if (id.empty() || id == info_.root_folder_id || !Exists(fs_, layout_.IndexEntry(id))) return false;
  auto loc = locator_.Locate(id);
  if (loc.ok() || loc.status().kind() != ErrorKind::kObjectNotFound) return false;
  // Not found may also mean a record that cannot be read (damaged, or a failing disk):
  // that object is still there, and fsck's to tell. Gone is a record that is missing
  // where the entry says, or holds another object's id.
  auto entry = storage::ReadIndexEntry(fs_, layout_, id);
  if (!entry.ok()) return false;
  const auto base = BaseOfKind(entry->kind);
  if (!base) return false;
  const std::string parent = storage::ParentPath(entry->path);
  std::string record;
  const char* key = "id";
  switch (*base) {
    case BaseType::kFolder: record = layout_.FolderFile(entry->path); break;
    case BaseType::kDocument:
      record = layout_.SeriesFile(parent, entry->name);
      key = "seriesId";
      break;
    case BaseType::kItem: record = layout_.ItemFile(parent, entry->name); break;
    case BaseType::kRelationship: record = layout_.RelationshipFile(id); break;
  }
  auto json = records_.Read(record);
  if (json.ok()) return storage::StringOr(**json, key, "") != id;
  return json.status().Is(std::errc::no_such_file_or_directory) || json.status().Is(std::errc::not_a_directory);
}

Status Vanished::Absorb(const std::string& id) {
  if (committer_.read_only() || committer_.on_read_only_fs()) return OkStatus();
  if (!StillVanished(id)) return OkStatus();  // cheap: a lookup that fails for another reason costs no sweep
  if (sweeping_.exchange(true)) return OkStatus();
  struct Done {
    std::atomic<bool>& flag;
    ~Done() { flag = false; }
  } done{sweeping_};
  // A folder moved by hand is not gone: found first, it keeps its id.
  FOLIO_RETURN_IF_ERROR(FindMoved("", info_.root_folder_id, 0));
  if (!StillVanished(id)) return OkStatus();
  auto shards = fs_.List(layout_.IndexDir());
  if (!shards.ok()) return shards.status();
  std::vector<std::string> batch;
  for (const DirEntry& shard : *shards) {
    if (shard.type != FileType::kDirectory || storage::IsTempName(shard.name)) continue;
    auto entries = fs_.List(storage::JoinPath(layout_.IndexDir(), shard.name));
    if (!entries.ok()) {
      if (entries.status().Is(std::errc::no_such_file_or_directory)) continue;
      return entries.status();
    }
    for (const DirEntry& e : *entries) {
      auto other = storage::IdOfRecordFileName(e.name);
      if (!other || *other == id || !StillVanished(*other)) continue;
      batch.push_back(std::move(*other));
      if (batch.size() >= kAdoptionBatch) {
        FOLIO_RETURN_IF_ERROR(Forget(batch));
        batch.clear();
      }
    }
  }
  batch.push_back(id);
  return Forget(batch);
}

Status Vanished::FindMoved(const std::string& folder, const std::string& folder_id, int depth) {
  if (depth > kMaxWalkDepth) return OkStatus();
  auto entries = fs_.List(layout_.Dir(folder));
  if (!entries.ok()) return OkStatus();  // gone meanwhile: nothing moved into it
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kDirectory || storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) {
      continue;
    }
    const std::string path = storage::JoinPath(folder, e.name);
    // A directory made by hand is adopted, as its listing would (a moved folder may be
    // inside it).
    auto id = locator_.FolderIdAt(path);
    if (!id.ok()) continue;  // damaged or gone: fsck's to tell
    if (StillVanished(*id)) FOLIO_RETURN_IF_ERROR(Reidentify(path, *id, folder_id));
    FOLIO_RETURN_IF_ERROR(FindMoved(path, *id, depth + 1));
  }
  return OkStatus();
}

std::optional<std::string> Vanished::IndexedPlace(const storage::IndexEntry& entry) {
  if (entry.parent.empty()) return std::nullopt;
  auto parent = locator_.Locate(entry.parent);
  if (!parent.ok() || parent->base != BaseType::kFolder) return std::nullopt;
  return storage::JoinPath(parent->folder, entry.name);
}

Status Vanished::Reidentify(const std::string& path, const std::string& id, const std::string& parent_id) {
  return committer_.Run([&](storage::ChangeSet& change) -> Status {
    if (!StillVanished(id)) return OkStatus();
    auto rec = records_.ReadRecord(layout_.FolderFile(path));
    if (!rec.ok() || rec->id != id) return OkStatus();  // moved again meanwhile
    // Its marker moves too: the one at its old place goes (a folder made there since
    // keeps its own), one is written at its new place.
    if (auto entry = storage::ReadIndexEntry(fs_, layout_, id); entry.ok()) {
      if (auto old = IndexedPlace(*entry); old && *old != path) {
        FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, fs_, layout_, *old, id));
      }
    }
    storage::StageIndexEntry(change, layout_, id, {"folder", parent_id, storage::BaseName(path), path});
    FOLIO_RETURN_IF_ERROR(StageFolderMarker(change, staging_, path, id));
    change.Record(Event("updated", id, BaseType::kFolder, StoredTypeId(rec->properties, BaseType::kFolder)));
    return OkStatus();
  });
}

Status Vanished::Forget(const std::vector<std::string>& ids) {
  return committer_.Run([&](storage::ChangeSet& change) -> Status {
    std::vector<std::string> typed_dirs;
    if (auto dirs = fs_.List(layout_.TypeUsageDir()); dirs.ok()) {
      for (const DirEntry& d : *dirs) {
        if (d.type == FileType::kDirectory && !storage::IsTempName(d.name)) typed_dirs.push_back(d.name);
      }
    }
    for (const std::string& id : ids) {
      // Checked again under the lock: another process, or a change in flight, may have
      // forgotten or moved it since.
      if (!StillVanished(id)) continue;
      auto entry = storage::ReadIndexEntry(fs_, layout_, id);
      if (!entry.ok()) continue;
      const auto base = BaseOfKind(entry->kind);
      if (!base) continue;  // an entry of an unknown kind: fsck's to tell
      if (*base == BaseType::kFolder) {
        // Its marker in its parent, when that is still there (the parent of a tree's
        // top folder), holds an id no folder has any more.
        if (auto place = IndexedPlace(*entry)) {
          FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, fs_, layout_, *place, id));
        }
      }
      storage::StageIndexRemoval(change, layout_, id);
      if (*base == BaseType::kDocument) change.Remove(layout_.CheckedOutMarker(id));
      change.Record(Event("deleted", id, *base, TypeOf(id, *base, typed_dirs)));
    }
    return OkStatus();
  });
}

std::string Vanished::TypeOf(const std::string& id, BaseType base, const std::vector<std::string>& typed_dirs) {
  for (const std::string& dir : typed_dirs) {
    if (Exists(fs_, storage::JoinPath(layout_.TypeUsageDir(), dir, id))) return UnescapeFileName(dir);
  }
  return std::string(BaseTypeId(base));
}

}  // namespace folio::repo
