// Percent-decoding, path splitting, form-urlencoded pairs and RFC 5987 decoding.
#include "api/url.h"

#include "api/ascii.h"
#include "api/form_limits.h"

namespace folio::api {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The result of percent-decoding: the bytes, or where and why it failed.
struct Decoded {
  enum class Error { kNone, kEscape, kUtf8 };
  std::string bytes;
  Error error = Error::kNone;
  size_t at = 0;  // offset of the bad escape in the input
};

// Percent-decodes `text`, checking the result's encoding when `utf8`. Builds no
// message: most input is fine, and the callers' messages cost more than decoding.
Decoded Decode(std::string_view text, PlusMode plus, bool utf8) {
  Decoded d;
  d.bytes.reserve(text.size());
  bool ascii = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      const int hi = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        d.error = Decoded::Error::kEscape;
        d.at = i;
        return d;
      }
      const char b = static_cast<char>(hi * 16 + lo);
      ascii = ascii && static_cast<unsigned char>(b) < 0x80;
      d.bytes.push_back(b);
      i += 2;
    } else if (c == '+' && plus == PlusMode::kSpace) {
      d.bytes.push_back(' ');
    } else {
      ascii = ascii && static_cast<unsigned char>(c) < 0x80;
      d.bytes.push_back(c);
    }
  }
  if (utf8 && !ascii && !IsValidUtf8(d.bytes)) d.error = Decoded::Error::kUtf8;
  return d;
}

// The error for a failed Decode of `text`; `what` names the text in the message.
Status DecodeFailure(const Decoded& d, std::string_view text, std::string_view what) {
  if (d.error == Decoded::Error::kEscape) {
    return InvalidArgument("invalid percent-escape " + QuoteForMessage(text.substr(d.at, 3)) + " in " +
                           std::string(what));
  }
  return InvalidArgument("invalid UTF-8 in " + std::string(what));
}

}  // namespace

Result<std::string> PercentDecode(std::string_view text, std::string_view what, PlusMode plus) {
  Decoded d = Decode(text, plus, true);
  if (d.error != Decoded::Error::kNone) return DecodeFailure(d, text, what);
  return std::move(d.bytes);
}

Result<std::vector<std::string>> SplitPath(std::string_view raw_path) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (start <= raw_path.size()) {
    size_t end = raw_path.find('/', start);
    if (end == std::string_view::npos) end = raw_path.size();
    const std::string_view raw = raw_path.substr(start, end - start);
    start = end + 1;
    if (raw.empty()) continue;  // "//" and a trailing '/' (OpenCMIS does the same)
    Decoded decoded = Decode(raw, PlusMode::kLiteral, true);
    std::string& segment = decoded.bytes;
    const auto what = [&] { return "path segment " + QuoteForMessage(raw); };
    if (decoded.error != Decoded::Error::kNone) return DecodeFailure(decoded, raw, what());
    if (segment == "." || segment == "..") {
      return InvalidArgument(what() + " is '" + segment + "', which is not allowed");
    }
    if (segment.find('/') != std::string::npos) {
      return InvalidArgument(what() + " contains an encoded '/'");
    }
    if (segment.find('\0') != std::string::npos) return InvalidArgument(what() + " contains NUL");
    segments.push_back(std::move(segment));
  }
  return segments;
}

Result<std::vector<std::pair<std::string, std::string>>> ParseFormUrlencoded(
    std::string_view text, std::string_view what) {
  std::vector<std::pair<std::string, std::string>> pairs;
  UrlencodedParser parser(what, nullptr,
                          [&pairs](std::string name, std::string value) { pairs.emplace_back(std::move(name), std::move(value)); });
  FOLIO_RETURN_IF_ERROR(parser.Feed(text));
  FOLIO_RETURN_IF_ERROR(parser.Finish());
  return pairs;
}

// --- UrlencodedParser

namespace {
// Enough of a raw name to quote it in a message (QuoteForMessage shows 120 bytes).
constexpr size_t kRawNameKept = 128;
}  // namespace

UrlencodedParser::UrlencodedParser(std::string_view what, FormBudget* budget, Sink sink)
    : what_(what), budget_(budget), sink_(std::move(sink)) {}

Status UrlencodedParser::Feed(std::string_view bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    const char c = bytes[i];
    const bool ends_name = in_name_ && c == '=';
    if (escape_len_ > 0 && c != '&' && !ends_name) {
      escape_[escape_len_++] = c;
      ++i;
      if (escape_len_ == 3) FOLIO_RETURN_IF_ERROR(FinishEscape(false));
      continue;
    }
    if (c == '&' || ends_name || c == '%') {
      ++i;
      if (!piece_started_ && c != '&' && budget_ != nullptr) FOLIO_RETURN_IF_ERROR(budget_->BeginField());
      if (c != '&') piece_started_ = true;
      if (c == '%') {
        escape_[0] = '%';
        escape_len_ = 1;
      } else if (c == '&') {
        FOLIO_RETURN_IF_ERROR(EndPair());
      } else {
        FOLIO_RETURN_IF_ERROR(EndName());
      }
      continue;
    }
    size_t j = i;
    while (j < bytes.size() && bytes[j] != '&' && bytes[j] != '%' && !(in_name_ && bytes[j] == '=')) ++j;
    if (!piece_started_) {
      if (budget_ != nullptr) FOLIO_RETURN_IF_ERROR(budget_->BeginField());
      piece_started_ = true;
    }
    FOLIO_RETURN_IF_ERROR(Append(bytes.substr(i, j - i)));
    i = j;
  }
  return Charge();
}

