// The epoll reactor; see reactor.h.
#include "http/reactor.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace folio::http {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kWakeId = 0;  // epoll data of wake_fd_; connection ids start at 1
constexpr uint32_t kConnectionEvents = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
// A worker busy on one request for this long counts as stuck (a slow client, a lock).
constexpr auto kStuck = std::chrono::milliseconds(50);
// How often the supervisor looks while every worker is busy.
constexpr auto kBusyTick = std::chrono::milliseconds(20);
// An extra worker leaves after this long without a request.
constexpr int kExtraIdleMs = 10000;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// True when a request (or the client's close) waits on `fd`: it is not idle, only not
// yet picked up because every worker is busy; a worker will take it.
bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

// The reactor whose worker the current thread is (BlockingBegin).
thread_local Reactor* tl_reactor = nullptr;

}  // namespace

struct Reactor::Connection {
  Connection(int fd, const ReactorOptions& o) : fd(fd), stream(fd, o.read_timeout, o.write_timeout) {}
  uint64_t id = 0;
  int fd;
  ConnectionStream stream;
  bool busy = false;  // a worker serves it: nobody else may touch or close it
  Clock::time_point idle_since = Clock::now();
  size_t served = 0;
};

struct Reactor::Worker {
  std::thread thread;
  bool core = false;
  std::atomic<int64_t> busy_since{0};  // NowNs() when its current request began; 0 when idle
  std::atomic<bool> done{false};
};

Reactor::Reactor(ReactorOptions options, Handler handler)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  epoll_event ev{};
  ev.events = EPOLLIN;  // level-triggered: once written, every worker sees it
  ev.data.u64 = kWakeId;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
}

Reactor::~Reactor() {
  Stop();
  ::close(wake_fd_);
  ::close(epoll_fd_);
}

void Reactor::StartLocked() {
  if (started_) return;
  started_ = true;
  for (size_t i = 0; i < std::max<size_t>(1, options_.core_workers); ++i) SpawnLocked(true);
  supervisor_ = std::thread([this] { Supervise(); });
}

void Reactor::SpawnLocked(bool core) {
  Worker& w = workers_.emplace_back();
  w.core = core;
  w.thread = std::thread([this, &w] { Work(w); });
}

void Reactor::Add(int fd) {
  auto connection = std::make_unique<Connection>(fd, options_);  // getpeername: outside the lock
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      StartLocked();
      const uint64_t id = next_id_++;
      connection->id = id;
      epoll_event ev{};
      ev.events = kConnectionEvents;
      ev.data.u64 = id;
      // Registered under the lock: the sweep may close it as soon as it is in the map.
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) == 0) {
        connections_.emplace(id, std::move(connection));
        return;
      }
    }
  }
  Close(std::move(connection));
}

void Reactor::Close(std::unique_ptr<Connection> connection) {
  if (!connection) return;
  ::shutdown(connection->fd, SHUT_RDWR);
  ::close(connection->fd);
}

void Reactor::BlockingBegin() {
  Reactor* r = tl_reactor;
  if (r == nullptr) return;
  std::lock_guard<std::mutex> lock(r->mu_);
  if (!r->stopping_ && r->idle_workers_ == 0 && r->workers_.size() < r->options_.max_workers) r->SpawnLocked(false);
}

void Reactor::BlockingEnd() {}

void Reactor::Work(Worker& self) {
  tl_reactor = this;
  while (true) {
    ++idle_workers_;
    epoll_event ev{};
    const int n = ::epoll_wait(epoll_fd_, &ev, 1, self.core ? -1 : kExtraIdleMs);
    const size_t idle_before = idle_workers_--;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || ev.data.u64 == kWakeId) break;  // idle spell over (extra workers), or stopping
    if (idle_before == 1 && !saturated_.exchange(true)) {
      std::lock_guard<std::mutex> lock(mu_);
      supervisor_cv_.notify_one();
    }
    Serve(self, ev.data.u64);
  }
  self.done = true;
}

void Reactor::Serve(Worker& self, uint64_t id) {
  Connection* c = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = connections_.find(id);
    if (it == connections_.end() || it->second->busy) return;  // closed by the sweep or Stop
    c = it->second.get();
    c->busy = true;
  }
  bool keep = true;
  // Requests already read ahead (pipelined) are served now: epoll will not report them.
  do {
    self.busy_since = NowNs();
    const bool close = stopping_ || c->served + 1 >= options_.keep_alive_max_count;
    bool closed = false;
    try {
      keep = handler_(c->stream, close, closed) && !closed && !close;
    } catch (...) {
      keep = false;  // httplib catches handler exceptions; this is a last resort
    }
    if (!c->stream.flush()) keep = false;
    ++c->served;
  } while (keep && c->stream.has_buffered());
  self.busy_since = 0;

  std::unique_ptr<Connection> gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (keep && !stopping_) {
      c->busy = false;
      c->idle_since = Clock::now();
      epoll_event ev{};
      ev.events = kConnectionEvents;
      ev.data.u64 = id;
      // Re-armed under the lock: once idle, the sweep may close the fd, and its number
      // may then be reused.
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev) == 0) return;
    }
    auto it = connections_.find(id);
    gone = std::move(it->second);
    connections_.erase(it);
  }
  Close(std::move(gone));
}

void Reactor::Supervise() {
  const auto sweep_interval = std::clamp<std::chrono::milliseconds>(
      options_.keep_alive_timeout / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(250));
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    const bool busy = saturated_;
    supervisor_cv_.wait_for(lock, busy ? std::chrono::milliseconds(kBusyTick) : sweep_interval,
                            [&] { return stopping_ || (!busy && saturated_); });
    if (stopping_) break;
    lock.unlock();
    Sweep();
    if (!Grow()) saturated_ = false;
    lock.lock();
  }
}

void Reactor::Sweep() {
  std::vector<std::unique_ptr<Connection>> expired;
  {
    const auto deadline = Clock::now() - options_.keep_alive_timeout;
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (!it->second->busy && it->second->idle_since <= deadline && !Readable(it->second->fd)) {
        expired.push_back(std::move(it->second));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Out of the map, so no worker will touch them; the fds stay ours until closed.
  for (auto& c : expired) Close(std::move(c));
}

bool Reactor::Grow() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = workers_.begin(); it != workers_.end();) {
    if (it->done) {
      it->thread.join();  // it has left its loop: the join is immediate
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
  if (idle_workers_ > 0) return false;
  if (workers_.size() >= options_.max_workers) return true;
  const int64_t stuck_before = NowNs() - std::chrono::duration_cast<std::chrono::nanoseconds>(kStuck).count();
  for (const Worker& w : workers_) {
    const int64_t since = w.busy_since;
    if (since == 0 || since > stuck_before) return true;
  }
  // An epoll fd polls readable while it holds ready events: connections wait.
  pollfd p{epoll_fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) > 0) SpawnLocked(false);
  return true;
}

void Reactor::Stop() {
  std::vector<std::unique_ptr<Connection>> idle;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (!it->second->busy) {
        idle.push_back(std::move(it->second));
        it = connections_.erase(it);
      } else {
        ++it;  // its worker finishes the request, then closes it
      }
    }
    supervisor_cv_.notify_all();
  }
  for (auto& c : idle) Close(std::move(c));
  const uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof(one));
  if (supervisor_.joinable()) supervisor_.join();
  // The supervisor, the only one to add workers, is gone: the list is ours now.
  for (Worker& w : workers_) w.thread.join();
  workers_.clear();
}

}  // namespace folio::http
