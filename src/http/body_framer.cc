// Content-Length and chunked bodies; see body_framer.h.
#include "http/body_framer.h"

#include <algorithm>

namespace folio::http {
namespace {

constexpr size_t kMaxLine = 64 * 1024;      // a chunk size line (with extensions)
constexpr size_t kMaxTrailer = 64 * 1024;   // all trailer lines together

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Status Bad(std::string_view what) { return InvalidArgument("bad chunked encoding: " + std::string(what)); }

}  // namespace

BodyFramer::BodyFramer(bool chunked, uint64_t length)
    : chunked_(chunked),
      state_(chunked ? State::kSizeLine : (length == 0 ? State::kDone : State::kData)),
      remaining_(length) {}

BodyFramer BodyFramer::Length(uint64_t length) { return BodyFramer(false, length); }
BodyFramer BodyFramer::Chunked() { return BodyFramer(true, 0); }

Status BodyFramer::ChunkSizeLine(std::string_view line) {
  uint64_t size = 0;
  size_t i = 0;
  for (; i < line.size() && HexDigit(line[i]) >= 0; ++i) {
    if (size > (uint64_t{1} << 59)) return Bad("chunk size is too large");
    size = size * 16 + static_cast<uint64_t>(HexDigit(line[i]));
  }
  if (i == 0) return Bad("a chunk size is not a hexadecimal number");
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i < line.size() && line[i] != ';') return Bad("unexpected text after a chunk size");
  remaining_ = size;
  state_ = size == 0 ? State::kTrailer : State::kData;
  return OkStatus();
}

Result<size_t> BodyFramer::Feed(std::string_view bytes, const Sink& sink) {
  size_t i = 0;
  while (i < bytes.size() && state_ != State::kDone) {
    if (state_ == State::kData) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, bytes.size() - i));
      FOLIO_RETURN_IF_ERROR(sink(bytes.substr(i, n)));
      i += n;
      remaining_ -= n;
      if (remaining_ == 0) state_ = chunked_ ? State::kDataEnd : State::kDone;
      continue;
    }
    // The other states read lines: gather one up to its LF.
    const size_t lf = bytes.find('\n', i);
    const size_t end = lf == std::string_view::npos ? bytes.size() : lf;
    line_.append(bytes.substr(i, end - i));
    if (state_ == State::kTrailer) trailer_bytes_ += end - i + 1;
    i = lf == std::string_view::npos ? bytes.size() : lf + 1;
    if (line_.size() > kMaxLine || trailer_bytes_ > kMaxTrailer) return Bad("a chunk size or trailer line is too long");
    if (lf == std::string_view::npos) break;
    // Lines end in CRLF, as in the head (head_parser.cc): a bare LF is refused.
    if (line_.empty() || line_.back() != '\r') return Bad("a line ends in a bare LF: chunked lines end with CRLF");
    std::string_view line = line_;
    line.remove_suffix(1);
    if (state_ == State::kSizeLine) {
      FOLIO_RETURN_IF_ERROR(ChunkSizeLine(line));
    } else if (state_ == State::kDataEnd) {
      if (!line.empty()) return Bad("a chunk is not followed by CRLF");
      state_ = State::kSizeLine;
    } else if (line.empty()) {  // kTrailer: an empty line ends the body
      state_ = State::kDone;
    }
    line_.clear();
  }
  return i;
}

}  // namespace folio::http
