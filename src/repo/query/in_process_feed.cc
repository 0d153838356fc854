// TEMPORARY change feed of one process; see in_process_feed.h.
#include "repo/query/in_process_feed.h"

#include <unistd.h>

#include <chrono>
#include <random>

namespace folio::query {
namespace {

std::string NewFeedId() {
  std::random_device rd;
  const uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "process-" + std::to_string(::getpid()) + "-" + std::to_string(now) + "-" + std::to_string(r);
}

}  // namespace

InProcessFeed::InProcessFeed() : id_(NewFeedId()) {}

}  // namespace folio::query
