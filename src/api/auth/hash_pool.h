// A small, bounded pool of threads for the slow work of authentication (argon2id
// hashing and verification, ~30 ms of CPU each) and for answers that must wait (a
// slowed-down failed login), so that request threads never hash and never sleep: they
// hand the work over and are called back. Jobs may be given a time before which they
// do not start; a job is never run early, and threads never sleep holding a lock
// others need.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace folio::api::auth {

class HashPool {
 public:
  using Clock = std::chrono::steady_clock;

  // `threads` workers (at least 1); at most `max_jobs` jobs waiting.
  HashPool(size_t threads, size_t max_jobs);
  // Runs the jobs still waiting at once (ignoring their times: every caller waiting
  // on one is answered), then joins the threads.
  ~HashPool();
  HashPool(const HashPool&) = delete;
  HashPool& operator=(const HashPool&) = delete;

  // Runs `job` on a pool thread, not before `at`; jobs due at the same time run in
  // the order given. Returns false (and does not keep `job`) when `max_jobs` wait.
  // Thread-safe.
  bool RunAt(Clock::time_point at, std::function<void()> job);
  bool Run(std::function<void()> job) { return RunAt(Clock::now(), std::move(job)); }

  // Jobs waiting or running (for tests and metrics).
  size_t pending() const;

 private:
  struct Job {
    Clock::time_point at;
    uint64_t seq;
    std::function<void()> run;
    bool operator>(const Job& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void Work();

  const size_t max_jobs_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::priority_queue<Job, std::vector<Job>, std::greater<Job>> jobs_;
  uint64_t next_seq_ = 0;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace folio::api::auth
