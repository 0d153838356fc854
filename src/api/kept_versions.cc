// Kept getAllVersions JSON; see kept_versions.h.
#include "api/kept_versions.h"

namespace folio::api {

std::shared_ptr<const std::string> KeptVersions::Find(const std::string& key, std::string_view stamp) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = kept_.find(key);
  if (it == kept_.end() || it->second.stamp != stamp) return nullptr;
  return it->second.json;
}

void KeptVersions::Keep(const std::string& key, std::string_view stamp, std::string_view json) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = kept_.find(key);
  if (it != kept_.end()) {
    bytes_ -= Bytes(it->first, it->second);
    kept_.erase(it);
  }
  Kept k{std::string(stamp), std::make_shared<const std::string>(json)};
  const size_t bytes = Bytes(key, k);
  if (bytes > max_bytes_) return;
  if (bytes_ + bytes > max_bytes_) {
    kept_.clear();
    bytes_ = 0;
  }
  bytes_ += bytes;
  kept_.emplace(key, std::move(k));
}

std::string RenderingKey(const RenderOptions& options) {
  std::string key;
  key += options.variant == Variant::kA ? 'A' : 'B';
  key += options.succinct ? 's' : 'd';
  key += options.extended_dates ? 'x' : 'm';
  if (options.filter) {
    for (const std::string& id : *options.filter) key.append(",").append(id);
  } else {
    key += '*';
  }
  return key;
}

}  // namespace folio::api
