// The tokens of CMIS QL: identifiers (keywords are identifiers that the parser compares
// case-insensitively), single-quoted strings, numbers and punctuation, each with its
// position for error messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "folio/status.h"
#include "repo/query/ast.h"

namespace folio::query {

enum class TokenKind {
  kIdentifier,  // cmis:name, d, SELECT, IN_FOLDER, acme:my-type
  kString,      // 'text'
  kNumber,      // 42, -3.5, 1.2E3
  kLParen,
  kRParen,
  kComma,
  kStar,
  kDot,
  kEq,
  kNe,  // <>
  kLt,
  kGt,
  kLe,
  kGe,
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  // kIdentifier, kNumber: as written. kString: the bytes between the quotes as written
  // (escapes kept: LIKE and CONTAINS give them their own meaning; see
  // UnescapeStringLiteral).
  std::string text;
  SourcePos pos;
};

// Splits `statement` into tokens, ending with one kEnd.
// Errors: kInvalidArgument naming the position of an unterminated string or of a
// character that starts no token.
Result<std::vector<Token>> Tokenize(std::string_view statement);

// The value of a string literal from its raw text: a backslash takes the next
// character literally (\' is a quote, \\ a backslash) and a doubled quote is one quote
// (as OpenCMIS accepts).
std::string UnescapeStringLiteral(std::string_view raw);

// How a token reads in an error message: "'FROM'", "string 'abc'", "end of statement".
std::string DescribeToken(const Token& token);

}  // namespace folio::query
