// The worker threads of the server. cpp-httplib runs a whole keep-alive connection on
// one worker, so a fixed pool of N threads stalls connection N+1 until another closes
// (browsers open six). This pool keeps `core` threads always and adds threads while
// every one is busy, up to `max`; the extra ones leave after an idle spell.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace folio::http {

class WorkerPool : public httplib::TaskQueue {
 public:
  WorkerPool(size_t core, size_t max);
  ~WorkerPool() override;

  void enqueue(std::function<void()> fn) override;
  // Runs every queued job, then joins every thread.
  void shutdown() override;

 private:
  void Spawn(bool core);  // requires mu_
  void Work(bool core);
  void JoinFinished();    // requires mu_ not held

  const size_t core_;
  const size_t max_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::map<std::thread::id, std::thread> threads_;
  std::vector<std::thread::id> finished_;
  size_t idle_ = 0;
  bool shutdown_ = false;
};

}  // namespace folio::http
