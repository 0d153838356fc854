// Fast JSON text; see json_text.h.
#include "storage/json_text.h"

#include <charconv>
#include <cstdint>
#include <cstring>

#include "storage/utf8.h"

namespace folio::storage {
namespace {

// Whether the byte can be copied into a string literal as it is (bytes >= 0x80 are,
// once the whole string is known to be valid UTF-8).
inline bool Plain(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; }

// Eight bytes at a time (most text has nothing to escape): a word is checked as a
// whole, and only a word with a byte to look at is looked at byte by byte.
constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighs = 0x8080808080808080ULL;

inline uint64_t Load8(const char* p) {
  uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
// Nonzero when some byte of `x` is zero (exact as a yes/no).
inline uint64_t HasZero(uint64_t x) { return (x - kOnes) & ~x & kHighs; }
// Nonzero when some byte of `x` is below 0x20, '"' or '\\' (bytes >= 0x80 never count).
inline uint64_t HasSpecial(uint64_t x) {
  return ((x - kOnes * 0x20) & ~x & kHighs) | HasZero(x ^ (kOnes * '"')) | HasZero(x ^ (kOnes * '\\'));
}

}  // namespace

bool IsPlainAscii(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = Load8(p + i);
    if ((HasSpecial(x) | (x & kHighs)) != 0) return false;
  }
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c >= 0x80 || !Plain(c)) return false;
  }
  return true;
}

namespace {

bool NeedsUtf8Check(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  size_t i = 0;
  uint64_t high = 0;
  for (; i + 8 <= n; i += 8) high |= Load8(p + i);
  if ((high & kHighs) != 0) return true;
  for (; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) >= 0x80) return true;
  }
  return false;
}

void AppendIndent(std::string& out, int indent, int depth) {
  out.push_back('\n');
  out.append(static_cast<size_t>(indent) * static_cast<size_t>(depth), ' ');
}

void AppendValue(std::string& out, const Json& v, int indent, int depth) {
  switch (v.type()) {
    case Json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out.push_back('{');
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out.push_back(',');
        first = false;
        if (indent >= 0) AppendIndent(out, indent, depth + 1);
        AppendJsonString(out, it.key());
        out += indent >= 0 ? ": " : ":";
        AppendValue(out, *it, indent, depth + 1);
      }
      if (indent >= 0) AppendIndent(out, indent, depth);
      out.push_back('}');
      return;
    }
    case Json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out.push_back('[');
      bool first = true;
      for (const Json& e : v) {
        if (!first) out.push_back(',');
        first = false;
        if (indent >= 0) AppendIndent(out, indent, depth + 1);
        AppendValue(out, e, indent, depth + 1);
      }
      if (indent >= 0) AppendIndent(out, indent, depth);
      out.push_back(']');
      return;
    }
    case Json::value_t::string:
      AppendJsonString(out, v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::null:
      out += "null";
      return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: {
      char buf[24];
      const auto r = v.type() == Json::value_t::number_integer
                         ? std::to_chars(buf, buf + sizeof buf, v.get<int64_t>())
                         : std::to_chars(buf, buf + sizeof buf, v.get<uint64_t>());
      out.append(buf, r.ptr);
      return;
    }
    default:
      // Floats (nlohmann's shortest round-trip form), binary, discarded: rare here.
      out += v.dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
  }
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  if (IsPlainAscii(s)) {
    out.reserve(out.size() + s.size() + 2);
    out.push_back('"');
    out.append(s);
    out.push_back('"');
    return;
  }
  if (NeedsUtf8Check(s) && !IsValidUtf8(s)) {
    // nlohmann's replacement rules for invalid sequences, as they always were.
    out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out.push_back('"');
  const char* p = s.data();
  const size_t n = s.size();
  size_t run = 0;  // start of the bytes not yet copied
  auto escape = [&](size_t i) {
    const auto c = static_cast<unsigned char>(p[i]);
    out.append(p + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out.append(esc, sizeof esc);
      }
    }
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (HasSpecial(Load8(p + i)) == 0) continue;
    for (size_t k = i; k < i + 8; ++k) {
      if (!Plain(static_cast<unsigned char>(p[k]))) escape(k);
    }
  }
  for (; i < n; ++i) {
    if (!Plain(static_cast<unsigned char>(p[i]))) escape(i);
  }
  out.append(p + run, n - run);
  out.push_back('"');
}

void AppendJson(std::string& out, const Json& value, int indent) { AppendValue(out, value, indent, 0); }

}  // namespace folio::storage
