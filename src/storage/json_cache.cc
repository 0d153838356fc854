// Stat-validated JSON cache; see json_cache.h.
#include "storage/json_cache.h"

#include "storage/json_footprint.h"

namespace folio::storage {

Result<std::shared_ptr<const Json>> JsonCache::Read(Fs& fs, const std::string& path) {
  return memo_.Read(fs, path, [&](std::string_view bytes) -> Result<FileMemo<Json>::Made> {
    FOLIO_ASSIGN_OR_RETURN(Json parsed, ParseStoredJson(bytes, path));
    auto json = std::make_shared<const Json>(std::move(parsed));
    const uint64_t cost = CostOf(path, *json);
    return FileMemo<Json>::Made(std::move(json), cost);
  });
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
