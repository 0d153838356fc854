// A listening TCP socket, made on its own so that `folio serve` can take its port
// before it touches the data directory: a start that fails on a taken port then
// leaves nothing behind.
#pragma once

#include <string>

#include "folio/status.h"

namespace folio::http {

class Listener {
 public:
  // Binds `host`:`port` (0 picks a free port) and listens. Errors: kRuntime naming
  // host and port when binding fails (address in use, bad host).
  static Result<Listener> Open(const std::string& host, int port);

  Listener() = default;
  ~Listener();
  Listener(Listener&& other) noexcept;
  Listener& operator=(Listener&& other) noexcept;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  bool valid() const { return fd_ >= 0; }
  int port() const { return port_; }
  // Hands the socket over (the caller closes it); this object holds none after.
  int Release();

 private:
  Listener(int fd, int port) : fd_(fd), port_(port) {}
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace folio::http
