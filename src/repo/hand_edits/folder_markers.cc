// Subfolder markers; see folder_markers.h.
#include "repo/hand_edits/folder_markers.h"

#include <cctype>

#include "repo/changes/staging.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopter.h"
#include "repo/hand_edits/vanished.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/record_reader.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {
namespace {

// Larger than any id (they are 17 characters): a file this long is not a marker.
constexpr size_t kMaxMarkerBytes = 256;

bool IsIndexedId(const std::string& id) {
  auto parsed = storage::ParseObjectId(id);
  return parsed && !parsed->label && parsed->base == id;
}

}  // namespace

std::optional<std::string> ReadFolderMarker(Fs& fs, const storage::RepoLayout& layout,
                                            const std::string& folder_path) {
  auto read = ReadWholeFile(fs, layout.FolderMarker(folder_path), kMaxMarkerBytes);
  if (!read.ok()) return std::nullopt;
  std::string& bytes = *read;
  while (!bytes.empty() && std::isspace(static_cast<unsigned char>(bytes.back()))) bytes.pop_back();
  if (!IsIndexedId(bytes)) return std::nullopt;
  return bytes;
}

Status StageFolderMarker(storage::ChangeSet& change, changes::Staging& staging, const std::string& folder_path,
                         const std::string& id) {
  Fs& fs = staging.fs();
  const storage::RepoLayout& layout = staging.layout();
  const std::string parent = storage::ParentPath(folder_path);
  for (const std::string& dir : {layout.FolderMeta(parent), layout.FolderMarkersDir(parent)}) {
    auto st = fs.Stat(dir);
    if (st.ok()) {
      if (st->type != FileType::kDirectory) return OkStatus();  // damaged: fsck's to tell
      continue;
    }
    if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
    change.MakeDir(dir);
  }
  const std::string marker = layout.FolderMarker(folder_path);
  auto st = fs.Stat(marker);
  if (st.ok() && st->type != FileType::kFile) return OkStatus();  // damaged: fsck's to tell
  if (!st.ok() && !st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
  change.Put(marker, id + "\n");
  return OkStatus();
}

Status StageFolderMarkerRemoval(storage::ChangeSet& change, Fs& fs, const storage::RepoLayout& layout,
                                const std::string& folder_path, const std::string& only_id) {
  const std::string marker = layout.FolderMarker(folder_path);
  auto st = fs.Stat(marker);
  if (!st.ok()) return IsMissing(st.status()) ? OkStatus() : st.status();
  if (!only_id.empty() && ReadFolderMarker(fs, layout, folder_path) != only_id) return OkStatus();
  change.Remove(marker, storage::Guard::Inode(*st));
  return OkStatus();
}

std::set<std::string> ReadFolderMarkerNames(Fs& fs, const storage::RepoLayout& layout, const std::string& folder) {
  std::set<std::string> names;
  auto entries = fs.List(layout.FolderMarkersDir(folder));
  if (!entries.ok()) return names;  // none (or unreadable: fsck's to tell)
  for (DirEntry& e : *entries) {
    if (!storage::IsReservedName(e.name)) names.insert(std::move(e.name));
  }
  return names;
}

Status FolderMarkers::Reconcile(const std::string& folder, const std::vector<DirEntry>& entries) {
  // Nothing on a read-only repository: nothing is written, nothing would be absorbed.
  if (engine_.committer.read_only() || engine_.committer.on_read_only_fs()) return OkStatus();
  std::set<std::string> dirs;
  for (const DirEntry& e : entries) {
    if (e.type == FileType::kDirectory && !storage::IsReservedName(e.name) && storage::ValidateName(e.name).ok()) {
      dirs.insert(e.name);
    }
  }
  std::set<std::string> names = ReadFolderMarkerNames(engine_.fs, engine_.layout, folder);
  bool absorbed = false;
  for (const std::string& name : names) {
    if (dirs.count(name)) continue;
    auto id = ReadFolderMarker(engine_.fs, engine_.layout, storage::JoinPath(folder, name));
    if (!id) continue;  // not a marker: stale
    // Removed or moved by hand: its objects' deletion, or its new place, is recorded
    // (which takes its marker away).
    FOLIO_RETURN_IF_ERROR(engine_.vanished.Absorb(*id));
    absorbed = true;
  }
  if (absorbed) names = ReadFolderMarkerNames(engine_.fs, engine_.layout, folder);
  RemoveStale(folder, names, dirs);
  return AddMissing(folder, names, dirs);
}

void FolderMarkers::RemoveStale(const std::string& folder, const std::set<std::string>& names,
                                const std::set<std::string>& dirs) {
  // A marker without its folder whose id is still vanished is being absorbed (by another
  // thread, or Absorb failed): it stays for the next listing to take in.
  auto stale = [&](const std::string& path) {
    auto id = ReadFolderMarker(engine_.fs, engine_.layout, path);
    return !id || (!engine_.vanished.StillVanished(*id) && !engine_.vanished.Misplaced(*id));
  };
  std::vector<std::string> gone;
  for (const std::string& name : names) {
    const std::string path = storage::JoinPath(folder, name);
    if (!dirs.count(name) && stale(path)) gone.push_back(path);
  }
  if (gone.empty()) return;
  // Bookkeeping only (see the header): a failure is left for the next listing.
  (void)engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    for (const std::string& path : gone) {
      // Checked again under the lock: a change in flight may have made the folder.
      auto st = engine_.fs.Stat(engine_.layout.Dir(path));
      if (st.ok() && st->type == FileType::kDirectory) continue;
      if (!stale(path)) continue;
      FOLIO_RETURN_IF_ERROR(StageFolderMarkerRemoval(change, engine_.fs, engine_.layout, path));
    }
    return OkStatus();
  });
}

Status FolderMarkers::AddMissing(const std::string& folder, const std::set<std::string>& names,
                                 const std::set<std::string>& dirs) {
  std::vector<std::pair<std::string, std::string>> missing;  // (path, id)
  for (const std::string& name : dirs) {
    if (names.count(name)) continue;
    const std::string path = storage::JoinPath(folder, name);
    // A directory made by hand has no record yet: adopted with its marker when built.
    auto id = engine_.records.FolderId(path);
    if (!id.ok() || id->empty()) continue;
    auto loc = engine_.locator.Locate(*id);
    if (loc.ok()) {
      // Indexed elsewhere: a copy of a folder (cp -r) holding its id, fsck's to tell.
      if (loc->folder == path) missing.emplace_back(path, *id);
      continue;
    }
    // Moved here by hand: brought to its new place, with its marker.
    if (loc.status().kind() == ErrorKind::kObjectNotFound) FOLIO_RETURN_IF_ERROR(engine_.vanished.Absorb(*id));
  }
  for (size_t from = 0; from < missing.size(); from += kAdoptionBatch) {
    const size_t to = std::min(missing.size(), from + kAdoptionBatch);
    Status s = engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
      for (size_t i = from; i < to; ++i) {
        const auto& [path, id] = missing[i];
        // Checked again under the lock: a change in flight may have moved or removed it.
        if (Exists(engine_.fs, engine_.layout.FolderMarker(path))) continue;
        auto now = engine_.records.FolderId(path);
        if (!now.ok() || *now != id) continue;
        FOLIO_RETURN_IF_ERROR(StageFolderMarker(change, engine_.staging, path, id));
      }
      return OkStatus();
    });
    // Bookkeeping only (see the header): a failure is left for the next listing.
    if (!s.ok()) break;
  }
  return OkStatus();
}

}  // namespace folio::repo::hand_edits
