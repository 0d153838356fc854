// api::Response: what the service answers, before src/http writes it to the socket.
// Plain data; built by the operations (ops/) and by error_response.h.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "folio/fs.h"
#include "folio/status.h"

namespace folio::api {

// More of a response's body, made while it is sent: a listing of 10,000 children is
// never held whole (ops/object_read_ops.cc). Called on the thread that sends the
// response, after the operation has returned: it must own all it uses.
class BodyProducer {
 public:
  virtual ~BodyProducer() = default;
  // Appends the next part of the body to `out` (about 64 KiB at most); true while more
  // is to come, false with the last part. An error once the response has begun cuts
  // it short: src/http closes the connection without the last chunk, which a client
  // reads as an incomplete response, never as a complete one.
  virtual Result<bool> Next(std::string& out) = 0;
};

struct Response {
  int status = 200;
  std::string content_type;  // "" when there is no body
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // A content stream to send instead of `body`: `length` bytes from `offset`.
  std::unique_ptr<ReadableFile> stream;
  uint64_t offset = 0;
  uint64_t length = 0;
  // The rest of the body after `body`, made as it is sent (HTTP/1.1: chunked transfer
  // coding; HTTP/1.0: the connection closes after it). Not with `stream`.
  std::unique_ptr<BodyProducer> producer;
  // Close the connection without sending anything of this response (a fault the request
  // asked for: docs/API.md §14.4); the request log still records it.
  bool drop_connection = false;
  std::string operation;  // the operation's canonical name, for the request log
  std::string exception;  // the CMIS exception name when the request failed
  std::string message;    // and its message (for the request log)
  // Set by an operation whose answer may be given again, byte for byte, to the same
  // request (the same URL and credentials, no body) for as long as this returns true:
  // getObject of a document (ops/object_read_ops.cc), while the object is the one shown
  // and the credentials stand for the same caller with the same groups. src/http keeps
  // such answers (api/response_cache.h) and calls this before each reuse. Thread-safe.
  std::function<bool()> still_valid;
};

}  // namespace folio::api
