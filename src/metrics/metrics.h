// Process-wide metrics that any layer may feed, rendered by the HTTP layer at /-/metrics
// in the Prometheus text format. This library sits below every other (it depends on
// nothing), so the storage engine can report from where things happen.
//
// The hook for the engine: call ObserveCommitLatency(seconds) once per committed change
// (from the start of the change to its commit point being durable); /-/metrics then
// shows it as the histogram folio_commit_duration_seconds. To add another hook, add a
// Histogram (or a counter) here and a line to http/metrics.cc's rendering.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace folio::metrics {

// A histogram of durations in seconds over fixed buckets from 0.5 ms to 10 s.
// Thread-safe and lock-free: Observe is a few relaxed atomic adds.
class Histogram {
 public:
  // Upper bounds of the buckets, in seconds; a last bucket (+Inf) takes the rest.
  static constexpr std::array<double, 14> kBounds = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                     0.1,    0.25,  0.5,    1,     2.5,   5,    10};

  struct Snapshot {
    std::array<uint64_t, kBounds.size() + 1> counts{};  // per bucket, not cumulative
    uint64_t count = 0;
    double sum = 0;  // seconds
  };

  // Counts one duration; negative durations count as 0.
  void Observe(double seconds);
  Snapshot Read() const;

 private:
  std::array<std::atomic<uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<uint64_t> sum_ns_{0};
};

// Appends `snapshot` in the Prometheus text format as the series `name`_bucket (with
// cumulative counts and le="..."), `name`_sum and `name`_count. `labels` are extra
// labels without braces ("operation=\"getObject\"") or "". No HELP/TYPE lines.
void AppendHistogram(std::string& out, std::string_view name, std::string_view labels,
                     const Histogram::Snapshot& snapshot);

// `value` as a Prometheus label value: backslash, double quote and newline escaped.
std::string EscapeLabelValue(std::string_view value);

// Counts the latency of one committed change (see the file comment). Thread-safe.
void ObserveCommitLatency(double seconds);
// The histogram ObserveCommitLatency feeds.
const Histogram& CommitLatency();

}  // namespace folio::metrics
