// HttpMetrics and the /-/metrics text; see http_metrics.h.
#include "metrics/http_metrics.h"


namespace folio::metrics {
namespace {

void Header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void Sample(std::string& out, std::string_view name, uint64_t value) {
  out.append(name).append(" ").append(std::to_string(value)).append("\n");
}

}  // namespace

void HttpMetrics::ObserveRequest(std::string_view operation, int status, double seconds) {
  if (operation.empty()) operation = "none";
  static std::atomic<size_t> threads{0};
  static thread_local const size_t shard = threads.fetch_add(1, std::memory_order_relaxed) % kShards;
  Shard& s = shards_[shard];
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.operations.find(operation);
  if (it == s.operations.end()) it = s.operations.try_emplace(std::string(operation)).first;
  ++it->second.by_status[status];
  it->second.latency.Observe(seconds);
}

std::string HttpMetrics::Render() const {
  // The shards summed: operation -> status -> count, and operation -> latency.
  std::map<std::string, std::map<int, uint64_t>> requests;
  std::map<std::string, Histogram::Snapshot> latencies;
  for (Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    for (const auto& [operation, per] : shard.operations) {
      for (const auto& [status, count] : per.by_status) requests[operation][status] += count;
      const Histogram::Snapshot s = per.latency.Read();
      Histogram::Snapshot& sum = latencies[operation];
      for (size_t i = 0; i < s.counts.size(); ++i) sum.counts[i] += s.counts[i];
      sum.count += s.count;
      sum.sum += s.sum;
    }
  }
  std::string out;
  Header(out, "folio_http_requests_total", "counter", "HTTP requests answered, by operation and status.");
  for (const auto& [operation, by_status] : requests) {
    const std::string label = "operation=\"" + EscapeLabelValue(operation) + "\"";
    for (const auto& [status, count] : by_status) {
      out.append("folio_http_requests_total{").append(label).append(",status=\"").append(std::to_string(status));
      out.append("\"} ").append(std::to_string(count)).append("\n");
    }
  }
  Header(out, "folio_http_request_duration_seconds", "histogram",
         "Time from a request's first byte to its response's last, by operation.");
  for (const auto& [operation, snapshot] : latencies) {
    AppendHistogram(out, "folio_http_request_duration_seconds",
                             "operation=\"" + EscapeLabelValue(operation) + "\"", snapshot);
  }
  Header(out, "folio_http_open_connections", "gauge", "Client connections open now.");
  out.append("folio_http_open_connections ").append(std::to_string(open_connections())).append("\n");
  Header(out, "folio_http_connections_total", "counter", "Client connections accepted.");
  Sample(out, "folio_http_connections_total", accepted_.load(std::memory_order_relaxed));
  Header(out, "folio_http_received_bytes_total", "counter", "Bytes received from clients.");
  Sample(out, "folio_http_received_bytes_total", bytes_in_.load(std::memory_order_relaxed));
  Header(out, "folio_http_sent_bytes_total", "counter", "Bytes sent to clients.");
  Sample(out, "folio_http_sent_bytes_total", bytes_out_.load(std::memory_order_relaxed));
  Header(out, "folio_commit_duration_seconds", "histogram", "Time to commit a change to the repository.");
  AppendHistogram(out, "folio_commit_duration_seconds", "", CommitLatency().Read());
  return out;
}

}  // namespace folio::metrics
