// Serves client connections from one epoll set with a few worker threads, instead of a
// thread per connection: on a 2-core machine 64 keep-alive connections would otherwise
// be 64 threads fighting for the CPU.
//
// Each connection is registered EPOLLONESHOT: a worker takes one ready connection,
// serves one request (and any pipelined ones already read), then re-arms it or closes
// it. `core` workers always run; when every worker has been busy on its current request
// for a while (a slow upload, a long download, a wait on a repository lock) and ready
// connections wait, extra workers are added up to `max`, and leave after an idle spell.
// A supervisor thread grows the pool and closes connections idle for longer than the
// keep-alive timeout.
#pragma once

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

#include "http/connection_stream.h"

namespace folio::http {

struct ReactorOptions {
  size_t core_workers = 1;
  size_t max_workers = 256;
  std::chrono::milliseconds keep_alive_timeout{3000};  // an idle connection is closed after it
  size_t keep_alive_max_count = 10000;                 // requests per connection
  std::chrono::milliseconds read_timeout{5000};
  std::chrono::milliseconds write_timeout{5000};
};

class Reactor {
 public:
  // Serves one request read from `stream`. `close_connection` asks to answer with
  // "Connection: close" (the last request allowed, or the server stops). Returns false
  // when the connection must be closed: set `connection_closed` when the client asked.
  using Handler = std::function<bool(ConnectionStream& stream, bool close_connection, bool& connection_closed)>;

  Reactor(ReactorOptions options, Handler handler);
  ~Reactor();  // Stop()
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // Takes ownership of the connected socket `fd` and serves it; starts the workers on
  // first use. After Stop(), closes `fd` at once.
  void Add(int fd);

  // For a handler about to wait on something other than its connection (a password
  // check, a slowed-down login: api/auth/blocking.h): starts another worker at once if
  // none is idle (up to max), so that other connections are served meanwhile. No-op on
  // a thread that is not a worker of a reactor. BlockingEnd marks the end of the wait.
  static void BlockingBegin();
  static void BlockingEnd();

  // Closes idle connections, lets every request in flight finish (its response is
  // sent, then its connection closed), and joins all threads. Safe to call more than
  // once and from any thread but a worker.
  void Stop();

 private:
  struct Connection;
  struct Worker;

  void StartLocked();  // requires mu_; starts core workers and the supervisor once
  void SpawnLocked(bool core);  // requires mu_
  void Work(Worker& self);
  void Serve(Worker& self, uint64_t id);
  void Supervise();
  // Closes connections idle for longer than the keep-alive timeout.
  void Sweep();
  // Adds a worker when all are stuck and connections wait; joins finished ones.
  // Returns true when every worker is busy.
  bool Grow();
  void Close(std::unique_ptr<Connection> connection);

  const ReactorOptions options_;
  const Handler handler_;
  const int epoll_fd_;
  const int wake_fd_;  // eventfd in the epoll set, readable once stopping: wakes workers

  std::mutex mu_;  // guards everything below but the atomics
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> connections_;
  uint64_t next_id_ = 1;  // epoll data: a connection id, never reused (fds are)
  std::list<Worker> workers_;
  std::thread supervisor_;
  bool started_ = false;
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;

  std::atomic<size_t> idle_workers_{0};
  // Raised by the worker that leaves no other idle: the supervisor then checks often.
  std::atomic<bool> saturated_{false};
  std::condition_variable supervisor_cv_;
};

}  // namespace folio::http
