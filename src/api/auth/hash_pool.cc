// The authentication pool; see hash_pool.h.
#include "api/auth/hash_pool.h"

#include <algorithm>

namespace folio::api::auth {

HashPool::HashPool(size_t threads, size_t max_jobs) : max_jobs_(max_jobs) {
  for (size_t i = 0; i < std::max<size_t>(1, threads); ++i) threads_.emplace_back([this] { Work(); });
}

HashPool::~HashPool() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool HashPool::RunAt(Clock::time_point at, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (jobs_.size() >= max_jobs_) return false;
    jobs_.push(Job{at, next_seq_++, std::move(job)});
  }
  // Every thread: the new job may be due before the one a sleeping thread waits for.
  cv_.notify_all();
  return true;
}

size_t HashPool::pending() const {
  std::lock_guard<std::mutex> g(mu_);
  return jobs_.size() + running_;
}

void HashPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (jobs_.empty()) {
      if (stopping_) return;
      cv_.wait(lock);
      continue;
    }
    const Clock::time_point due = jobs_.top().at;
    if (!stopping_ && due > Clock::now()) {
      cv_.wait_until(lock, due);  // releases the lock while waiting
      continue;
    }
    std::function<void()> run = std::move(const_cast<Job&>(jobs_.top()).run);
    jobs_.pop();
    ++running_;
    lock.unlock();
    run();
    lock.lock();
    --running_;
  }
}

}  // namespace folio::api::auth
