// Requests come first: the server's background work (the query indexes' first builds)
// goes on between steps only once no request has been served for a moment. A first
// build reads every document of a repository; run beside the first requests after a
// start, it took a third of the cores from them and made the data directory's first
// listing half again as slow (bench/RESULTS.md), although it runs niced
// (query_indexes.h).
//
// Thread-safe: requests Touch from any thread; background threads Pause.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

namespace folio::query {

class Foreground {
 public:
  struct Timing {
    // Background work waits until no request has begun or made progress for this long.
    std::chrono::milliseconds quiet{200};
    // It never waits longer than this at once; after such a wait it goes on for
    // `min_run` without waiting, so that a server never left alone still gets its
    // index built (at a fifth of the pace).
    std::chrono::milliseconds max_pause{1000};
    std::chrono::milliseconds min_run{250};
  };

  Foreground() : Foreground(Timing{}) {}
  explicit Foreground(Timing timing) : timing_(timing) {}
  Foreground(const Foreground&) = delete;
  Foreground& operator=(const Foreground&) = delete;

  // A request began, or produced a part of its answer. A clock read and an atomic load;
  // a store at most once a millisecond.
  void Touch();
  // Returns once the server has been quiet for `quiet`, or at once when `urgent()` is
  // true (a request waits for this very work: pausing it would only make that request
  // wait longer) or `stop` is set, or after `max_pause` (see Timing). Looks every 10 ms
  // at most. `urgent` may be empty.
  void Pause(const std::atomic<bool>& stop, const std::function<bool()>& urgent) const;

  // How many times Pause has waited, and for how long in all (tests, logs).
  uint64_t pauses() const { return pauses_.load(std::memory_order_relaxed); }
  std::chrono::milliseconds paused() const {
    return std::chrono::milliseconds(paused_ms_.load(std::memory_order_relaxed));
  }

 private:
  static int64_t NowNs();
  static constexpr int64_t kTouchGranularityNs = 1000000;

  const Timing timing_;
  std::atomic<int64_t> last_touch_ns_{INT64_MIN / 2};  // long ago: quiet from the start
  mutable std::atomic<int64_t> run_until_ns_{INT64_MIN / 2};
  mutable std::atomic<uint64_t> pauses_{0};
  mutable std::atomic<uint64_t> paused_ms_{0};
};

}  // namespace folio::query