Status UrlencodedParser::Finish() { return EndPair(); }

Status UrlencodedParser::Append(std::string_view span) {
  if (in_name_ && raw_name_.size() < kRawNameKept) {
    raw_name_.append(span.substr(0, kRawNameKept - raw_name_.size()));
  }
  if (!name_error_.empty()) return OkStatus();  // the name is bad: only its raw text matters now
  std::string& out = in_name_ ? name_ : value_;
  const size_t before = out.size();
  out.append(span);
  for (size_t k = before; k < out.size(); ++k) {
    const char c = out[k];
    if (c == '+') out[k] = ' ';
    ascii_ = ascii_ && static_cast<unsigned char>(c) < 0x80;
  }
  uncharged_ += span.size();
  // Charge early: a piece of a megabyte without a separator must not be held whole first.
  return uncharged_ >= 64 * 1024 ? Charge() : OkStatus();
}

Status UrlencodedParser::FinishEscape(bool terminated) {
  const std::string_view text(escape_, escape_len_);
  escape_len_ = 0;
  if (in_name_ && raw_name_.size() < kRawNameKept) {
    raw_name_.append(text.substr(0, kRawNameKept - raw_name_.size()));
  }
  if (!name_error_.empty()) return OkStatus();
  const int hi = text.size() > 1 ? HexValue(text[1]) : -1;
  const int lo = text.size() > 2 ? HexValue(text[2]) : -1;
  if (terminated || hi < 0 || lo < 0) {
    if (in_name_) {
      name_error_ = std::string(text);
      return OkStatus();
    }
    return EscapeFailure(text);
  }
  const char b = static_cast<char>(hi * 16 + lo);
  ascii_ = ascii_ && static_cast<unsigned char>(b) < 0x80;
  (in_name_ ? name_ : value_).push_back(b);
  ++uncharged_;
  return OkStatus();
}

Status UrlencodedParser::Charge() {
  if (budget_ == nullptr || uncharged_ == 0) return OkStatus();
  const size_t n = uncharged_;
  uncharged_ = 0;
  return in_name_ ? budget_->AddName(raw_name_, n) : budget_->AddValue(name_, n);
}

Status UrlencodedParser::EscapeFailure(std::string_view escape_text) const {
  const std::string where = in_name_ ? what_ + " parameter name " + QuoteForMessage(raw_name_)
                                     : what_ + " parameter " + QuoteForMessage(name_);
  return InvalidArgument("invalid percent-escape " + QuoteForMessage(escape_text) + " in " + where);
}

Status UrlencodedParser::EndName() {
  if (escape_len_ > 0) FOLIO_RETURN_IF_ERROR(FinishEscape(true));
  if (!name_error_.empty()) return EscapeFailure(name_error_);
  FOLIO_RETURN_IF_ERROR(Charge());
  if (!ascii_ && !IsValidUtf8(name_)) {
    return InvalidArgument("invalid UTF-8 in " + what_ + " parameter name " + QuoteForMessage(raw_name_));
  }
  in_name_ = false;
  ascii_ = true;
  return OkStatus();
}

Status UrlencodedParser::EndPair() {
  if (in_name_) FOLIO_RETURN_IF_ERROR(EndName());
  if (escape_len_ > 0) FOLIO_RETURN_IF_ERROR(FinishEscape(true));
  FOLIO_RETURN_IF_ERROR(Charge());
  if (!ascii_ && !IsValidUtf8(value_)) {
    return InvalidArgument("invalid UTF-8 in " + what_ + " parameter " + QuoteForMessage(name_));
  }
  if (piece_started_) sink_(std::move(name_), std::move(value_));
  name_.clear();
  value_.clear();
  raw_name_.clear();
  in_name_ = true;
  ascii_ = true;
  piece_started_ = false;
  return OkStatus();
}

Result<std::string> DecodeRfc5987(std::string_view value) {
  const std::string quoted = QuoteForMessage(value);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  const size_t first = value.find('\'');
  const size_t second = first == std::string_view::npos ? first : value.find('\'', first + 1);
  if (second == std::string_view::npos) {
    return InvalidArgument("malformed RFC 5987 value " + quoted +
                           ": expected charset'language'text");
  }
  const std::string_view charset = value.substr(0, first);
  const std::string what = "RFC 5987 value " + quoted;
  Decoded decoded = Decode(value.substr(second + 1), PlusMode::kLiteral, false);
  if (decoded.error != Decoded::Error::kNone) return DecodeFailure(decoded, value.substr(second + 1), what);
  std::string& bytes = decoded.bytes;
  if (EqualsIgnoreCase(charset, "UTF-8")) {
    if (!IsValidUtf8(bytes)) return InvalidArgument("invalid UTF-8 in " + what);
    return bytes;
  }
  if (EqualsIgnoreCase(charset, "ISO-8859-1")) {
    std::string utf8;
    for (const char ch : bytes) {
      const unsigned char c = static_cast<unsigned char>(ch);
      if (c < 0x80) {
        utf8.push_back(ch);
      } else {
        utf8.push_back(static_cast<char>(0xC0 | (c >> 6)));
        utf8.push_back(static_cast<char>(0x80 | (c & 0x3F)));
      }
    }
    return utf8;
  }
  return InvalidArgument("unsupported charset " + QuoteForMessage(charset) + " in " + what +
                         ": expected UTF-8 or ISO-8859-1");
}

}  // namespace folio::api
