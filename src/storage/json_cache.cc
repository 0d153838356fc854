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
  if (auto kept = memo_.Find(path, st)) return kept;
  // Read through the confined Open; remember the identity of what was read (read
  // again if it changed meanwhile: its inode may be reused).
  FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeRecord(fs, path, UINT64_MAX, &st));
  FOLIO_ASSIGN_OR_RETURN(Json parsed, ParseStoredJson(bytes, path));
  auto json = std::make_shared<const Json>(std::move(parsed));
  // Cache only what was stable before we read it (see the header on racy files).
  if (bytes.size() == st.size && !IsRacy(st.mtime_ns)) memo_.Offer(path, st, json, CostOf(path, *json));
  return json;
}

void JsonCache::Remember(const std::string& path, const FileStat& st, std::shared_ptr<const Json> json) {
  const uint64_t cost = CostOf(path, *json);
  memo_.Keep(path, st, std::move(json), cost);
}

uint64_t JsonCache::CostOf(const std::string& path, const Json& json) {
  // The path is held twice (the map's key, the LRU list).
  return JsonFootprint(json) + 2 * (path.size() + 1) + kEntryOverhead;
}

size_t JsonCache::size() { return memo_.size(); }

uint64_t JsonCache::bytes() { return memo_.bytes(); }

std::shared_ptr<const Json> JsonCache::Peek(const std::string& path) { return memo_.Peek(path); }

void JsonCache::Clear() { memo_.Clear(); }

}  // namespace folio::storage
