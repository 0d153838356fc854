// The text search expression of CONTAINS (CMIS 1.1 §2.1.14.2.4.4): words separated by
// spaces are ANDed, OR between them makes alternatives (AND binds tighter), a leading '-'
// excludes a word or phrase, double quotes make a phrase (its words in order). A
// backslash takes the next character literally (\" \- \\ \'). Matching is done by the
// full-text index (SQLite FTS5, unicode61 tokenizer: case and accents ignored).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "folio/status.h"

namespace folio::query {

inline constexpr size_t kMaxTextTerms = 100;

struct TextTerm {
  bool negated = false;
  std::string text;  // a word, or a phrase's words separated by single spaces
};

// Alternatives (OR) of conjunctions (AND) of terms.
struct TextQuery {
  std::vector<std::vector<TextTerm>> any_of;
};

// Parses `raw`, the text of the QL string literal as written (its escapes unresolved).
// Terms with no letter or digit are dropped (the index has no token for them).
// Errors: kInvalidArgument for an unterminated phrase, an OR without a term on both
// sides, more than kMaxTextTerms terms, or no word at all.
Result<TextQuery> ParseTextSearch(std::string_view raw);

// The FTS5 MATCH expression for the terms of `conjunct` that are not negated, joined by
// AND, with the negated ones as NOT; "" when it has no positive term (FTS5 cannot
// express "everything except"; the caller subtracts such a conjunct's matches itself).
std::string Fts5Conjunct(const std::vector<TextTerm>& conjunct);
// One term as an FTS5 string ("word" or "the phrase"), quotes doubled.
std::string Fts5String(const std::string& text);

}  // namespace folio::query
