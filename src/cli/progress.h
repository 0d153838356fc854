// Progress of a long command (import, export): a bar redrawn in place on a
// terminal, plain periodic lines otherwise (a log, a CI job), then one summary
// line. Counters are atomic: workers add, a reporter thread prints.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace folio::cli {

struct ProgressOptions {
  std::FILE* out = stderr;
  enum class Style { kAuto, kBar, kLines, kNone } style = Style::kAuto;  // kAuto: kBar on a terminal
  std::chrono::milliseconds bar_interval{200};
  std::chrono::milliseconds line_interval{5000};
};

// One progress display. Start() after the totals are known; Finish() prints the
// last state and stops the reporter thread (the destructor does too).
class Progress {
 public:
  Progress(std::string verb, ProgressOptions options);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void SetTotals(uint64_t files, uint64_t bytes);
  void Start();
  // A file done (copied, written, or found already there): counts it and its
  // bytes.
  void Add(uint64_t files, uint64_t bytes) {
    files_.fetch_add(files, std::memory_order_relaxed);
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }
  void Finish();

  uint64_t files() const { return files_.load(); }
  uint64_t bytes() const { return bytes_.load(); }
  double elapsed_seconds() const;

  // The text of one report (without line ending); for tests.
  // "[#######.............]  1,234/10,000 files  1.2/9.8 MiB  3.4 MiB/s  812
  // files/s  ETA 0:11"
  static std::string Format(const std::string& verb, bool bar, uint64_t files, uint64_t total_files, uint64_t bytes,
                            uint64_t total_bytes, double seconds);

 private:
  void Print(bool final);
  void Loop();

  std::string verb_;
  ProgressOptions options_;
  bool bar_ = false;
  std::atomic<uint64_t> files_{0}, bytes_{0};
  uint64_t total_files_ = 0, total_bytes_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool started_ = false;
  std::thread thread_;
};

// "1,234,567".
std::string Thousands(uint64_t n);
// 75 -> "1:15"; 3725 -> "1:02:05".
std::string Duration(double seconds);

}  // namespace folio::cli
