// A folder's children; see listings.h.
#include <algorithm>

#include "repo/lookup/listings.h"

#include <spdlog/spdlog.h>

#include "folio/cmis_ids.h"
#include "folio/repository.h"
#include "repo/engine.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/hand_edits/seen_edits.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "storage/datetime.h"
#include "storage/json_access.h"
#include "storage/lookup_scope.h"
#include "storage/name_rules.h"

namespace folio::repo::lookup {
namespace {

constexpr size_t kMaxCachedListings = 512;
constexpr size_t kMaxLoggedDamage = 4096;

}  // namespace

Result<std::shared_ptr<const Listing>> Listings::List(const std::string& folder) {
  const storage::LookupScope lookup;
  FOLIO_ASSIGN_OR_RETURN(FileStat dir_st, engine_.fs.Stat(engine_.layout.Dir(folder)));
  int64_t items_mtime = 0;
  auto items_st = engine_.fs.Stat(engine_.layout.ItemsDir(folder));
  if (items_st.ok()) items_mtime = items_st->mtime_ns;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(folder);
    if (it != cache_.end() && !it->second->racy && it->second->dir_mtime_ns == dir_st.mtime_ns &&
        it->second->dir_inode == dir_st.inode && it->second->items_mtime_ns == items_mtime) {
      return it->second;
    }
  }
  auto listing = std::make_shared<Listing>();
  listing->dir_mtime_ns = dir_st.mtime_ns;
  listing->dir_inode = dir_st.inode;
  listing->items_mtime_ns = items_mtime;
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, engine_.fs.List(engine_.layout.Dir(folder)));
  FOLIO_ASSIGN_OR_RETURN(const bool seen, SeeHandEdits(folder, entries));
  for (DirEntry& e : entries) {
    // Metadata, temp files, symlinks and special files are not objects.
    if (storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) continue;
    if (e.type == FileType::kDirectory) {
      listing->children.push_back({std::move(e.name), BaseType::kFolder});
    } else if (e.type == FileType::kFile) {
      listing->children.push_back({std::move(e.name), BaseType::kDocument});
    }
  }
  if (items_st.ok()) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> items, engine_.fs.List(engine_.layout.ItemsDir(folder)));
    for (DirEntry& e : items) {
      if (e.type == FileType::kDirectory && !storage::IsTempName(e.name)) {
        listing->children.push_back({std::move(e.name), BaseType::kItem});
      }
    }
  }
  std::sort(listing->children.begin(), listing->children.end(),
            [](const ListedChild& a, const ListedChild& b) { return a.name < b.name; });
  // A directory changed within the clock's granularity may change again unseen.
  listing->racy = storage::IsRacy(dir_st.mtime_ns) || storage::IsRacy(items_mtime);
  // One that met hand edits is read again once they are reconciled.
  if (!seen) {
    std::lock_guard<std::mutex> lock(mu_);
    if (cache_.size() >= kMaxCachedListings) cache_.clear();
    cache_[folder] = listing;
  }
  return std::shared_ptr<const Listing>(listing);
}

Result<bool> Listings::SeeHandEdits(const std::string& folder, const std::vector<DirEntry>& entries) {
  std::set<std::string_view> files;
  std::set<std::string> dirs;
  for (const DirEntry& e : entries) {
    if (e.type != FileType::kDirectory) {
      files.insert(e.name);
    } else if (!storage::IsReservedName(e.name) && storage::ValidateName(e.name).ok()) {
      dirs.insert(e.name);
    }
  }
  bool seen = false;
  std::set<std::string> series;
  auto series_dirs = engine_.fs.List(engine_.layout.DocsDir(folder));
  if (!series_dirs.ok() && !series_dirs.status().Is(std::errc::no_such_file_or_directory)) {
    return series_dirs.status();
  }
  for (DirEntry& e : series_dirs.ok() ? *series_dirs : std::vector<DirEntry>()) {
    if (!storage::IsTempName(e.name)) series.insert(std::move(e.name));
  }
  // Documents whose file is gone: series, and adopted documents (docs/STORAGE.md §4.1).
  std::vector<std::string> removed;
  for (const std::string& name : series) {
    if (files.count(name) == 0) removed.push_back(name);
  }
  FOLIO_ASSIGN_OR_RETURN(auto adopted, engine_.adopted.AllAt(folder));
  for (const auto& [name, doc] : adopted) {
    if (files.count(name) == 0) removed.push_back(name);
  }
  if (!removed.empty()) {
    FOLIO_RETURN_IF_ERROR(
        hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kRemovals, folder, std::move(removed), ""}));
    seen = seen || hand_edits::SeenEdits::Keeps(hand_edits::Sighting::Kind::kRemovals);
  }
  // Files added by hand, all of them at once: adopted before any child is built, so a
  // page is built once (in name order: the adoption's batches follow it).
  std::vector<std::string> added;
  for (const DirEntry& e : entries) {
    if (e.type != FileType::kFile || series.count(e.name) > 0 || adopted.count(e.name) > 0) continue;
    if (storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) continue;
    added.push_back(e.name);
  }
  if (!added.empty()) {
    std::sort(added.begin(), added.end());
    Status s =
        hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kAdoptDocuments, folder, std::move(added), ""});
    // Adoption that failed (a full disk, a read-only process out of memory for it) is
    // said by each child it leaves out; the listing goes on.
    if (hand_edits::IsReconcileFirst(s)) return s;
    seen = seen || hand_edits::SeenEdits::Keeps(hand_edits::Sighting::Kind::kAdoptDocuments);
  }
  // Subfolders against their markers (repo/hand_edits/folder_markers.h).
  const std::set<std::string> markers = hand_edits::ReadFolderMarkerNames(engine_.fs, engine_.layout, folder);
  bool markers_differ = false;
  for (const std::string& name : markers) {
    if (dirs.count(name) == 0) markers_differ = true;  // removed or moved by hand
  }
  for (const std::string& name : dirs) {
    const std::string path = storage::JoinPath(folder, name);
    if (!Exists(engine_.fs, engine_.layout.FolderFile(path))) {
      // Made by hand (also where a folder was, rm -r then mkdir: its marker stayed).
      FOLIO_RETURN_IF_ERROR(hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kAdoptFolder, path, {}, ""}));
      seen = seen || hand_edits::SeenEdits::Keeps(hand_edits::Sighting::Kind::kAdoptFolder);
    } else if (markers.count(name) == 0) {
      markers_differ = true;  // written before markers, or moved here by hand
    }
  }
  if (markers_differ) {
    FOLIO_RETURN_IF_ERROR(hand_edits::SeenEdits::Record({hand_edits::Sighting::Kind::kMarkers, folder, {}, ""}));
    seen = seen || hand_edits::SeenEdits::Keeps(hand_edits::Sighting::Kind::kMarkers);
  }
  return seen;
}

