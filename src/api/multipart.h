// A streaming multipart/form-data parser (RFC 7578): the body is fed in pieces as it
// arrives, and each part's header and bytes are handed on at once, so a file part is
// never held whole in memory. HTTP-free: src/http feeds it, tests feed it strings.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "folio/status.h"

namespace folio::api {

struct PartHeader {
  std::string name;          // the form field name
  bool has_file_name = false;
  std::string file_name;     // RFC 5987 `filename*` preferred, trimmed to its last / or \ segment
  std::string content_type;  // the part's Content-Type; "" when absent
};

class MultipartSink {
 public:
  virtual ~MultipartSink() = default;
  virtual Status OnPartBegin(const PartHeader& header) = 0;
  virtual Status OnPartData(std::string_view bytes) = 0;
  virtual Status OnPartEnd() = 0;
};

// The boundary parameter of a multipart Content-Type value.
// Errors: kInvalidArgument when it is missing, empty or longer than 70 characters.
Result<std::string> MultipartBoundary(std::string_view content_type);

class MultipartParser {
 public:
  explicit MultipartParser(std::string boundary);

  // Parses the next piece of the body, calling `sink` for what it completes. An error
  // from `sink` is returned as is. Errors: kInvalidArgument "malformed multipart body:
  // ..." for a part without a name, headers over 16 KiB or not terminated, a bad
  // Content-Disposition or filename*.
  Status Feed(std::string_view bytes, MultipartSink& sink);

  // Call at the end of the body. kInvalidArgument when the closing boundary is missing.
  Status Finish();

 private:
  enum class State { kPreamble, kAfterBoundary, kHeaders, kBody, kDone };
  Status ParseHeaders(std::string_view block, PartHeader& header) const;

  std::string delimiter_;  // "\r\n--" + boundary
  std::string buffer_;
  State state_ = State::kPreamble;
};

}  // namespace folio::api
