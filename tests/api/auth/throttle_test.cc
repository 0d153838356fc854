// auth::HashPool and auth::Throttle: timed jobs never run early; one user's failures
// slow that user down only. Timing assertions are lower bounds only (a busy machine
// makes things later, never earlier).
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "api/auth/hash_pool.h"
#include "api/auth/throttle.h"

using namespace folio::api::auth;
using Clock = HashPool::Clock;
using namespace std::chrono_literals;

namespace {

// Counts down; Wait() returns once it reached zero.
class Latch {
 public:
  explicit Latch(int n) : n_(n) {}
  void Done() {
    std::lock_guard<std::mutex> g(mu_);
    if (--n_ == 0) cv_.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return n_ <= 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_;
};

// Returns once the pool has nothing waiting or running (a check's bookkeeping is done
// after it answered).
void Idle(HashPool& pool) {
  while (pool.pending() > 0) std::this_thread::yield();
}

}  // namespace

TEST_CASE("HashPool: jobs run, never before their time, in time order") {
  HashPool pool(2, 100);
  std::mutex mu;
  std::vector<int> order;
  Latch latch(3);
  const Clock::time_point start = Clock::now();
  Clock::time_point late_ran{};
  REQUIRE(pool.RunAt(start + 60ms, [&] {
    std::lock_guard<std::mutex> g(mu);
    late_ran = Clock::now();
    order.push_back(2);
    latch.Done();
  }));
  REQUIRE(pool.Run([&] {
    std::lock_guard<std::mutex> g(mu);
    order.push_back(1);
    latch.Done();
  }));
  REQUIRE(pool.RunAt(start + 30ms, [&] {
    std::lock_guard<std::mutex> g(mu);
    order.push_back(3);
    latch.Done();
  }));
  latch.Wait();
  CHECK(late_ran >= start + 60ms);
  CHECK(order.front() == 1);
  CHECK(order.back() == 2);
}

TEST_CASE("HashPool: a full queue refuses; destruction runs what still waits") {
  std::atomic<int> ran{0};
  {
    HashPool pool(1, 2);
    CHECK(pool.RunAt(Clock::now() + 1h, [&] { ++ran; }));
    CHECK(pool.RunAt(Clock::now() + 1h, [&] { ++ran; }));
    CHECK_FALSE(pool.RunAt(Clock::now(), [&] { ++ran; }));
    CHECK(pool.pending() == 2);
  }
  CHECK(ran == 2);  // nobody waiting on one of them is left hanging
}

TEST_CASE("Throttle: delays double after the free failures, up to the maximum") {
  HashPool pool(1, 100);
  ThrottleOptions o;
  o.free_failures = 3;
  o.base_delay = 100ms;
  o.max_delay = 2000ms;
  Throttle t(pool, o);
  CHECK(t.DelayAfter(0) == 0ms);
  CHECK(t.DelayAfter(2) == 0ms);
  CHECK(t.DelayAfter(3) == 100ms);
  CHECK(t.DelayAfter(4) == 200ms);
  CHECK(t.DelayAfter(7) == 1600ms);
  CHECK(t.DelayAfter(8) == 2000ms);
  CHECK(t.DelayAfter(1000) == 2000ms);
}

TEST_CASE("Throttle: one user's failures slow that user down, and nobody else") {
  HashPool pool(2, 1000);
  ThrottleOptions o;
  o.free_failures = 2;
  o.base_delay = 80ms;
  o.max_delay = 80ms;
  Throttle t(pool, o);
  auto run = [&](const std::string& who, Throttle::Outcome outcome) {
    Latch latch(1);
    Clock::time_point ran{};
    t.Submit(
        who,
        [&] {
          ran = Clock::now();
          latch.Done();
          return outcome;
        },
        [&] { FAIL("refused"); });
    latch.Wait();
    Idle(pool);
    return ran;
  };
  run("alice", Throttle::Outcome::kFailed);
  const Clock::time_point second_failure = run("alice", Throttle::Outcome::kFailed);
  CHECK(t.failures("alice") == 2);
  CHECK(t.Slowed("alice"));
  CHECK_FALSE(t.Slowed("bob"));
  // alice waits for her delay (counted from the end of her last check); bob does not
  // wait behind her.
  Latch both(2);
  Clock::time_point alice_ran{}, bob_ran{};
  t.Submit("alice", [&] { alice_ran = Clock::now(); both.Done(); return Throttle::Outcome::kFailed; }, [] {});
  t.Submit("bob", [&] { bob_ran = Clock::now(); both.Done(); return Throttle::Outcome::kVerified; }, [] {});
  both.Wait();
  Idle(pool);
  CHECK(alice_ran >= second_failure + 80ms);
  CHECK(bob_ran < alice_ran);
  CHECK(t.failures("alice") == 3);
  CHECK(t.failures("bob") == 0);
  // A password found among verified ones leaves the count; a verified one resets it.
  run("alice", Throttle::Outcome::kRemembered);
  CHECK(t.failures("alice") == 3);
  run("alice", Throttle::Outcome::kVerified);
  CHECK(t.failures("alice") == 0);
  CHECK_FALSE(t.Slowed("alice"));
}

TEST_CASE("Throttle: one check of a user at a time; beyond the waiting limit, refusals come after the delay") {
  HashPool pool(4, 1000);
  ThrottleOptions o;
  o.free_failures = 0;  // slowed from the start
  o.base_delay = 50ms;
  o.max_delay = 50ms;
  o.max_waiting = 2;
  Throttle t(pool, o);
  std::atomic<int> running{0}, max_running{0}, checked{0}, refused{0};
  const Clock::time_point start = Clock::now();
  std::atomic<int64_t> first_refusal_ns{INT64_MAX};
  Latch latch(6);
  for (int i = 0; i < 6; ++i) {
    t.Submit(
        "mallory",
        [&] {
          const int now = ++running;
          int seen = max_running;
          while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
          }
          std::this_thread::sleep_for(5ms);  // a check takes time; others must not overlap it
          --running;
          ++checked;
          latch.Done();
          return Throttle::Outcome::kFailed;
        },
        [&] {
          const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
          int64_t seen = first_refusal_ns;
          while (ns < seen && !first_refusal_ns.compare_exchange_weak(seen, ns)) {
          }
          ++refused;
          latch.Done();
        });
  }
  latch.Wait();
  Idle(pool);
  CHECK(max_running == 1);
  CHECK(checked == 3);  // one running, two waiting
  CHECK(refused == 3);
  CHECK(first_refusal_ns >= std::chrono::nanoseconds(50ms).count());
}
