// Foreground: background work waits for a quiet moment, never for a request that waits
// for it, and never for ever.
#include "repo/query/foreground.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace folio::query {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

// Requests served one after the other while it lives: `fg` is touched now, then every
// 2 ms by a thread of its own.
class Requests {
 public:
  explicit Requests(Foreground& fg) : fg_(fg) {
    fg_.Touch();  // before the first Pause, whenever the thread starts
    thread_ = std::thread([this] {
      while (serving_) {
        fg_.Touch();
        std::this_thread::sleep_for(milliseconds(2));
      }
    });
  }
  ~Requests() {
    serving_ = false;
    thread_.join();
  }
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;

 private:
  Foreground& fg_;
  std::atomic<bool> serving_{true};
  std::thread thread_;
};

// Timings far apart, so that a loaded machine cannot mistake one for another.
Foreground::Timing Slow() { return Foreground::Timing{milliseconds(300), milliseconds(60000), milliseconds(0)}; }

TEST_CASE("Foreground: quiet from the start: Pause returns at once") {
  const Foreground fg(Slow());
  const std::atomic<bool> stop{false};
  const auto start = Clock::now();
  fg.Pause(stop, {});
  CHECK(Since(start) < milliseconds(250));
  CHECK(fg.pauses() == 0);
}

TEST_CASE("Foreground: after a request, Pause waits until it has been quiet that long") {
  Foreground fg(Slow());
  const std::atomic<bool> stop{false};
  fg.Touch();
  const auto start = Clock::now();
  fg.Pause(stop, {});
  CHECK(Since(start) >= milliseconds(290));
  CHECK(fg.pauses() == 1);
  CHECK(fg.paused() >= milliseconds(290));
}

TEST_CASE("Foreground: a request that waits for the work, or a stop, ends the pause") {
  Foreground fg(Slow());
  std::atomic<bool> stop{false};
  const Requests requests(fg);
  std::atomic<bool> waiting{false};
  std::thread waiter([&] {
    std::this_thread::sleep_for(milliseconds(100));
    waiting = true;
  });
  auto start = Clock::now();
  fg.Pause(stop, [&] { return waiting.load(); });
  CHECK(Since(start) < milliseconds(30000));  // not max_pause (60 s)
  CHECK(waiting);
  waiter.join();
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(100));
    stop = true;
  });
  start = Clock::now();
  fg.Pause(stop, {});
  CHECK(Since(start) < milliseconds(30000));
  CHECK(stop);
  stopper.join();
}

TEST_CASE("Foreground: under requests that never stop, work waits max_pause, then runs min_run unpaused") {
  // A quiet moment is a second long: the thread that stands for the requests would have
  // to be kept from running that long for the pause to end before max_pause.
  Foreground fg(Foreground::Timing{milliseconds(1000), milliseconds(1500), milliseconds(10000)});
  const std::atomic<bool> stop{false};
  const Requests requests(fg);
  auto start = Clock::now();
  fg.Pause(stop, {});
  CHECK(Since(start) >= milliseconds(1490));
  // Its turn: the next pauses (within min_run, 10 s) do not wait.
  start = Clock::now();
  for (int i = 0; i < 5; ++i) fg.Pause(stop, {});
  CHECK(Since(start) < milliseconds(1000));
  CHECK(fg.pauses() == 1);
}

}  // namespace
}  // namespace folio::query
