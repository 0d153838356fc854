// Serves client connections from one epoll set with a few worker threads, instead of a
// thread per connection: on a 2-core machine 64 keep-alive connections would otherwise
// be 64 threads fighting for the CPU, and ten thousand slow clients ten thousand threads.
//
// Every socket is non-blocking and registered EPOLLONESHOT: a worker woken for a
// connection owns it until it hands it back, runs Connection::OnEvent (which reads what
// has arrived, handles a request once it is complete, writes what the socket takes) and
// re-arms it for reading or writing. No thread ever waits on a client. The listening
// socket is in the same set; accepting stops while `max_connections` are open (new ones
// wait in the listen queue) and resumes when one closes.
//
// `core_workers` always run; when every worker has been busy on its current event for a
// while (a request waiting on a lock or a slow disk) and events wait, extra workers are
// added up to `max_workers`, and leave after an idle spell. A supervisor thread grows
// the pool and closes connections whose deadline has passed (Connection::deadline).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "http/connection.h"

namespace folio::http {

class HttpMetrics;

struct ReactorOptions {
  size_t core_workers = 1;
  size_t max_workers = 256;
  size_t max_connections = 10000;
  // How often deadlines are checked: a deadline is enforced this late at most.
  std::chrono::milliseconds sweep_interval{250};
};

class Reactor {
 public:
  // Makes the Connection for an accepted socket (non-blocking; the connection owns it).
  using ConnectionMaker = std::function<std::unique_ptr<Connection>(int fd)>;

  // `metrics` (may be null) must outlive the reactor.
  Reactor(ReactorOptions options, ConnectionMaker make, HttpMetrics* metrics);
  ~Reactor();  // Stop()
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // Accepts connections on the listening socket `listen_fd` (made non-blocking; closed by
  // the reactor once stopped) and serves them; starts the threads. Once only.
  void Start(int listen_fd);

  // For a handler about to wait on something other than its connection (a group
  // commit's flush, a password check, a slowed-down login: storage/wait_hooks.h): starts
  // another worker at once if none is idle (up to max_workers), so that other
  // connections are served meanwhile.
  // No-op on a thread that is not a worker of a reactor. BlockingEnd marks the end of
  // the wait (nothing to do: the extra worker leaves after an idle spell).
  static void BlockingBegin();
  static void BlockingEnd();

  // Stops accepting, closes idle connections, lets every request in flight finish (its
  // response is sent, then its connection closed; a request still arriving has until its
  // deadline), and joins all threads. Safe to call more than once and from any thread
  // but a worker; returns when all is done.
  void Stop();

  size_t open_connections() const;

 private:
  struct Entry {
    std::unique_ptr<Connection> connection;
    bool busy = false;  // a thread runs it: nobody else may touch or close it
  };
  // Connections are split over shards by id, each with its own lock, so that workers
  // taking and handing back connections rarely wait for each other.
  struct Shard {
    std::mutex mu;
    std::unordered_map<uint64_t, Entry> connections;  // guarded by mu
  };
  static constexpr size_t kShards = 16;
  struct Worker {
    std::thread thread;
    bool core = false;
    std::atomic<int64_t> busy_since{0};  // NowNs() when its current event began; 0 when idle
    std::atomic<bool> done{false};
  };

  Shard& ShardOf(uint64_t id) { return shards_[id % kShards]; }
  void SpawnLocked(bool core);  // requires mu_
  void Work(Worker& self);
  void Accept();
  void Add(int fd);
  void Serve(uint64_t id);
  void ArmListenLocked();  // requires mu_
  // Bookkeeping once a connection has left its shard (not under a shard's lock).
  void Closed();
  void Supervise();
  void Sweep();  // expires connections past their deadline
  // Adds a worker when all are stuck and events wait; joins finished ones. Returns true
  // when every worker is busy.
  bool Grow();

  const ReactorOptions options_;
  const ConnectionMaker make_;
  HttpMetrics* const metrics_;
  const int epoll_fd_;
  const int wake_fd_;  // eventfd in the epoll set, readable once stopped: wakes workers
  int listen_fd_ = -1;

  std::array<Shard, kShards> shards_;
  std::atomic<uint64_t> next_id_;  // epoll data of a connection: an id never reused (fds are)
  std::atomic<size_t> open_{0};    // connections in the shards

  mutable std::mutex mu_;  // guards what follows but the atomics
  std::list<Worker> workers_;
  std::thread supervisor_;
  bool started_ = false;
  std::atomic<bool> accept_paused_{false};  // at max_connections, or out of file descriptors
  std::chrono::steady_clock::time_point accept_retry_{};  // after running out of fds
  std::atomic<bool> stopping_{false};
  bool finished_ = false;  // stopped and drained: the supervisor and workers leave
  bool joined_ = false;    // and they have left: Stop() has done all
  std::condition_variable drained_cv_;  // open_ fell to 0 while stopping; joined_

  std::atomic<size_t> idle_workers_{0};
  // Raised by the worker that leaves no other idle: the supervisor then checks often.
  std::atomic<bool> saturated_{false};
  std::condition_variable supervisor_cv_;
};

}  // namespace folio::http
