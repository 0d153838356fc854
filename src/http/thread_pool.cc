// A growing pool of connection threads; see thread_pool.h.
#include "http/thread_pool.h"

#include <thread>

namespace folio::http {

GrowingPool::GrowingPool(size_t min_threads, size_t max_threads, std::chrono::milliseconds idle_timeout)
    : min_threads_(min_threads), max_threads_(max_threads > 0 ? max_threads : 1), idle_timeout_(idle_timeout) {}

GrowingPool::~GrowingPool() { shutdown(); }

void GrowingPool::enqueue(std::function<void()> fn) {
  std::unique_lock<std::mutex> lock(mu_);
  // A task waits only for a thread that is idle now: each one runs a connection.
  idle_cv_.wait(lock, [&] { return idle_ > tasks_.size() || threads_ < max_threads_ || released_ || shutdown_; });
  tasks_.push_back(std::move(fn));
  if (idle_ >= tasks_.size()) {
    work_cv_.notify_one();
    return;
  }
  ++threads_;
  lock.unlock();
  std::thread([this] { Work(); }).detach();
}

void GrowingPool::Release() {
  std::lock_guard<std::mutex> lock(mu_);
  released_ = true;
  idle_cv_.notify_all();
}

void GrowingPool::shutdown() {
  std::unique_lock<std::mutex> lock(mu_);
  shutdown_ = true;
  work_cv_.notify_all();
  idle_cv_.notify_all();
  idle_cv_.wait(lock, [&] { return threads_ == 0; });
}

void GrowingPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    if (tasks_.empty()) {
      if (shutdown_) break;
      ++idle_;
      idle_cv_.notify_all();
      const bool woken = work_cv_.wait_for(lock, idle_timeout_, [&] { return !tasks_.empty() || shutdown_; });
      --idle_;
      if (!woken && threads_ > min_threads_) break;  // idle too long: retire
      continue;
    }
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    task = nullptr;  // the connection's state goes before the thread counts as idle
    lock.lock();
  }
  --threads_;
  idle_cv_.notify_all();
}

}  // namespace folio::http
