// The resident memory of this process, for tests that a hostile request cannot make the
// server (which runs in the test process) hold what the client sends.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace folio::testing {

// VmRSS from /proc/self/status, in KiB; 0 when unreadable.
inline long ResidentKb() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, "VmRSS:", 6) == 0) kb = std::atol(line + 6);
  }
  std::fclose(f);
  return kb;
}

// Samples the resident memory every 2 ms from construction until Stop(): its peak above
// the level at construction.
class PeakRss {
 public:
  PeakRss() : base_(ResidentKb()), peak_(base_) {
    thread_ = std::thread([this] {
      while (!stop_) {
        const long kb = ResidentKb();
        if (kb > peak_) peak_ = kb;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~PeakRss() { Stop(); }
  // The growth of the peak over the start, in MiB.
  double Stop() {
    if (thread_.joinable()) {
      stop_ = true;
      thread_.join();
    }
    return static_cast<double>(peak_ - base_) / 1024.0;
  }
  long base_kb() const { return base_; }

 private:
  long base_;
  std::atomic<long> peak_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace folio::testing
