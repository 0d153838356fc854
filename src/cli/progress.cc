// The progress display; see progress.h.
#include "cli/progress.h"

#include <unistd.h>

#include <cmath>

#include "cli/inspect_render.h"

namespace folio::cli {

std::string Thousands(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

std::string Progress::Format(const std::string& verb, bool bar, uint64_t files, uint64_t total_files, uint64_t bytes,
                             uint64_t total_bytes, double seconds) {
  std::string out;
  // Bytes say more than files about the time left (a few large files dominate),
  // but a tree of empty files has no bytes: then files.
  const double fraction = total_bytes > 0   ? static_cast<double>(bytes) / static_cast<double>(total_bytes)
                          : total_files > 0 ? static_cast<double>(files) / static_cast<double>(total_files)
                                            : 1.0;
  if (bar) {
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(std::min(1.0, fraction) * kWidth);
    out = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] ";
  } else {
    out = verb + ": ";
  }
  out += Thousands(files) + "/" + Thousands(total_files) + " files  " + HumanSize(bytes) + "/" + HumanSize(total_bytes);
  if (seconds > 0.05) {
    out += "  " + HumanSize(static_cast<uint64_t>(static_cast<double>(bytes) / seconds)) + "/s  " +
           Thousands(static_cast<uint64_t>(static_cast<double>(files) / seconds)) + " files/s";
  }
  if (fraction >= 1.0) {
    out += "  " + Duration(seconds);
  } else if (fraction > 0 && seconds > 0.5) {
    out += "  ETA " + Duration(seconds * (1 - fraction) / fraction);
  }
  return out;
}

Progress::Progress(std::string verb, ProgressOptions options) : verb_(std::move(verb)), options_(options) {
  using Style = ProgressOptions::Style;
  if (options_.style == Style::kAuto) {
    options_.style = ::isatty(::fileno(options_.out)) ? Style::kBar : Style::kLines;
  }
  bar_ = options_.style == Style::kBar;
  start_ = std::chrono::steady_clock::now();
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Progress::SetTotals(uint64_t files, uint64_t bytes) {
  total_files_ = files;
  total_bytes_ = bytes;
}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::Start() {
  start_ = std::chrono::steady_clock::now();
  started_ = true;
  if (options_.style == ProgressOptions::Style::kNone) return;
  thread_ = std::thread([this] { Loop(); });
}

void Progress::Loop() {
  const auto interval = bar_ ? options_.bar_interval : options_.line_interval;
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, interval, [this] { return stop_; })) Print(false);
}

void Progress::Print(bool final) {
  const std::string text = Format(verb_, bar_, files(), total_files_, bytes(), total_bytes_, elapsed_seconds());
  if (bar_) {
    // \r and erase to the end of the line: the bar is redrawn in place.
    std::fprintf(options_.out, "\r%s\033[K%s", text.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(options_.out, "%s\n", text.c_str());
  }
  std::fflush(options_.out);
}

void Progress::Finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (started_ && options_.style != ProgressOptions::Style::kNone) Print(true);
}

}  // namespace folio::cli
