// The HTTP server's metrics (docs/API.md, "/-/metrics"): requests by operation and status,
// latency by operation, open connections, bytes in and out; rendered with the process-wide
// metrics of metrics.h (the commit latency) in the Prometheus text format.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "metrics/metrics.h"

namespace folio::metrics {

// One per server. Thread-safe: counters are atomics; the per-operation tables are split
// in shards by thread, so that workers counting at once do not wait on each other.
class HttpMetrics {
 public:
  void ConnectionOpened() { open_.fetch_add(1, std::memory_order_relaxed); accepted_.fetch_add(1, std::memory_order_relaxed); }
  void ConnectionClosed() { open_.fetch_sub(1, std::memory_order_relaxed); }
  void AddBytesIn(uint64_t n) { bytes_in_.fetch_add(n, std::memory_order_relaxed); }
  void AddBytesOut(uint64_t n) { bytes_out_.fetch_add(n, std::memory_order_relaxed); }
  // One answered request: `operation` is the operation's name ("" when none ran: it is
  // shown as "none"), `status` the HTTP status sent.
  void ObserveRequest(std::string_view operation, int status, double seconds);

  int64_t open_connections() const { return open_.load(std::memory_order_relaxed); }

  // Everything, in the Prometheus text exposition format 0.0.4.
  std::string Render() const;

 private:
  struct PerOperation {
    std::map<int, uint64_t> by_status;
    Histogram latency;
  };
  struct Shard {
    std::mutex mu;
    std::map<std::string, PerOperation, std::less<>> operations;  // guarded by mu
  };
  static constexpr size_t kShards = 8;

  std::atomic<int64_t> open_{0};
  std::atomic<uint64_t> accepted_{0};
  std::atomic<uint64_t> bytes_in_{0};
  std::atomic<uint64_t> bytes_out_{0};
  mutable std::array<Shard, kShards> shards_;
};

}  // namespace folio::metrics
