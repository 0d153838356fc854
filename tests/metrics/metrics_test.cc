// Histograms and their Prometheus text (src/metrics/metrics.h), and the commit-latency
// hook the engine calls.
#include "metrics/metrics.h"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

namespace folio::metrics {
namespace {

TEST_CASE("Histogram: counts each duration in the first bucket that holds it") {
  Histogram h;
  h.Observe(0.0001);  // <= 0.0005
  h.Observe(0.0005);  // <= 0.0005 (bounds are inclusive, as Prometheus' le)
  h.Observe(0.003);   // <= 0.005
  h.Observe(42);      // +Inf
  h.Observe(-1);      // counted as 0
  const Histogram::Snapshot s = h.Read();
  CHECK(s.count == 5);
  CHECK(s.counts[0] == 3);
  CHECK(s.counts[3] == 1);
  CHECK(s.counts[Histogram::kBounds.size()] == 1);
  CHECK(s.sum == doctest::Approx(42.0036).epsilon(1e-6));
}

TEST_CASE("Histogram: concurrent observations are all counted") {
  Histogram h;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&h] {
      for (int i = 0; i < 10000; ++i) h.Observe(0.001);
    });
  }
  for (auto& t : threads) t.join();
  CHECK(h.Read().count == 40000);
  CHECK(h.Read().counts[1] == 40000);
}

TEST_CASE("AppendHistogram: cumulative buckets with le labels, sum and count") {
  Histogram h;
  h.Observe(0.002);
  h.Observe(7);
  std::string out;
  AppendHistogram(out, "x_seconds", "op=\"a\"", h.Read());
  CHECK(out.find("x_seconds_bucket{op=\"a\",le=\"0.0005\"} 0\n") != std::string::npos);
  CHECK(out.find("x_seconds_bucket{op=\"a\",le=\"0.0025\"} 1\n") != std::string::npos);
  CHECK(out.find("x_seconds_bucket{op=\"a\",le=\"5\"} 1\n") != std::string::npos);
  CHECK(out.find("x_seconds_bucket{op=\"a\",le=\"10\"} 2\n") != std::string::npos);
  CHECK(out.find("x_seconds_bucket{op=\"a\",le=\"+Inf\"} 2\n") != std::string::npos);
  CHECK(out.find("x_seconds_sum{op=\"a\"} 7.002\n") != std::string::npos);
  CHECK(out.find("x_seconds_count{op=\"a\"} 2\n") != std::string::npos);
  std::string bare;
  AppendHistogram(bare, "y", "", Histogram().Read());
  CHECK(bare.find("y_bucket{le=\"+Inf\"} 0\n") != std::string::npos);
  CHECK(bare.find("y_count 0\n") != std::string::npos);
  CHECK(EscapeLabelValue("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
}

TEST_CASE("ObserveCommitLatency: feeds the process-wide commit histogram") {
  const uint64_t before = CommitLatency().Read().count;
  ObserveCommitLatency(0.004);
  CHECK(CommitLatency().Read().count == before + 1);
}

}  // namespace
}  // namespace folio::metrics
