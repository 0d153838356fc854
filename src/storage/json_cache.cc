// Stat-validated JSON cache; see json_cache.h.
#include "storage/json_cache.h"

#include "storage/datetime.h"
#include "storage/json_footprint.h"

namespace folio::storage {

Result<std::shared_ptr<const Json>> JsonCache::Read(Fs& fs, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs.IdentityStat(path));
  if (st.type != FileType::kFile) {
    return StorageError("'" + path + "' is not a regular file", std::errc::no_such_file_or_directory);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(path);
    if (it != map_.end()) {
      const FileStat& c = it->second.stat;
      if (SameFileState(c, st)) {
        lru_.splice(lru_.begin(), lru_, it->second.lru);
        return it->second.json;
      }
      EraseLocked(it);
    }
  }
  // Read through the confined Open; remember the identity of what was read (read
  // again if it changed meanwhile: its inode may be reused).
  FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeRecord(fs, path, UINT64_MAX, &st));
  FOLIO_ASSIGN_OR_RETURN(Json parsed, ParseStoredJson(bytes, path));
  auto json = std::make_shared<const Json>(std::move(parsed));
  // Cache only what was stable before we read it (see the header on racy files).
  if (bytes.size() == st.size && !IsRacy(st.mtime_ns) && capacity_ > 0) {
    const uint64_t cost = CostOf(path, *json);
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.find(path) == map_.end()) InsertLocked(path, st, json, cost);
  }
  return json;
}

void JsonCache::Remember(const std::string& path, const FileStat& st, std::shared_ptr<const Json> json) {
  if (capacity_ == 0) return;
  const uint64_t cost = CostOf(path, *json);
  std::lock_guard<std::mutex> lock(mu_);
  InsertLocked(path, st, std::move(json), cost);
}

uint64_t JsonCache::CostOf(const std::string& path, const Json& json) {
  // The path is held twice (the map's key, the LRU list).
  return JsonFootprint(json) + 2 * (path.size() + 1) + kEntryOverhead;
}

void JsonCache::InsertLocked(const std::string& path, const FileStat& st, std::shared_ptr<const Json> json,
                             uint64_t cost) {
  auto it = map_.find(path);
  if (it != map_.end()) {
    bytes_ -= it->second.cost;
    it->second.stat = st;
    it->second.json = std::move(json);
    it->second.cost = cost;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
  } else {
    lru_.push_front(path);
    map_[path] = Entry{st, std::move(json), cost, lru_.begin()};
  }
  bytes_ += cost;
  while (map_.size() > 1 && (map_.size() > capacity_ || bytes_ > max_bytes_)) EraseLocked(map_.find(lru_.back()));
}

void JsonCache::EraseLocked(std::unordered_map<std::string, Entry>::iterator it) {
  bytes_ -= it->second.cost;
  lru_.erase(it->second.lru);
  map_.erase(it);
}

size_t JsonCache::size() {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.size();
}

uint64_t JsonCache::bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

std::shared_ptr<const Json> JsonCache::Peek(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(path);
  return it == map_.end() ? nullptr : it->second.json;
}

void JsonCache::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  map_.clear();
  lru_.clear();
  bytes_ = 0;
}

}  // namespace folio::storage
