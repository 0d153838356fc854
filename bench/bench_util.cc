// Timing, memory, walk and table helpers; see bench_util.h.
#include "bench_util.h"

#include <ftw.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace folio::bench {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

size_t MedianIndex(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  return order[(order.size() - 1) / 2];
}

int64_t ProcStatusKb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = field + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return std::stoll(line.substr(prefix.size()));
  }
  return -1;
}

namespace {

// nftw takes a plain function; the count lives here. WalkTree is not reentrant.
std::atomic<int64_t> walk_entries{0};

int CountEntry(const char* /*path*/, const struct stat* /*st*/, int /*flag*/, struct FTW* /*ftw*/) {
  walk_entries.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

}  // namespace

int64_t WalkTree(const std::string& root) {
  walk_entries = 0;
  if (::nftw(root.c_str(), CountEntry, 64, FTW_PHYS) != 0) return -1;
  return walk_entries.load();
}

std::string FormatFixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

std::string FormatNs(double ns) {
  if (ns >= 1e9) return FormatFixed(ns / 1e9, 2) + " s";
  if (ns >= 1e6) return FormatFixed(ns / 1e6, ns >= 1e8 ? 0 : 2) + " ms";
  if (ns >= 1e3) return FormatFixed(ns / 1e3, ns >= 1e5 ? 0 : 1) + " us";
  return FormatFixed(ns, 0) + " ns";
}

std::string FormatKb(int64_t kb) { return FormatFixed(static_cast<double>(kb) / 1024.0, 1) + " MB"; }

std::string FormatTable(const std::vector<Row>& rows) {
  const std::vector<std::string> header = {"what", "Folio", "baseline", "ratio", "target", "result"};
  std::vector<std::vector<std::string>> cells = {header};
  for (const Row& r : rows) cells.push_back({r.what, r.folio, r.baseline, r.ratio, r.target, r.verdict});
  std::vector<size_t> width(header.size(), 0);
  for (const auto& line : cells) {
    for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  }
  std::ostringstream out;
  auto emit = [&](const std::vector<std::string>& line) {
    out << "|";
    for (size_t i = 0; i < line.size(); ++i) out << " " << line[i] << std::string(width[i] - line[i].size(), ' ') << " |";
    out << "\n";
  };
  emit(cells[0]);
  out << "|";
  for (size_t w : width) out << std::string(w + 2, '-') << "|";
  out << "\n";
  for (size_t i = 1; i < cells.size(); ++i) emit(cells[i]);
  return out.str();
}

}  // namespace folio::bench
