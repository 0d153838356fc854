// The HTTP client of the tests, set up as the clients people use are (curl, browsers,
// Node): TCP_NODELAY, so that a POST's body, which cpp-httplib writes apart from its
// head, does not wait for a delayed ACK (40 ms a request on loopback).
#pragma once

#include <httplib.h>

#include <string>

namespace folio::testing {

inline httplib::Client TestClient(const std::string& host, int port) {
  httplib::Client c(host, port);
  c.set_tcp_nodelay(true);
  return c;
}

}  // namespace folio::testing
