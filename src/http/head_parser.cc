// The request head parser; see head_parser.h.
#include "http/head_parser.h"

#include <cstring>

#include "api/ascii.h"
#include "api/url.h"

namespace folio::http {
namespace {

// RFC 9110 §5.6.2: the characters of a token (method, field name).
bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsTokenChar(c)) return false;
  }
  return true;
}

bool IsOws(char c) { return c == ' ' || c == '\t'; }

// One rule for line ends (docs/API.md §3.9): a bare LF is refused wherever HTTP frames
// lines (the head here, chunked bodies in body_framer.cc), so that no server or proxy
// before Folio can read the lines differently.
constexpr const char* kBareLf = "a line of the request head ends in a bare LF: lines end with CRLF";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsOws(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsOws(s.back())) s.remove_suffix(1);
  return s;
}

// The next line of `text` from `pos` (without its CRLF); moves `pos`.
std::string_view NextLine(std::string_view text, size_t& pos) {
  size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

std::string_view HttpHead::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (api::EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

bool HttpHead::has_header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (api::EqualsIgnoreCase(k, name)) return true;
  }
  return false;
}

bool HttpHead::HasToken(std::string_view name, std::string_view token) const {
  for (const auto& [k, v] : headers) {
    if (!api::EqualsIgnoreCase(k, name)) continue;
    std::string_view rest = v;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      if (api::EqualsIgnoreCase(Trim(rest.substr(0, comma)), token)) return true;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return false;
}

void HeadParser::Reset() {
  scanned_ = 0;
  line_start_ = 0;
  start_ = 0;
  lines_ = 0;
  started_ = false;
  head_ = HttpHead();
  head_size_ = 0;
  error_status_ = 0;
  error_message_.clear();
}

HeadParser::State HeadParser::Fail(int status, std::string message) {
  error_status_ = status;
  error_message_ = std::move(message);
  return State::kError;
}

HeadParser::State HeadParser::Parse(std::string_view buffer) {
  const auto too_large = [this] {
    return "the request line and headers are larger than the limit of " + std::to_string(limits_.max_bytes) +
           " bytes";
  };
  while (scanned_ < buffer.size()) {
    if (!started_) {
      const char c = buffer[scanned_];
      if (c == '\r') {
        if (scanned_ + 1 == buffer.size()) break;  // its LF has not arrived
        if (buffer[scanned_ + 1] == '\n') {
          start_ = line_start_ = scanned_ += 2;
          continue;
        }
      }
      if (c == '\n') return Fail(400, kBareLf);
      started_ = true;
    }
    const char* lf = static_cast<const char*>(std::memchr(buffer.data() + scanned_, '\n', buffer.size() - scanned_));
    if (lf == nullptr) {
      scanned_ = buffer.size();
      break;
    }
    const size_t line_start = line_start_;
    const size_t end = static_cast<size_t>(lf - buffer.data());
    scanned_ = line_start_ = end + 1;
    if (end == line_start || buffer[end - 1] != '\r') return Fail(400, kBareLf);
    const bool empty = end == line_start + 1;
    if (empty) {
      head_size_ = scanned_;
      if (head_size_ > limits_.max_bytes) return Fail(431, too_large());
      return ParseHead(buffer.substr(start_, line_start - start_));
    }
    if (++lines_ > limits_.max_fields + 1) {
      return Fail(431, "the request has more than the limit of " + std::to_string(limits_.max_fields) +
                           " header fields");
    }
  }
  if (buffer.size() > limits_.max_bytes) return Fail(431, too_large());
  return State::kIncomplete;
}

HeadParser::State HeadParser::ParseHead(std::string_view text) {
  size_t pos = 0;
  const std::string_view line = NextLine(text, pos);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos) {
    return Fail(400, "malformed request line " + api::QuoteForMessage(line) + ": expected METHOD TARGET HTTP/1.1");
  }
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  bool target_ok = !target.empty();
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) target_ok = false;
  }
  if (!IsToken(method) || !target_ok) {
    return Fail(400, "malformed request line " + api::QuoteForMessage(line) + ": expected METHOD TARGET HTTP/1.1");
  }
  if (version == "HTTP/1.1") {
    head_.minor_version = 1;
  } else if (version == "HTTP/1.0") {
    head_.minor_version = 0;
  } else if (version.size() == 8 && version.substr(0, 5) == "HTTP/" && version[6] == '.') {
    return Fail(505, "HTTP version " + api::QuoteForMessage(version.substr(5)) + " is not supported: use HTTP/1.1");
  } else {
    return Fail(400, "malformed request line " + api::QuoteForMessage(line) + ": expected METHOD TARGET HTTP/1.1");
  }
  head_.method.assign(method);
  head_.target.assign(target);
  head_.headers.reserve(lines_ > 0 ? lines_ - 1 : 0);
  while (pos < text.size()) {
    const std::string_view field = NextLine(text, pos);
    if (!field.empty() && IsOws(field.front())) {
      return Fail(400, "header field line " + api::QuoteForMessage(field) +
                           " starts with a space (obsolete line folding is not accepted)");
    }
    const size_t colon = field.find(':');
    const std::string_view name = field.substr(0, colon);
    if (colon == std::string_view::npos || !IsToken(name)) {
      return Fail(400, "malformed header field " + api::QuoteForMessage(field) + ": expected NAME: VALUE");
    }
    const std::string_view value = Trim(field.substr(colon + 1));
    for (char c : value) {
      const unsigned char u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7F) {
        return Fail(400, "header field " + api::QuoteForMessage(name) + " holds a control character");
      }
    }
    head_.headers.emplace_back(name, value);
  }
  return State::kComplete;
}

}  // namespace folio::http
