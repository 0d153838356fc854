// A request head as Folio reads it: request line and header fields as sent, and the
// socket's two ends (never a header a client sent: docs/API.md §13's rules and the request
// log see the peer the kernel reports).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace folio::http {

struct HttpHead {
  std::string method;        // as sent: methods are case-sensitive ("GET", "POST", ...)
  std::string target;        // the request target as sent: "/a/b?x=1"
  int minor_version = 1;     // HTTP/1.0 or HTTP/1.1
  // Header fields in the order sent; names as sent, values without surrounding spaces.
  std::vector<std::pair<std::string, std::string>> headers;
  uint64_t content_length = 0;  // of the body (0 when none, or chunked)
  std::string peer_address;     // numeric: "127.0.0.1", "::1" ("" when unknown)
  std::string local_address;    // the address the client connected to (numeric)
  int local_port = 0;

  // The value of the first field named `name` (ASCII case-insensitive); "" when absent.
  std::string_view header(std::string_view name) const;
};

}  // namespace folio::http
