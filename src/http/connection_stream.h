// One client connection as cpp-httplib's Stream, for the reactor (reactor.h). Unlike
// httplib's SocketStream (made anew for each connection's thread), it lives as long as
// the connection, so its read buffer keeps bytes read ahead across requests: a
// pipelined request already in the buffer is not lost, and has_buffered() tells the
// reactor to serve it before waiting on epoll again. Small writes are gathered and sent
// together (a response head and its body in one segment) by flush().
#pragma once

#include <httplib.h>

#include <chrono>
#include <string>
#include <vector>

namespace folio::http {

class ConnectionStream final : public httplib::Stream {
 public:
  // Does not own `fd` (the reactor closes it). Reads wait at most `read_timeout` for
  // data and writes at most `write_timeout` for room, as SocketStream does; remote and
  // local addresses are looked up once, here.
  ConnectionStream(int fd, std::chrono::milliseconds read_timeout, std::chrono::milliseconds write_timeout);

  // True when bytes read from the socket wait in the buffer (a pipelined request).
  bool has_buffered() const { return offset_ < size_; }

  bool is_readable() const override;
  bool is_writable() const override;
  // Returns the bytes read (from the buffer first), 0 at end of stream, -1 on error or
  // when nothing arrived within the read timeout.
  ssize_t read(char* ptr, size_t size) override;
  // Returns the bytes accepted, -1 on error or timeout. Small writes stay in a buffer
  // until flush(), a larger write or a read. Never raises SIGPIPE.
  ssize_t write(const char* ptr, size_t size) override;
  // Sends what write() gathered; false when the connection failed (then it is unusable).
  bool flush();
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  // Waits until `events` are ready on the socket; false on timeout or error.
  bool Wait(short events, std::chrono::milliseconds timeout) const;
  // Sends all of [ptr, ptr + size); false on error or timeout.
  bool SendAll(const char* ptr, size_t size) const;
  // flush(), also from is_readable(): httplib may wait for input the client sends only
  // after it has read what we wrote (100 Continue).
  bool SendGathered() const;

  int fd_;
  std::chrono::milliseconds read_timeout_;
  std::chrono::milliseconds write_timeout_;
  std::vector<char> buffer_;
  size_t offset_ = 0;
  size_t size_ = 0;
  mutable std::string out_;  // written, not yet sent
  std::string remote_ip_;
  int remote_port_ = 0;
  std::string local_ip_;
  int local_port_ = 0;
};

}  // namespace folio::http
