// Background work that yields to requests; see foreground.h.
#include "repo/query/foreground.h"

#include <algorithm>
#include <thread>

namespace folio::query {

int64_t Foreground::NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Foreground::Touch() {
  // Written at most once a millisecond: every request thread touches this one cache
  // line, and a read of it does not take the line from the other cores as a write does.
  const int64_t now = NowNs();
  if (now - last_touch_ns_.load(std::memory_order_relaxed) >= kTouchGranularityNs) {
    last_touch_ns_.store(now, std::memory_order_relaxed);
  }
}

void Foreground::Pause(const std::atomic<bool>& stop, const std::function<bool()>& urgent) const {
  using std::chrono::nanoseconds;
  const int64_t quiet = nanoseconds(timing_.quiet).count();
  const int64_t start = NowNs();
  if (start < run_until_ns_.load(std::memory_order_relaxed)) return;  // its turn after a long wait
  bool waited = false;
  for (int64_t now = start;; now = NowNs()) {
    const int64_t quiet_for = now - last_touch_ns_.load(std::memory_order_relaxed);
    if (stop || quiet_for >= quiet || (urgent && urgent())) break;
    if (now - start >= nanoseconds(timing_.max_pause).count()) {
      run_until_ns_.store(now + nanoseconds(timing_.min_run).count(), std::memory_order_relaxed);
      break;
    }
    waited = true;
    std::this_thread::sleep_for(std::min<nanoseconds>(nanoseconds(quiet - quiet_for), std::chrono::milliseconds(10)));
  }
  if (waited) {
    pauses_.fetch_add(1, std::memory_order_relaxed);
    paused_ms_.fetch_add(static_cast<uint64_t>((NowNs() - start) / 1000000), std::memory_order_relaxed);
  }
}

}  // namespace folio::query
