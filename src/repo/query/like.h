// CMIS LIKE: '%' matches any run of characters, '_' exactly one character (UTF-8), a
// backslash takes the next character literally (\% \_ \\ \'), a doubled quote is one
// quote; everything else matches itself, case-sensitively (as SQL LIKE does, and as
// '=' compares). Used by the index as the SQL function folio_like(value, pattern).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace folio::query {

struct LikePattern {
  enum class Kind { kLiteral, kOne, kAny };
  struct Part {
    Kind kind;
    std::string literal;  // kLiteral: one or more characters
  };
  std::vector<Part> parts;
};

// Compiles a pattern as written in the statement (escapes unresolved).
LikePattern CompileLike(std::string_view pattern);

// True if `value` matches. Time is at most proportional to the product of the two
// lengths (no exponential backtracking, whatever the pattern).
bool LikeMatch(const LikePattern& pattern, std::string_view value);

// The characters every match starts with (the literal text before the first wildcard),
// so that an index range can find the candidates: "report\_%" -> "report_".
std::string LikePrefix(const LikePattern& pattern);

}  // namespace folio::query
