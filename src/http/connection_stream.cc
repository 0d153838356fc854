// The per-connection stream; see connection_stream.h.
#include "http/connection_stream.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace folio::http {
namespace {

// httplib reads a request head one byte at a time: the buffer makes that cheap. 8 KiB
// holds a typical head (SocketStream has 4 KiB); it costs memory per open connection.
constexpr size_t kBufferSize = 8 * 1024;
// Writes up to this size are gathered; a response that fits goes out in one send().
constexpr size_t kGather = 16 * 1024;

void AddressOf(const sockaddr_storage& addr, socklen_t len, std::string& ip, int& port) {
  char host[NI_MAXHOST];
  char serv[NI_MAXSERV];
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof(host), serv, sizeof(serv),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(serv);
  }
}

}  // namespace

ConnectionStream::ConnectionStream(int fd, std::chrono::milliseconds read_timeout,
                                   std::chrono::milliseconds write_timeout)
    : fd_(fd), read_timeout_(read_timeout), write_timeout_(write_timeout), buffer_(kBufferSize) {
  // httplib sets TCP_NODELAY on the listening socket only; say it here, where it counts.
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) AddressOf(addr, len, remote_ip_, remote_port_);
  len = sizeof(addr);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) AddressOf(addr, len, local_ip_, local_port_);
}

bool ConnectionStream::Wait(short events, std::chrono::milliseconds timeout) const {
  pollfd p{fd_, events, 0};
  int r;
  do {
    r = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (r < 0 && errno == EINTR);
  return r > 0;
}

bool ConnectionStream::is_readable() const {
  return has_buffered() || (SendGathered() && Wait(POLLIN, read_timeout_));
}

bool ConnectionStream::is_writable() const { return Wait(POLLOUT, write_timeout_); }

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  if (!has_buffered()) {
    // A client may wait for what was written before it sends more (100-continue).
    if (!flush()) return -1;
    offset_ = size_ = 0;
    while (true) {
      // Non-blocking first: after epoll said readable, the data is usually there.
      const ssize_t n = ::recv(fd_, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
      if (n > 0) {
        size_ = static_cast<size_t>(n);
        break;
      }
      if (n == 0) return 0;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      if (!Wait(POLLIN, read_timeout_)) return -1;
    }
  }
  const size_t n = std::min(size, size_ - offset_);
  std::memcpy(ptr, buffer_.data() + offset_, n);
  offset_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  if (out_.size() + size <= kGather) {
    out_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  if (!flush() || !SendAll(ptr, size)) return -1;
  return static_cast<ssize_t>(size);
}

bool ConnectionStream::flush() { return SendGathered(); }

bool ConnectionStream::SendGathered() const {
  if (out_.empty()) return true;
  const bool ok = SendAll(out_.data(), out_.size());
  out_.clear();
  return ok;
}

bool ConnectionStream::SendAll(const char* ptr, size_t size) const {
  while (size > 0) {
    const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      ptr += n;
      size -= static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
    if (!Wait(POLLOUT, write_timeout_)) return false;
  }
  return true;
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  ip = remote_ip_;
  port = remote_port_;
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  ip = local_ip_;
  port = local_port_;
}

}  // namespace folio::http
