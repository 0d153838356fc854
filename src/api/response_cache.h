// Answers kept for reuse: the hot read path. An answer whose operation allows it
// (api::Response::still_valid: getObject of a document) is kept under the request's
// target (path and query, byte for byte) and credentials (KeyFor); the same GET or HEAD
// with the same credentials is then answered from here without parsing its parameters,
// authenticating, resolving its operation or rendering the object, once the answer's
// check (one lookup by the repository, which validates what it holds by file identity,
// so that writes by this process, by another process and edits by hand are all seen)
// says that the object is still the one the answer was made of and that the
// credentials still stand for the caller it was made for (docs/API.md §11.2). A
// request with a body never uses it (http/server.cc).
//
// Bounded: at most `max_entries` answers of at most `max_body` bytes each (a getObject
// answer is 1-3 KiB: about 4 MB for 2,048 of them, 32 MB at the very worst). Each answer
// holds its object (shared with the repository's memo) alive. Thread-safe.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace folio::api {

class ResponseCache {
 public:
  struct Answer {
    int status = 200;
    std::string content_type;
    std::string body;
    std::string operation;               // for the request log and the metrics
    std::function<bool()> still_valid;   // api::Response::still_valid
  };

  explicit ResponseCache(size_t max_entries = 2048, size_t max_body = 16 * 1024);

  // The key of the answer to `target` for the credentials `authorization` (the
  // Authorization header) and `api_key` (X-API-KEY): `target` itself without
  // credentials; with them, `target` and a keyed digest of both (never the clear
  // credentials), so that only the same credentials find the answer. The answer's check
  // says for how long they stand for the caller it was made for.
  static std::string KeyFor(std::string_view target, std::string_view authorization, std::string_view api_key);

  // The answer kept for `target` if its check says it is still valid; a stale answer is
  // dropped (nullptr).
  std::shared_ptr<const Answer> Find(std::string_view target);
  // Keeps `answer` for `target`, replacing what was there. An answer without a check,
  // or with a body over max_body, is not kept. When full, some other answer goes.
  void Put(std::string_view target, Answer answer);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }  // a lookup found nothing, or a stale answer
  size_t size() const;

 private:
  static constexpr size_t kShards = 16;
  struct Shard {
    mutable std::mutex mu;
    std::unordered_map<std::string, std::shared_ptr<const Answer>> answers;  // guarded by mu
  };
  Shard& ShardOf(std::string_view target);

  const size_t max_per_shard_;
  const size_t max_body_;
  std::array<Shard, kShards> shards_;
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

}  // namespace folio::api