Status Listings::CheckNameFree(const std::string& folder, const std::string& name) {
  const storage::LookupScope lookup;
  FOLIO_RETURN_IF_ERROR(storage::ValidateName(name));
  FOLIO_RETURN_IF_ERROR(storage::ValidatePathLength(folder, name));
  for (const std::string& path : {engine_.layout.Child(folder, name), engine_.layout.SeriesDir(folder, name),
                                  engine_.layout.ItemDir(folder, name)}) {
    auto st = engine_.fs.Stat(path);
    if (st.ok()) {
      return NameConstraintViolation("an object named '" + name + "' exists in folder '/" + folder + "'");
    }
    if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
  }
  return OkStatus();
}

Status Listings::CheckTreeFits(const std::string& folder, const std::string& to_folder, const std::string& name) {
  const storage::LookupScope lookup;
  const std::string to = storage::JoinPath(to_folder, name);
  if (to.size() <= folder.size()) return OkStatus();  // nothing below it gets longer
  // The longest path below it, "/" included: one directory listing per folder.
  size_t longest = 0;
  std::vector<std::pair<std::string, size_t>> pending{{engine_.layout.Dir(folder), 0}};
  while (!pending.empty()) {
    auto [dir, depth] = std::move(pending.back());
    pending.pop_back();
    auto entries = engine_.fs.List(dir);
    if (!entries.ok()) {
      if (entries.status().Is(std::errc::no_such_file_or_directory)) continue;
      return entries.status();
    }
    for (const DirEntry& e : *entries) {
      if (storage::IsReservedName(e.name)) continue;
      const size_t length = depth + 1 + e.name.size();
      longest = std::max(longest, length);
      if (e.type == FileType::kDirectory) pending.emplace_back(storage::JoinPath(dir, e.name), length);
    }
  }
  return storage::ValidatePathLength(to_folder, name, longest);
}

std::unique_ptr<Directory> Listings::OpenFolderDir(const std::string& folder) {
  const storage::LookupScope lookup;
  auto dir = engine_.fs.OpenDirectory(engine_.layout.Dir(folder));
  return dir.ok() ? std::move(*dir) : nullptr;
}

Result<ObjectData> Listings::BuildChild(const std::string& folder, const ListedChild& c, Directory* folder_dir) {
  const storage::LookupScope lookup;
  const Repository::ReadOnce read_once;
  Target t;
  if (c.base == BaseType::kFolder) {
    const std::string path = storage::JoinPath(folder, c.name);
    FOLIO_ASSIGN_OR_RETURN(std::string id, engine_.locator.FolderIdAt(path));
    t.loc = Loc{BaseType::kFolder, id, path, c.name};
  } else if (c.base == BaseType::kItem) {
    t.loc = Loc{BaseType::kItem, "", folder, c.name};
  } else {
    FOLIO_ASSIGN_OR_RETURN(t, engine_.locator.DocumentTarget(folder, c.name, Locator::For::kListing));
    if (folder_dir != nullptr) {
      // What the builder compares with the document's records (an edit by hand); any
      // failure is left to its own stat, which says it as it always has.
      auto st = folder_dir->IdentityStat(c.name);
      if (st.ok()) t.loc.visible = *st;
    }
  }
  return engine_.builder.Build(t);
}

void Listings::LogDamaged(const std::string& object, const Status& why) {
  // Not damage but a read-only process out of memory for adoptions: the Adopter has
  // said so once, for every such object.
  if (why.Is(std::errc::not_enough_memory)) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (logged_damage_.size() >= kMaxLoggedDamage) logged_damage_.clear();
    if (!logged_damage_.insert(object + "\n" + why.message()).second) return;
  }
  spdlog::warn("repository '{}': object '{}' left out of an answer, it is damaged: {} "
               "(run folio fsck)",
               engine_.layout.base(), object, why.message());
}

void Listings::DropCaches() {
  std::lock_guard<std::mutex> lock(mu_);
  cache_.clear();
}

}  // namespace folio::repo::lookup
