// Fuzz target: multipart/form-data (api/multipart.h) fed in pieces, with the boundary
// taken from a Content-Type value at the start of the input (up to the first newline).
// Invariants: the parser never reports data outside a part, parts begin and end in
// pairs, a part has a name or is a file, a file name holds no '/' or '\' (it is trimmed to its
// last segment), and every error message is valid UTF-8.
#include <cstdint>
#include <string>

#include "api/multipart.h"
#include "api/url.h"
#include "fuzz_input.h"

namespace {

class CheckingSink : public folio::api::MultipartSink {
 public:
  folio::Status OnPartBegin(const folio::api::PartHeader& header) override {
    FOLIO_FUZZ_CHECK(!in_part_);
    FOLIO_FUZZ_CHECK(!header.name.empty() || header.has_file_name);  // a nameless file part is the content
    FOLIO_FUZZ_CHECK(header.file_name.find('/') == std::string::npos);
    FOLIO_FUZZ_CHECK(header.file_name.find('\\') == std::string::npos);
    in_part_ = true;
    return folio::OkStatus();
  }
  folio::Status OnPartData(std::string_view bytes) override {
    FOLIO_FUZZ_CHECK(in_part_);
    bytes_ += bytes.size();
    return folio::OkStatus();
  }
  folio::Status OnPartEnd() override {
    FOLIO_FUZZ_CHECK(in_part_);
    in_part_ = false;
    return folio::OkStatus();
  }
  bool in_part() const { return in_part_; }
  size_t bytes() const { return bytes_; }

 private:
  bool in_part_ = false;
  size_t bytes_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio::api;
  folio::fuzz::Split split = folio::fuzz::SplitInput(data, size);
  const size_t newline = split.input.find('\n');
  if (newline == std::string_view::npos) return 0;
  auto boundary = MultipartBoundary(split.input.substr(0, newline));
  if (!boundary.ok()) {
    FOLIO_FUZZ_CHECK(IsValidUtf8(boundary.status().message()));
    return 0;
  }
  const size_t body_start = static_cast<size_t>(newline + 1);
  MultipartParser parser(*boundary);
  CheckingSink sink;
  folio::Status status;
  size_t at = 0;
  for (std::string_view piece : split.pieces) {
    // Only the body after the first newline is fed; the pieces keep their sizes.
    const size_t end = at + piece.size();
    if (end > body_start) {
      const size_t from = std::max(at, body_start);
      status = parser.Feed(split.input.substr(from, end - from), sink);
      if (!status.ok()) break;
    }
    at = end;
  }
  if (status.ok()) {
    status = parser.Finish();
    if (status.ok()) FOLIO_FUZZ_CHECK(!sink.in_part());
  }
  if (!status.ok()) FOLIO_FUZZ_CHECK(IsValidUtf8(status.message()));
  FOLIO_FUZZ_CHECK(sink.bytes() <= split.input.size());
  return 0;
}
