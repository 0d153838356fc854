// The epoll reactor; see reactor.h.
#include "http/reactor.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "http/metrics.h"

namespace folio::http {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kWakeId = 0;    // epoll data of wake_fd_
constexpr uint64_t kListenId = 1;  // of the listening socket; connection ids start at 2
constexpr uint32_t kReadEvents = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
constexpr uint32_t kWriteEvents = EPOLLOUT | EPOLLRDHUP | EPOLLONESHOT;
// A worker busy on one event for this long counts as stuck (a lock, a slow disk).
constexpr auto kStuck = std::chrono::milliseconds(50);
// How often the supervisor looks while every worker is busy.
constexpr auto kBusyTick = std::chrono::milliseconds(20);
// An extra worker leaves after this long without an event.
constexpr int kExtraIdleMs = 10000;
// Connections accepted per wake-up before the listening socket is re-armed (fairness).
constexpr int kAcceptBatch = 64;
// After running out of file descriptors, accepting pauses this long.
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// True when input waits on `fd`: a request that arrived in time, not yet picked up.
bool Readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

// The reactor whose worker the current thread is (BlockingBegin).
thread_local Reactor* tl_reactor = nullptr;

}  // namespace

Reactor::Reactor(ReactorOptions options, ConnectionMaker make, HttpMetrics* metrics)
    : options_(std::move(options)),
      make_(std::move(make)),
      metrics_(metrics),
      epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)),
      wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      next_id_(kListenId + 1) {
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

void Reactor::Start(int listen_fd) {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_) return;
  started_ = true;
  listen_fd_ = listen_fd;
  ::fcntl(listen_fd_, F_SETFL, ::fcntl(listen_fd_, F_GETFL) | O_NONBLOCK);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.u64 = kListenId;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev);
  for (size_t i = 0; i < std::max<size_t>(1, options_.core_workers); ++i) SpawnLocked(true);
  supervisor_ = std::thread([this] { Supervise(); });
}

void Reactor::SpawnLocked(bool core) {
  Worker& w = workers_.emplace_back();
  w.core = core;
  w.thread = std::thread([this, &w] { Work(w); });
}

size_t Reactor::open_connections() const { return open_.load(); }

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
    if (n <= 0 || ev.data.u64 == kWakeId) break;  // idle spell over (extra workers), or finished
    if (idle_before == 1 && !saturated_.exchange(true)) {
      std::lock_guard<std::mutex> lock(mu_);
      supervisor_cv_.notify_one();
    }
    self.busy_since = NowNs();
    if (ev.data.u64 == kListenId) {
      Accept();
    } else {
      Serve(ev.data.u64);
    }
    self.busy_since = 0;
  }
  self.done = true;
}

void Reactor::ArmListenLocked() {
  if (stopping_ || accept_paused_ || listen_fd_ < 0) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.u64 = kListenId;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
}

void Reactor::Accept() {
  for (int i = 0; i < kAcceptBatch; ++i) {
    if (stopping_) return;
    if (open_ >= options_.max_connections) {
      std::lock_guard<std::mutex> lock(mu_);
      accept_paused_ = true;  // re-armed when a connection closes
      // One may have closed between the check and the flag: look again, now that a
      // closing connection sees the flag.
      if (open_ >= options_.max_connections) return;
      accept_paused_ = false;
    }
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      Add(fd);
      continue;
    }
    if (errno == EINTR || errno == ECONNABORTED) continue;
    if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
      spdlog::warn("cannot accept a connection: {} ({} open); retrying in {} ms", std::strerror(errno),
                   open_connections(), kAcceptRetry.count());
      std::lock_guard<std::mutex> lock(mu_);
      accept_paused_ = true;
      accept_retry_ = Clock::now() + kAcceptRetry;
      return;
    }
    break;  // EAGAIN: the queue is empty (or the socket was shut down: stopping)
  }
  std::lock_guard<std::mutex> lock(mu_);
  ArmListenLocked();
}

void Reactor::Add(int fd) {
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  std::unique_ptr<Connection> connection = make_(fd);
  const uint64_t id = next_id_++;
  Shard& shard = ShardOf(id);
  std::lock_guard<std::mutex> lock(shard.mu);
  epoll_event ev{};
  ev.events = kReadEvents;
  ev.data.u64 = id;
  // Registered under the lock: the sweep may close it as soon as it is in the map.
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) return;  // destroyed: closed
  shard.connections.emplace(id, Entry{std::move(connection), false});
  ++open_;
  if (metrics_ != nullptr) metrics_->ConnectionOpened();
}

void Reactor::Closed() {
  const size_t open = --open_;
  if (metrics_ != nullptr) metrics_->ConnectionClosed();
  if (accept_paused_ || (stopping_ && open == 0)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (accept_paused_ && accept_retry_ == Clock::time_point{} && open < options_.max_connections) {
      accept_paused_ = false;
      ArmListenLocked();
    }
    if (stopping_ && open == 0) drained_cv_.notify_all();
  }
}

