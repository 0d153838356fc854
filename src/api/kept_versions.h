// The JSON of versions as getAllVersions wrote them, kept to be given again (docs/API.md
// §7.10): each under its key (repository, rendering, version id) with the stamp of what
// it was made of (repo/versions/version_reuse.h). Given again only for an equal stamp,
// so an answer is the same as one built afresh. Bounded in bytes; thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/render.h"

namespace folio::api {

class KeptVersions {
 public:
  static constexpr size_t kDefaultMaxBytes = 8u << 20;
  explicit KeptVersions(size_t max_bytes = kDefaultMaxBytes) : max_bytes_(max_bytes) {}

  // The JSON kept under `key` when it was kept with `stamp`; null otherwise. Shared, not
  // copied: it stays valid, unchanged, while the caller holds it (dropped or replaced
  // here meanwhile, it is freed with the caller's last reference).
  std::shared_ptr<const std::string> Find(const std::string& key, std::string_view stamp);
  // Keeps `json` under `key` with `stamp` (in place of what was kept under it). When
  // the bytes kept would pass the bound, everything kept before is dropped first.
  void Keep(const std::string& key, std::string_view stamp, std::string_view json);

 private:
  struct Kept {
    std::string stamp;
    std::shared_ptr<const std::string> json;
  };
  static size_t Bytes(const std::string& key, const Kept& k) { return key.size() + k.stamp.size() + k.json->size() + 64; }
  const size_t max_bytes_;
  std::mutex mu_;
  std::unordered_map<std::string, Kept> kept_;
  size_t bytes_ = 0;
};

// What a rendered object depends on besides the object: the variant, the form, the
// date format and the filter, as a string (equal options, equal strings).
std::string RenderingKey(const RenderOptions& options);

}  // namespace folio::api
