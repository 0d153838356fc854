// Percent-decoding, path splitting, form-urlencoded pairs and RFC 5987 decoding.
#include "api/url.h"

#include "api/ascii.h"

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
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view piece = text.substr(start, end - start);
    start = end + 1;
    if (piece.empty()) continue;
    const size_t eq = piece.find('=');
    const std::string_view raw_name = piece.substr(0, eq);
    const std::string_view raw_value =
        eq == std::string_view::npos ? std::string_view() : piece.substr(eq + 1);
    Decoded name = Decode(raw_name, PlusMode::kSpace, true);
    if (name.error != Decoded::Error::kNone) {
      return DecodeFailure(name, raw_name, std::string(what) + " parameter name " + QuoteForMessage(raw_name));
    }
    Decoded value = Decode(raw_value, PlusMode::kSpace, true);
    if (value.error != Decoded::Error::kNone) {
      return DecodeFailure(value, raw_value, std::string(what) + " parameter " + QuoteForMessage(name.bytes));
    }
    pairs.emplace_back(std::move(name.bytes), std::move(value.bytes));
  }
  return pairs;
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
