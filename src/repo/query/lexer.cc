// CMIS QL tokens; see lexer.h.
#include "repo/query/lexer.h"

namespace folio::query {
namespace {

bool IsIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
// Query names may hold ':' (cmis:name) and '-' (acme:my-type); CMIS forbids only
// spaces, commas, quotes, backslashes, periods and parentheses in them.
bool IsIdentPart(unsigned char c) { return std::isalnum(c) || c == '_' || c == ':' || c == '-' || c >= 0x80; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Quotes `text` for a message, shortened to 40 bytes.
std::string Shown(std::string_view text) {
  if (text.size() > 40) return "'" + std::string(text.substr(0, 40)) + "...'";
  return "'" + std::string(text) + "'";
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    for (;;) {
      SkipSpace();
      Token t;
      t.pos = Pos();
      if (i_ >= s_.size()) {
        t.kind = TokenKind::kEnd;
        out.push_back(std::move(t));
        return out;
      }
      const char c = s_[i_];
      const char next = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
      if (IsIdentStart(static_cast<unsigned char>(c))) {
        size_t start = i_;
        while (i_ < s_.size() && IsIdentPart(static_cast<unsigned char>(s_[i_]))) Advance();
        t.kind = TokenKind::kIdentifier;
        t.text = std::string(s_.substr(start, i_ - start));
      } else if (c == '\'') {
        FOLIO_RETURN_IF_ERROR(String(t));
      } else if (IsDigit(c) || ((c == '-' || c == '+' || c == '.') && (IsDigit(next) || (next == '.' && c != '.')))) {
        FOLIO_RETURN_IF_ERROR(Number(t));
      } else {
        t.text = std::string(1, c);
        Advance();
        switch (c) {
          case '(':
            t.kind = TokenKind::kLParen;
            break;
          case ')':
            t.kind = TokenKind::kRParen;
            break;
          case ',':
            t.kind = TokenKind::kComma;
            break;
          case '*':
            t.kind = TokenKind::kStar;
            break;
          case '.':
            t.kind = TokenKind::kDot;
            break;
          case '=':
            t.kind = TokenKind::kEq;
            break;
          case '<':
            if (i_ < s_.size() && s_[i_] == '>') {
              Advance();
              t.kind = TokenKind::kNe;
              t.text = "<>";
            } else if (i_ < s_.size() && s_[i_] == '=') {
              Advance();
              t.kind = TokenKind::kLe;
              t.text = "<=";
            } else {
              t.kind = TokenKind::kLt;
            }
            break;
          case '>':
            if (i_ < s_.size() && s_[i_] == '=') {
              Advance();
              t.kind = TokenKind::kGe;
              t.text = ">=";
            } else {
              t.kind = TokenKind::kGt;
            }
            break;
          default: {
            std::string shown = static_cast<unsigned char>(c) < 0x20 ? "byte " + std::to_string(c) : Shown(t.text);
            return InvalidArgument("syntax error at " + DescribePos(t.pos) + ": unexpected character " + shown);
          }
        }
      }
      out.push_back(std::move(t));
    }
  }

 private:
  SourcePos Pos() const { return SourcePos{i_, line_, static_cast<int>(i_ - line_start_) + 1}; }

  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }

  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) Advance();
  }

  Status String(Token& t) {
    Advance();  // the opening quote
    const size_t start = i_;
    for (;;) {
      if (i_ >= s_.size()) {
        return InvalidArgument("syntax error at " + DescribePos(t.pos) +
                               ": string literal is not terminated (expected a closing ')");
      }
      const char c = s_[i_];
      if (c == '\\') {
        Advance();
        if (i_ < s_.size()) Advance();
        continue;
      }
      if (c == '\'') {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == '\'') {  // '' is a quote inside the literal
          Advance();
          Advance();
          continue;
        }
        t.kind = TokenKind::kString;
        t.text = std::string(s_.substr(start, i_ - start));
        Advance();
        return OkStatus();
      }
      Advance();
    }
  }

  Status Number(Token& t) {
    const size_t start = i_;
    if (s_[i_] == '-' || s_[i_] == '+') Advance();
    while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
    if (i_ < s_.size() && s_[i_] == '.') {
      Advance();
      while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      Advance();
      if (i_ < s_.size() && (s_[i_] == '-' || s_[i_] == '+')) Advance();
      if (i_ >= s_.size() || !IsDigit(s_[i_])) {
        return InvalidArgument("syntax error at " + DescribePos(Pos()) + ": expected the digits of an exponent in " +
                               Shown(s_.substr(start, i_ - start)));
      }
      while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
    }
    if (i_ < s_.size() && IsIdentStart(static_cast<unsigned char>(s_[i_]))) {
      return InvalidArgument("syntax error at " + DescribePos(t.pos) + ": malformed number " +
                             Shown(s_.substr(start, i_ - start + 1)));
    }
    t.kind = TokenKind::kNumber;
    t.text = std::string(s_.substr(start, i_ - start));
    return OkStatus();
  }

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

std::string DescribePos(const SourcePos& pos) {
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

Result<std::vector<Token>> Tokenize(std::string_view statement) { return Lexer(statement).Run(); }

std::string UnescapeStringLiteral(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      out += raw[++i];
    } else if (raw[i] == '\'' && i + 1 < raw.size() && raw[i + 1] == '\'') {
      out += '\'';
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of statement";
    case TokenKind::kString:
      return "string " + Shown(token.text);
    case TokenKind::kNumber:
      return "number " + token.text;
    default:
      return Shown(token.text);
  }
}

}  // namespace folio::query
