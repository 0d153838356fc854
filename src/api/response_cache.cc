// Answers kept for reuse; see response_cache.h.
#include "api/response_cache.h"

#include "repo/acl/secrets.h"

namespace folio::api {

ResponseCache::ResponseCache(size_t max_entries, size_t max_body)
    : max_per_shard_(std::max<size_t>(1, max_entries / kShards)), max_body_(max_body) {}

std::string ResponseCache::KeyFor(std::string_view target, std::string_view authorization, std::string_view api_key) {
  if (authorization.empty() && api_key.empty()) return std::string(target);
  // The digest's key is made once per process: no request target names another
  // caller's answer.
  std::string key(target);
  key.push_back('\0');
  key += acl::ProcessDigest({"response-cache", authorization, api_key});
  return key;
}

ResponseCache::Shard& ResponseCache::ShardOf(std::string_view target) {
  return shards_[std::hash<std::string_view>()(target) % kShards];
}

std::shared_ptr<const ResponseCache::Answer> ResponseCache::Find(std::string_view target) {
  Shard& shard = ShardOf(target);
  std::shared_ptr<const Answer> answer;
  {
    std::lock_guard<std::mutex> lock(shard.mu);
    // (C++20's heterogeneous lookup needs a transparent hash; one string per lookup is
    // cheap next to the check.)
    auto it = shard.answers.find(std::string(target));
    if (it != shard.answers.end()) answer = it->second;
  }
  // The check runs outside the lock: it reads the repository.
  if (answer && answer->still_valid()) {
    ++hits_;
    return answer;
  }
  ++misses_;
  if (answer) {
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.answers.find(std::string(target));
    if (it != shard.answers.end() && it->second == answer) shard.answers.erase(it);
  }
  return nullptr;
}

void ResponseCache::Put(std::string_view target, Answer answer) {
  if (!answer.still_valid || answer.body.size() > max_body_) return;
  auto kept = std::make_shared<const Answer>(std::move(answer));
  Shard& shard = ShardOf(target);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.answers.find(std::string(target));
  if (it != shard.answers.end()) {
    it->second = std::move(kept);
    return;
  }
  if (shard.answers.size() >= max_per_shard_) shard.answers.erase(shard.answers.begin());
  shard.answers.emplace(std::string(target), std::move(kept));
}

size_t ResponseCache::size() const {
  size_t n = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    n += shard.answers.size();
  }
  return n;
}

}  // namespace folio::api
