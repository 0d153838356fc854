// A parsed HTTP/1.x request head: request line and header fields, as sent.
#pragma once

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

  // The value of the first field named `name` (ASCII case-insensitive); "" when absent.
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
  // True when the field `name` holds `token` in its comma-separated list
  // (case-insensitive): HasToken("Connection", "close").
  bool HasToken(std::string_view name, std::string_view token) const;
};

}  // namespace folio::http
