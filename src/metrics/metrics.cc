// Histograms and the process-wide commit-latency hook; see metrics.h.
#include "metrics/metrics.h"

#include <cstdio>

namespace folio::metrics {
namespace {

// Prometheus' text format writes numbers as Go does; %.17g round-trips any double, and
// the bucket bounds print short ("0.0005", "2.5", "10").
std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  std::string text(buf);
  char shorter[32];
  std::snprintf(shorter, sizeof(shorter), "%g", v);
  double back = 0;
  if (std::sscanf(shorter, "%lf", &back) == 1 && back == v) return shorter;
  return text;
}

Histogram& CommitHistogram() {
  static Histogram histogram;
  return histogram;
}

}  // namespace

void Histogram::Observe(double seconds) {
  if (!(seconds > 0)) seconds = 0;  // also NaN
  size_t i = 0;
  while (i < kBounds.size() && seconds > kBounds[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<uint64_t>(seconds * 1e9), std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot s;
  for (size_t i = 0; i < counts_.size(); ++i) {
    s.counts[i] = counts_[i].load(std::memory_order_relaxed);
    s.count += s.counts[i];
  }
  s.sum = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
  return s;
}

void AppendHistogram(std::string& out, std::string_view name, std::string_view labels,
                     const Histogram::Snapshot& snapshot) {
  const std::string prefix = labels.empty() ? "{" : "{" + std::string(labels) + ",";
  const std::string suffix = labels.empty() ? "" : "{" + std::string(labels) + "}";
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= Histogram::kBounds.size(); ++i) {
    cumulative += snapshot.counts[i];
    const std::string le = i < Histogram::kBounds.size() ? Number(Histogram::kBounds[i]) : "+Inf";
    out.append(name).append("_bucket").append(prefix).append("le=\"").append(le).append("\"} ");
    out.append(std::to_string(cumulative)).append("\n");
  }
  out.append(name).append("_sum").append(suffix).append(" ").append(Number(snapshot.sum)).append("\n");
  out.append(name).append("_count").append(suffix).append(" ").append(std::to_string(snapshot.count)).append("\n");
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void ObserveCommitLatency(double seconds) { CommitHistogram().Observe(seconds); }

const Histogram& CommitLatency() { return CommitHistogram(); }

}  // namespace folio::metrics
