// The task queue cpp-httplib runs each accepted connection on (httplib::Server::
// new_task_queue): one thread per connection, for the connection's life. Threads are
// started on demand up to `max_threads` and retire after `idle_timeout` without work.
// At the bound, enqueue() blocks the accepting thread, so that further connections wait
// in the kernel's listen queue rather than in memory (docs/API.md §9).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

#include <httplib.h>

namespace folio::http {

class GrowingPool final : public httplib::TaskQueue {
 public:
  GrowingPool(size_t min_threads, size_t max_threads, std::chrono::milliseconds idle_timeout);
  ~GrowingPool() override;  // shutdown()

  // Runs `fn` on an idle thread, or a new one; at the bound, waits for a thread to
  // become idle. Once Release() has been called, runs `fn` beyond the bound rather than
  // wait (the server stops: the connection closes at once).
  void enqueue(std::function<void()> fn) override;
  // Waits for every task to finish and every thread to exit.
  void shutdown() override;
  // Wakes an enqueue() waiting at the bound and lets it through.
  void Release();

 private:
  void Work();

  const size_t min_threads_;
  const size_t max_threads_;
  const std::chrono::milliseconds idle_timeout_;
  std::mutex mu_;
  std::condition_variable work_cv_;  // a task was queued, or shutdown
  std::condition_variable idle_cv_;  // a thread became idle, or exited
  std::deque<std::function<void()>> tasks_;
  size_t threads_ = 0;  // alive (detached; counted down as they exit)
  size_t idle_ = 0;     // waiting for a task
  bool shutdown_ = false;
  bool released_ = false;
};

}  // namespace folio::http
