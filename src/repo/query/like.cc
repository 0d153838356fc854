// CMIS LIKE matching; see like.h.
#include "repo/query/like.h"

namespace folio::query {
namespace {

// Bytes of the UTF-8 character starting at s[i] (1 for a stray or truncated byte).
size_t CharLen(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  return std::min(n, s.size() - i);
}

}  // namespace

LikePattern CompileLike(std::string_view p) {
  LikePattern out;
  auto literal = [&](std::string_view bytes) {
    if (out.parts.empty() || out.parts.back().kind != LikePattern::Kind::kLiteral) {
      out.parts.push_back({LikePattern::Kind::kLiteral, ""});
    }
    out.parts.back().literal.append(bytes);
  };
  for (size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      const size_t n = CharLen(p, i + 1);
      literal(p.substr(i + 1, n));
      i += 1 + n;
    } else if (c == '\'' && i + 1 < p.size() && p[i + 1] == '\'') {
      literal("'");
      i += 2;
    } else if (c == '%') {
      // Runs of % are one.
      if (out.parts.empty() || out.parts.back().kind != LikePattern::Kind::kAny) {
        out.parts.push_back({LikePattern::Kind::kAny, ""});
      }
      ++i;
    } else if (c == '_') {
      out.parts.push_back({LikePattern::Kind::kOne, ""});
      ++i;
    } else {
      const size_t n = CharLen(p, i);
      literal(p.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool LikeMatch(const LikePattern& pattern, std::string_view v) {
  const auto& parts = pattern.parts;
  size_t pi = 0, vi = 0;
  // The last '%' seen and the value position it is currently assumed to end at: on a
  // mismatch the '%' takes one more character. Only the last '%' ever needs to move
  // (the classic wildcard argument), so this is O(|pattern| * |value|).
  size_t star = std::string_view::npos, star_v = 0;
  while (vi < v.size() || pi < parts.size()) {
    if (pi < parts.size()) {
      const LikePattern::Part& part = parts[pi];
      if (part.kind == LikePattern::Kind::kAny) {
        star = pi++;
        star_v = vi;
        continue;
      }
      if (vi < v.size()) {
        if (part.kind == LikePattern::Kind::kOne) {
          vi += CharLen(v, vi);
          ++pi;
          continue;
        }
        if (v.substr(vi, part.literal.size()) == part.literal) {
          vi += part.literal.size();
          ++pi;
          continue;
        }
      }
    }
    if (star == std::string_view::npos || star_v >= v.size()) return false;
    star_v += CharLen(v, star_v);
    vi = star_v;
    pi = star + 1;
  }
  return true;
}

std::string LikePrefix(const LikePattern& pattern) {
  if (pattern.parts.empty() || pattern.parts[0].kind != LikePattern::Kind::kLiteral) return "";
  return pattern.parts[0].literal;
}

}  // namespace folio::query