void Reactor::Serve(uint64_t id) {
  Shard& shard = ShardOf(id);
  Connection* c = nullptr;
  {
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.connections.find(id);
    if (it == shard.connections.end() || it->second.busy) return;  // closed by the sweep or Stop
    it->second.busy = true;
    c = it->second.connection.get();
  }
  const Connection::Interest next = c->OnEvent();
  std::unique_ptr<Connection> gone;
  {
    std::lock_guard<std::mutex> lock(shard.mu);
    auto it = shard.connections.find(id);
    if (next != Connection::Interest::kClose && !(stopping_ && c->idle())) {
      it->second.busy = false;
      epoll_event ev{};
      ev.events = next == Connection::Interest::kWrite ? kWriteEvents : kReadEvents;
      ev.data.u64 = id;
      // Re-armed under the lock: once handed back, the sweep may close the fd, and its
      // number may then be reused.
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd(), &ev) == 0) return;
    }
    gone = std::move(it->second.connection);
    shard.connections.erase(it);
  }
  gone.reset();  // out of the map, so no one else touches it; this closes the socket
  Closed();
}

void Reactor::Supervise() {
  std::unique_lock<std::mutex> lock(mu_);
  auto next_sweep = Clock::now() + options_.sweep_interval;
  while (!finished_) {
    if (saturated_) {
      // Every worker took an event: look again in a moment whether they are stuck. Not
      // at once: under load that happens at nearly every event.
      supervisor_cv_.wait_for(lock, kBusyTick, [&] { return finished_; });
    } else {
      supervisor_cv_.wait_until(lock, next_sweep, [&] { return finished_ || saturated_; });
    }
    if (finished_) break;
    if (accept_retry_ != Clock::time_point{} && Clock::now() >= accept_retry_) {
      accept_retry_ = {};
      if (open_ < options_.max_connections) {
        accept_paused_ = false;
        ArmListenLocked();
      }
    }
    lock.unlock();
    if (Clock::now() >= next_sweep) {
      Sweep();
      next_sweep = Clock::now() + options_.sweep_interval;
    }
    if (!Grow()) saturated_ = false;
    lock.lock();
  }
}

void Reactor::Sweep() {
  const auto now = Clock::now();
  for (Shard& shard : shards_) {
    std::vector<std::unique_ptr<Connection>> expired;
    {
      std::lock_guard<std::mutex> lock(shard.mu);
      for (auto it = shard.connections.begin(); it != shard.connections.end();) {
        Connection& c = *it->second.connection;
        // An idle connection whose next request has arrived is not idle: a worker is
        // about to take it.
        if (it->second.busy || c.deadline() > now || (c.idle() && !c.lingering() && Readable(c.fd()))) {
          ++it;
          continue;
        }
        expired.push_back(std::move(it->second.connection));
        it = shard.connections.erase(it);
      }
    }
    // Out of the map, so no worker will touch them.
    for (auto& c : expired) {
      c->Expire();
      c.reset();
      Closed();
    }
  }
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
  if (idle_workers_ > 0 || finished_) return false;
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
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (stopping_) {  // another Stop() runs or ran: wait until it has done all
      drained_cv_.wait(lock, [&] { return joined_; });
      return;
    }
    stopping_ = true;
    if (listen_fd_ >= 0) {
      // accept() fails from now on; the socket is closed once no worker can be in accept().
      ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
      ::shutdown(listen_fd_, SHUT_RDWR);
    }
  }
  for (Shard& shard : shards_) {
    std::vector<std::unique_ptr<Connection>> idle;
    {
      std::lock_guard<std::mutex> lock(shard.mu);
      for (auto it = shard.connections.begin(); it != shard.connections.end();) {
        Connection& c = *it->second.connection;
        // Idle, unless its next request has arrived and waits to be read.
        if (!it->second.busy && c.idle() && (c.lingering() || !Readable(c.fd()))) {
          idle.push_back(std::move(it->second.connection));
          it = shard.connections.erase(it);
        } else {
          ++it;  // a request in flight: it finishes, then its connection closes
        }
      }
    }
    for (auto& c : idle) {
      c.reset();
      Closed();
    }
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    drained_cv_.wait(lock, [&] { return open_ == 0; });
    finished_ = true;
    supervisor_cv_.notify_all();
    drained_cv_.notify_all();
  }
  const uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof(one));
  if (supervisor_.joinable()) supervisor_.join();
  // The supervisor, the only one to add workers, is gone: the list is ours now.
  for (Worker& w : workers_) w.thread.join();
  workers_.clear();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
  std::lock_guard<std::mutex> lock(mu_);
  joined_ = true;
  drained_cv_.notify_all();
}

}  // namespace folio::http
