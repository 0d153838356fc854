// Raw loopback sockets for HTTP tests that need what an HTTP client library would not
// send: garbage, half requests, pipelined requests, stalls.
#pragma once

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <sys/types.h>

namespace folio::testing {

// A client socket connected to `host`:`port` (an IPv4 address); reads give up after
// `timeout_s` seconds, so a server that waits for more fails the test instead of
// hanging it.
inline int Connect(int port, int timeout_s = 5, const std::string& host = "127.0.0.1") {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  REQUIRE(::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) == 1);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
  timeval timeout{timeout_s, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  return fd;
}

// An IPv4 address of this machine that is not loopback ("" if it has none).
inline std::string ExternalAddress() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* a = list; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET || (a->ifa_flags & IFF_LOOPBACK) ||
        !(a->ifa_flags & IFF_UP)) {
      continue;
    }
    char text[INET_ADDRSTRLEN] = {0};
    ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
    found = text;
  }
  ::freeifaddrs(list);
  return found;
}

// Sends all of `bytes` (stops early if the server closes).
inline void SendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
}

// A response's head, through its blank line; empty when the connection ends first.
inline std::string ReadHead(int fd) {
  std::string out;
  char c;
  while (out.find("\r\n\r\n") == std::string::npos) {
    if (::recv(fd, &c, 1, 0) != 1) return "";
    out += c;
  }
  return out;
}

// Appends exactly `length` bytes read from `fd` to `out`; false when the connection
// ends first.
inline bool ReadExactly(int fd, size_t length, std::string& out) {
  const size_t start = out.size();
  out.resize(start + length);
  size_t got = 0;
  while (got < length) {
    ssize_t n = ::recv(fd, out.data() + start + got, length - got, 0);
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

// One response (head and Content-Length body); empty when the connection ends first.
inline std::string ReadResponse(int fd) {
  std::string out = ReadHead(fd);
  if (out.empty()) return "";
  size_t length = 0;
  const size_t at = out.find("Content-Length: ");
  if (at != std::string::npos) length = std::stoul(out.substr(at + 16));
  return ReadExactly(fd, length, out) ? out : "";
}

// One response whose body is sent chunked: its head, then the body with the chunk
// framing removed; empty when the connection ends first or the framing is wrong.
inline std::string ReadChunkedResponse(int fd) {
  char c;
  const auto line = [&](std::string& l) {
    l.clear();
    while (l.size() < 2 || l.compare(l.size() - 2, 2, "\r\n") != 0) {
      if (::recv(fd, &c, 1, 0) != 1) return false;
      l += c;
    }
    l.resize(l.size() - 2);
    return true;
  };
  std::string out = ReadHead(fd);
  if (out.empty()) return "";
  std::string size_line;
  for (;;) {
    if (!line(size_line) || size_line.empty()) return "";
    const size_t size = std::stoul(size_line, nullptr, 16);
    if (size == 0) break;
    if (!ReadExactly(fd, size, out)) return "";
    std::string end;
    if (!line(end) || !end.empty()) return "";
  }
  std::string trailer;
  if (!line(trailer) || !trailer.empty()) return "";
  return out;
}

// The status code of a raw response; 0 when there is none.
inline int StatusOf(const std::string& response) {
  return response.size() > 12 ? std::stoi(response.substr(9, 3)) : 0;
}

// The body of a raw response.
inline std::string BodyText(const std::string& response) {
  const size_t p = response.find("\r\n\r\n");
  return p == std::string::npos ? "" : response.substr(p + 4);
}

// The value of header `name` in a raw response ("" when absent).
inline std::string HeaderIn(const std::string& raw, const std::string& name) {
  const std::string head = raw.substr(0, raw.find("\r\n\r\n"));
  const size_t at = head.find("\r\n" + name + ": ");
  if (at == std::string::npos) return "";
  const size_t start = at + name.size() + 4;
  return head.substr(start, head.find("\r\n", start) - start);
}

// Everything the server sends until it closes the connection (or the read timeout).
inline std::string ReadAll(int fd) {
  std::string out;
  char buf[4096];
  while (true) {
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

}  // namespace folio::testing
