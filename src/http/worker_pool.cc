// The elastic worker pool; see worker_pool.h.
#include "http/worker_pool.h"

#include <chrono>

namespace folio::http {
namespace {
constexpr auto kExtraIdle = std::chrono::seconds(30);
}

WorkerPool::WorkerPool(size_t core, size_t max) : core_(core == 0 ? 1 : core), max_(max < core_ ? core_ : max) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < core_; ++i) Spawn(true);
}

WorkerPool::~WorkerPool() { shutdown(); }

void WorkerPool::Spawn(bool core) {
  std::thread t([this, core] { Work(core); });
  const auto id = t.get_id();
  threads_.emplace(id, std::move(t));
}

void WorkerPool::enqueue(std::function<void()> fn) {
  JoinFinished();
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back(std::move(fn));
    if (idle_ < jobs_.size() && threads_.size() < max_) Spawn(false);
  }
  cv_.notify_one();
}

void WorkerPool::Work(bool core) {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    ++idle_;
    bool timed_out = false;
    if (core) {
      cv_.wait(lock, [this] { return shutdown_ || !jobs_.empty(); });
    } else {
      timed_out = !cv_.wait_for(lock, kExtraIdle, [this] { return shutdown_ || !jobs_.empty(); });
    }
    --idle_;
    if (jobs_.empty() && (shutdown_ || timed_out)) break;
    if (jobs_.empty()) continue;
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
  finished_.push_back(std::this_thread::get_id());
}

void WorkerPool::JoinFinished() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& id : finished_) {
      auto it = threads_.find(id);
      if (it == threads_.end()) continue;
      done.push_back(std::move(it->second));
      threads_.erase(it);
    }
    finished_.clear();
  }
  for (std::thread& t : done) t.join();
}

void WorkerPool::shutdown() {
  std::map<std::thread::id, std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shutdown_ && threads_.empty()) return;
    shutdown_ = true;
  }
  cv_.notify_all();
  // Extra threads may still be spawned by nobody now: enqueue is not called after
  // shutdown (httplib stops accepting first).
  {
    std::lock_guard<std::mutex> lock(mu_);
    threads.swap(threads_);
    finished_.clear();
  }
  for (auto& [id, t] : threads) t.join();
}

}  // namespace folio::http
