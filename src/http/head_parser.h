// Reading an HTTP/1.x request head out of the bytes of a connection as they arrive,
// within limits (docs/API.md, "Limits"): the request line and the header fields may take
// at most `max_bytes` in all and hold at most `max_fields` fields. Both are checked while
// the head arrives, so a client that sends header lines forever is refused after the
// first `max_bytes`, not when memory runs out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "http/http_head.h"

namespace folio::http {

struct HeadLimits {
  size_t max_bytes = 64 * 1024;
  size_t max_fields = 100;
};

class HeadParser {
 public:
  enum class State { kIncomplete, kComplete, kError };

  explicit HeadParser(HeadLimits limits = {}) : limits_(limits) {}

  // Looks for a complete head at the start of `buffer`, which holds the bytes received
  // for this request so far (between calls it only grows at its end, until Reset()).
  // Empty lines before the request line are skipped (RFC 9112 §2.2); every line must
  // end in CRLF (a bare LF is 400).
  // kComplete: head() is the parsed head and head_size() the bytes it took.
  // kError: error_status() is 431 (over the limits), 400 (malformed) or 505 (an HTTP
  // version other than 1.0 and 1.1), error_message() says what, naming the field.
  State Parse(std::string_view buffer);

  HttpHead& head() { return head_; }
  size_t head_size() const { return head_size_; }
  int error_status() const { return error_status_; }
  const std::string& error_message() const { return error_message_; }
  // True once a byte of the request line has arrived (empty lines do not count).
  bool started() const { return started_; }

  // Prepares for the next request on the connection.
  void Reset();

 private:
  State Fail(int status, std::string message);
  State ParseHead(std::string_view text);

  HeadLimits limits_;
  size_t scanned_ = 0;  // bytes of the buffer already looked at for line ends
  size_t line_start_ = 0;  // where the line being received begins
  size_t start_ = 0;    // where the request line starts (after leading empty lines)
  size_t lines_ = 0;    // complete lines of the head so far (the request line included)
  bool started_ = false;
  HttpHead head_;
  size_t head_size_ = 0;
  int error_status_ = 0;
  std::string error_message_;
};

}  // namespace folio::http
