// Where a request body ends (RFC 9112 §6): after Content-Length bytes, or after the last
// chunk of a chunked body, whose chunk framing is removed here. Bytes are fed as they
// arrive; the body's own bytes are handed on at once, never gathered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "folio/status.h"

namespace folio::http {

class BodyFramer {
 public:
  using Sink = std::function<Status(std::string_view bytes)>;

  static BodyFramer Length(uint64_t length);  // Length(0): no body
  static BodyFramer Chunked();

  // Takes body bytes from the front of `bytes`, hands them to `sink`, and returns how
  // many bytes of `bytes` it consumed: fewer than all once the body has ended (the rest
  // is the next request). An error of `sink` is returned as is.
  // Errors: kInvalidArgument "bad chunked encoding: ..." for a malformed chunk size line,
  // a chunk not followed by CRLF, or chunk size or trailer lines over 64 KiB.
  Result<size_t> Feed(std::string_view bytes, const Sink& sink);

  bool done() const { return state_ == State::kDone; }
  bool chunked() const { return chunked_; }

 private:
  enum class State { kData, kSizeLine, kDataEnd, kTrailer, kDone };

  explicit BodyFramer(bool chunked, uint64_t length);
  Status ChunkSizeLine(std::string_view line);

  bool chunked_;
  State state_;
  uint64_t remaining_;  // bytes left in the body (Length) or in the current chunk
  std::string line_;    // a chunk size or trailer line being gathered
  size_t trailer_bytes_ = 0;
};

}  // namespace folio::http
