// The CMIS QL parser: a statement in, a syntax tree (ast.h) out.
//
// Hand-written recursive descent over the tokens of lexer.h rather than a parser
// library (PEGTL is installed): the grammar is small (CMIS 1.1 §2.1.14.2), every error
// must say where it is and what was expected in words a user understands ("expected a
// comparison operator, IN, LIKE or IS after 'cmis:name'"), and the recursion must stop at
// a fixed depth before the stack does, all of which are a few lines here and custom
// error and control classes with a grammar library. The parser has its own tests
// (tests/repo/query/parser_test.cc).
//
// Limits (docs/API.md §12.4): a statement of at most kMaxStatementBytes; parentheses and
// NOT nested at most kMaxNesting deep; at most kMaxPredicates predicates and
// kMaxListValues values in all IN lists together; at most kMaxOrderKeys ORDER BY keys and
// kMaxSelectItems select items. They bound the time and memory of every later step.
#pragma once

#include <string_view>

#include "folio/status.h"
#include "repo/query/ast.h"

namespace folio::query {

inline constexpr size_t kMaxStatementBytes = 100000;
inline constexpr int kMaxNesting = 32;
inline constexpr int kMaxPredicates = 500;
inline constexpr size_t kMaxListValues = 10000;
inline constexpr size_t kMaxOrderKeys = 16;
inline constexpr size_t kMaxSelectItems = 500;

// Parses one statement:
//   SELECT (* | item {, item}) FROM type [[AS] alias] [WHERE condition]
//   [ORDER BY column [ASC|DESC] {, column [ASC|DESC]}]
// Keywords in any case; identifiers as written. JOIN is refused (capabilityJoin none).
// Errors: kInvalidArgument "syntax error at line L, column C: expected X, found Y" (or
// naming the limit exceeded); "missing statement" for an empty or blank one.
Result<ParsedQuery> Parse(std::string_view statement);

}  // namespace folio::query
