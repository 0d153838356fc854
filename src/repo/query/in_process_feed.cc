// TEMPORARY in-memory change feed; see in_process_feed.h.
#include "repo/query/in_process_feed.h"

#include <unistd.h>

#include <chrono>
#include <random>

#include "storage/clock.h"

namespace folio::query {
namespace {

std::string NewFeedId() {
  std::random_device rd;
  const uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "process-" + std::to_string(::getpid()) + "-" + std::to_string(now) + "-" + std::to_string(r);
}

}  // namespace

InProcessFeed::InProcessFeed(size_t capacity) : id_(NewFeedId()), capacity_(capacity == 0 ? 1 : capacity) {}

uint64_t InProcessFeed::Append(ChangeType type, const std::string& object_id, BaseType base) {
  std::lock_guard<std::mutex> lock(mu_);
  ChangeEvent e;
  e.token = ++latest_;
  e.time_ms = storage::NowMs();
  e.type = type;
  e.object_id = object_id;
  e.base = base;
  events_.push_back(std::move(e));
  while (events_.size() > capacity_) events_.pop_front();
  return latest_;
}

Result<uint64_t> InProcessFeed::LatestToken() {
  std::lock_guard<std::mutex> lock(mu_);
  return latest_;
}

Result<ChangeBatch> InProcessFeed::ReadChanges(uint64_t after_token, size_t max) {
  std::lock_guard<std::mutex> lock(mu_);
  ChangeBatch batch;
  if (after_token >= latest_) return batch;
  const uint64_t oldest = events_.empty() ? latest_ + 1 : events_.front().token;
  if (after_token + 1 < oldest) {
    batch.gap = true;
    return batch;
  }
  for (size_t i = after_token + 1 - oldest; i < events_.size() && batch.events.size() < max; ++i) {
    batch.events.push_back(events_[i]);
  }
  return batch;
}

}  // namespace folio::query
