// A folder's children; see listings.h.
#include <algorithm>

#include "repo/listings.h"

#include <spdlog/spdlog.h>

#include "folio/cmis_ids.h"
#include "folio/repository.h"
#include "repo/adopted_docs.h"
#include "repo/adopter.h"
#include "repo/folder_markers.h"
#include "repo/locator.h"
#include "repo/object_builder.h"
#include "storage/datetime.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

constexpr size_t kMaxCachedListings = 512;
constexpr size_t kMaxLoggedDamage = 4096;

}  // namespace

Result<std::shared_ptr<const Listing>> Listings::List(const std::string& folder) {
  FOLIO_ASSIGN_OR_RETURN(FileStat dir_st, fs_.Stat(layout_.Dir(folder)));
  int64_t items_mtime = 0;
  auto items_st = fs_.Stat(layout_.ItemsDir(folder));
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
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, fs_.List(layout_.Dir(folder)));
  FOLIO_RETURN_IF_ERROR(AbsorbRemovals(folder, entries));
  FOLIO_RETURN_IF_ERROR(markers_.Reconcile(folder, entries));
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
    FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> items, fs_.List(layout_.ItemsDir(folder)));
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
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cache_.size() >= kMaxCachedListings) cache_.clear();
    cache_[folder] = listing;
  }
  return std::shared_ptr<const Listing>(listing);
}

Status Listings::AbsorbRemovals(const std::string& folder, const std::vector<DirEntry>& entries) {
  std::set<std::string_view> files;
  for (const DirEntry& e : entries) {
    if (e.type != FileType::kDirectory) files.insert(e.name);
  }
  std::vector<std::string> removed;
  auto series = fs_.List(layout_.DocsDir(folder));
  if (!series.ok() && !series.status().Is(std::errc::no_such_file_or_directory)) return series.status();
  for (const DirEntry& s : series.ok() ? *series : std::vector<DirEntry>()) {
    if (!storage::IsTempName(s.name) && files.count(s.name) == 0) removed.push_back(s.name);
  }
  // Adopted documents (docs/STORAGE.md §4.1) whose file is gone.
  FOLIO_ASSIGN_OR_RETURN(auto adopted, adopted_.AllAt(folder));
  for (const auto& [name, doc] : adopted) {
    if (files.count(name) == 0) removed.push_back(name);
  }
  return adopter_.AbsorbHandRemovals(folder, removed);
}

Status Listings::CheckNameFree(const std::string& folder, const std::string& name) {
  FOLIO_RETURN_IF_ERROR(storage::ValidateName(name));
  FOLIO_RETURN_IF_ERROR(storage::ValidatePathLength(folder, name));
  for (const std::string& path : {layout_.Child(folder, name), layout_.SeriesDir(folder, name),
                                  layout_.ItemDir(folder, name)}) {
    auto st = fs_.Stat(path);
    if (st.ok()) {
      return NameConstraintViolation("an object named '" + name + "' exists in folder '/" + folder + "'");
    }
    if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
  }
  return OkStatus();
}

Status Listings::CheckTreeFits(const std::string& folder, const std::string& to_folder, const std::string& name) {
  const std::string to = storage::JoinPath(to_folder, name);
  if (to.size() <= folder.size()) return OkStatus();  // nothing below it gets longer
  // The longest path below it, "/" included: one directory listing per folder.
  size_t longest = 0;
  std::vector<std::pair<std::string, size_t>> pending{{layout_.Dir(folder), 0}};
  while (!pending.empty()) {
    auto [dir, depth] = std::move(pending.back());
    pending.pop_back();
    auto entries = fs_.List(dir);
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

Result<ObjectData> Listings::BuildChild(const std::string& folder, const ListedChild& c) {
  const Repository::ReadOnce read_once;
  Target t;
  if (c.base == BaseType::kFolder) {
    const std::string path = storage::JoinPath(folder, c.name);
    FOLIO_ASSIGN_OR_RETURN(std::string id, locator_.FolderIdAt(path));
    t.loc = Loc{BaseType::kFolder, id, path, c.name};
  } else if (c.base == BaseType::kItem) {
    t.loc = Loc{BaseType::kItem, "", folder, c.name};
  } else {
    FOLIO_ASSIGN_OR_RETURN(t, locator_.DocumentTarget(folder, c.name));
  }
  return builder_.Build(t);
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
               layout_.base(), object, why.message());
}

void Listings::DropCaches() {
  std::lock_guard<std::mutex> lock(mu_);
  cache_.clear();
}

}  // namespace folio::repo
