// Small helpers of the benchmarks: timing, medians, resident memory, the directory-walk
// baseline and the results table. Nothing here knows the Folio format.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace folio::bench {

// Monotonic time in nanoseconds.
inline int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The median of `values` (the mean of the two middle ones for an even count); 0 if empty.
double Median(std::vector<double> values);
// The index of the median of `values` (the lower one for an even count), so that a
// ratio and the two figures it came from can be reported together. Requires: not empty.
size_t MedianIndex(const std::vector<double>& values);

// A field of /proc/self/status in kB ("VmRSS", "VmHWM"); -1 if it cannot be read.
int64_t ProcStatusKb(const std::string& field);

// Walks the tree below the host path `root` without following symlinks, lstat-ing
// every entry (nftw with FTW_PHYS). Returns the number of entries; -1 on error.
int64_t WalkTree(const std::string& root);

// "1.23 s", "456 ms", "7.8 us" for a duration in nanoseconds.
std::string FormatNs(double ns);
// "12.3 MB" for kilobytes.
std::string FormatKb(int64_t kb);
// `value` with `digits` decimals.
std::string FormatFixed(double value, int digits);

// The results table: what, Folio figure, baseline figure, ratio, target, verdict.
struct Row {
  std::string what;
  std::string folio;
  std::string baseline;
  std::string ratio;
  std::string target;
  std::string verdict;  // PASS, FAIL or "info"
};
// The rows as an aligned plain-text table (also valid Markdown).
std::string FormatTable(const std::vector<Row>& rows);

}  // namespace folio::bench
