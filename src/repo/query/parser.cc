// CMIS QL parser; see parser.h for the grammar and why it is written by hand.
#include "repo/query/parser.h"

#include <array>
#include <charconv>
#include <cmath>

#include "repo/query/lexer.h"
#include "storage/datetime.h"

namespace folio::query {
namespace {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Words that are never identifiers (in any case).
constexpr std::array<std::string_view, 30> kReserved = {
    "SELECT",    "FROM",    "WHERE", "AS",   "AND",   "OR",   "NOT",   "IN",    "LIKE",      "IS",
    "NULL",      "ANY",     "ORDER", "BY",   "ASC",   "DESC", "TRUE",  "FALSE", "TIMESTAMP", "CONTAINS",
    "IN_FOLDER", "IN_TREE", "SCORE", "JOIN", "INNER", "LEFT", "OUTER", "ON",    "ALL",       "ESCAPE"};

bool IsReserved(std::string_view word) {
  for (std::string_view k : kReserved) {
    if (EqualsNoCase(word, k)) return true;
  }
  return false;
}

std::string_view TextOf(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGe:
      return ">=";
  }
  return "=";
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Result<ParsedQuery> Query() {
    ParsedQuery q;
    FOLIO_RETURN_IF_ERROR(ExpectKeyword("SELECT", "SELECT"));
    FOLIO_RETURN_IF_ERROR(SelectList(q));
    FOLIO_RETURN_IF_ERROR(ExpectKeyword("FROM", "',' or FROM"));
    q.from_pos = Peek().pos;
    FOLIO_ASSIGN_OR_RETURN(q.from, Identifier("a type name after FROM"));
    FOLIO_ASSIGN_OR_RETURN(q.from_alias, OptionalAlias());
    if (IsKeyword("JOIN") || IsKeyword("INNER") || IsKeyword("LEFT")) {
      return InvalidArgument("JOIN at " + DescribePos(Peek().pos) +
                             " is not supported: this repository queries one type at a time (capabilityJoin none)");
    }
    if (AcceptKeyword("WHERE")) {
      FOLIO_ASSIGN_OR_RETURN(q.where, Condition());
    }
    if (AcceptKeyword("ORDER")) {
      FOLIO_RETURN_IF_ERROR(ExpectKeyword("BY", "BY after ORDER"));
      FOLIO_RETURN_IF_ERROR(OrderBy(q));
    }
    if (Peek().kind != TokenKind::kEnd) {
      std::string what = q.order_by.empty() ? (q.where ? "AND, OR, ORDER BY or the end of the statement"
                                                       : "WHERE, ORDER BY or the end of the statement")
                                            : "',' or the end of the statement";
      return Expected(what);
    }
    return q;
  }

 private:
  const Token& Peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& Next() {
    const Token& t = t_[i_];
    if (i_ + 1 < t_.size()) ++i_;
    return t;
  }
  bool IsKeyword(std::string_view k, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokenKind::kIdentifier && EqualsNoCase(t.text, k);
  }
  bool AcceptKeyword(std::string_view k) {
    if (!IsKeyword(k)) return false;
    Next();
    return true;
  }
  bool Accept(TokenKind kind) {
    if (Peek().kind != kind) return false;
    Next();
    return true;
  }

  Status Expected(const std::string& what) const {
    return InvalidArgument("syntax error at " + DescribePos(Peek().pos) + ": expected " + what + ", found " +
                           DescribeToken(Peek()));
  }
  Status ExpectKeyword(std::string_view k, const std::string& what) {
    if (!AcceptKeyword(k)) return Expected(what);
    return OkStatus();
  }
  Status Expect(TokenKind kind, const std::string& what) {
    if (!Accept(kind)) return Expected(what);
    return OkStatus();
  }

  Result<std::string> Identifier(const std::string& what) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kIdentifier || IsReserved(t.text)) return Expected(what);
    return Next().text;
  }

  // [AS] alias, where a bare alias must not be a keyword.
  Result<std::string> OptionalAlias() {
    if (AcceptKeyword("AS")) return Identifier("an alias after AS");
    const Token& t = Peek();
    if (t.kind == TokenKind::kIdentifier && !IsReserved(t.text)) return Next().text;
    return std::string();
  }

  Result<ColumnRef> Column(const std::string& what) {
    ColumnRef c;
    c.pos = Peek().pos;
    FOLIO_ASSIGN_OR_RETURN(c.name, Identifier(what));
    if (Accept(TokenKind::kDot)) {
      c.qualifier = std::move(c.name);
      FOLIO_ASSIGN_OR_RETURN(c.name, Identifier("a property name after '" + c.qualifier + ".'"));
    }
    return c;
  }

  Status SelectList(ParsedQuery& q) {
    if (Peek().kind == TokenKind::kStar) {
      SelectItem item;
      item.kind = SelectItem::Kind::kStar;
      item.pos = Next().pos;
      q.select.push_back(std::move(item));
      return OkStatus();
    }
    do {
      if (q.select.size() >= kMaxSelectItems) {
        return InvalidArgument("the select list at " + DescribePos(Peek().pos) + " has more than " +
                               std::to_string(kMaxSelectItems) + " items");
      }
      SelectItem item;
      item.pos = Peek().pos;
      if (IsKeyword("SCORE") && Peek(1).kind == TokenKind::kLParen) {
        Next();
        Next();
        FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "')' after SCORE("));
        item.kind = SelectItem::Kind::kScore;
      } else if (Peek().kind == TokenKind::kIdentifier && Peek(1).kind == TokenKind::kDot &&
                 Peek(2).kind == TokenKind::kStar) {
        item.kind = SelectItem::Kind::kStar;
        item.column.qualifier = Next().text;
        item.column.pos = item.pos;
        Next();
        Next();
      } else {
        FOLIO_ASSIGN_OR_RETURN(item.column, Column("'*', a property name or SCORE()"));
      }
      if (item.kind != SelectItem::Kind::kStar) {
        FOLIO_ASSIGN_OR_RETURN(item.alias, OptionalAlias());
      }
      q.select.push_back(std::move(item));
    } while (Accept(TokenKind::kComma));
    return OkStatus();
  }

  Status OrderBy(ParsedQuery& q) {
    do {
      if (q.order_by.size() >= kMaxOrderKeys) {
        return InvalidArgument("ORDER BY at " + DescribePos(Peek().pos) + " has more than " +
                               std::to_string(kMaxOrderKeys) + " keys");
      }
      SortKey key;
      key.pos = Peek().pos;
      FOLIO_ASSIGN_OR_RETURN(key.column, Column("a property name or alias in ORDER BY"));
      if (AcceptKeyword("DESC")) {
        key.descending = true;
      } else {
        AcceptKeyword("ASC");
      }
      q.order_by.push_back(std::move(key));
    } while (Accept(TokenKind::kComma));
    return OkStatus();
  }

  // condition := term {OR term}; term := factor {AND factor}; factor := NOT factor |
  // '(' condition ')' | predicate. AND binds tighter than OR, NOT tighter than both.
  Result<std::unique_ptr<Expr>> Condition() {
    FOLIO_RETURN_IF_ERROR(Enter());
    FOLIO_ASSIGN_OR_RETURN(auto first, Term());
    if (!IsKeyword("OR")) {
      --depth_;
      return first;
    }
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kOr;
    e->pos = first->pos;
    e->children.push_back(std::move(first));
    while (AcceptKeyword("OR")) {
      FOLIO_ASSIGN_OR_RETURN(auto next, Term());
      e->children.push_back(std::move(next));
    }
    --depth_;
    return e;
  }

  Result<std::unique_ptr<Expr>> Term() {
    FOLIO_ASSIGN_OR_RETURN(auto first, Factor());
    if (!IsKeyword("AND")) return first;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kAnd;
    e->pos = first->pos;
    e->children.push_back(std::move(first));
    while (AcceptKeyword("AND")) {
      FOLIO_ASSIGN_OR_RETURN(auto next, Factor());
      e->children.push_back(std::move(next));
    }
    return e;
  }

  Result<std::unique_ptr<Expr>> Factor() {
    if (IsKeyword("NOT")) {
      auto e = std::make_unique<Expr>();
      e->kind = ExprKind::kNot;
      e->pos = Next().pos;
      FOLIO_RETURN_IF_ERROR(Enter());
      FOLIO_ASSIGN_OR_RETURN(auto inner, Factor());
      --depth_;
      e->children.push_back(std::move(inner));
      return e;
    }
    if (Accept(TokenKind::kLParen)) {
      FOLIO_ASSIGN_OR_RETURN(auto inner, Condition());
      FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "')', AND or OR"));
      return inner;
    }
    return Predicate();
  }

  Status Enter() {
    if (++depth_ > kMaxNesting) {
      return InvalidArgument("the condition at " + DescribePos(Peek().pos) + " is nested more than " +
                             std::to_string(kMaxNesting) + " levels deep (parentheses and NOT)");
    }
    return OkStatus();
  }

  Result<std::unique_ptr<Expr>> Predicate() {
    if (++predicates_ > kMaxPredicates) {
      return InvalidArgument("the condition has more than " + std::to_string(kMaxPredicates) + " predicates (at " +
                             DescribePos(Peek().pos) + ")");
    }
    auto e = std::make_unique<Expr>();
    e->pos = Peek().pos;
    for (auto [word, kind] : {std::pair{"CONTAINS", ExprKind::kContains}, std::pair{"IN_FOLDER", ExprKind::kInFolder},
                              std::pair{"IN_TREE", ExprKind::kInTree}}) {
      if (!IsKeyword(word)) continue;
      Next();
      e->kind = kind;
      FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kLParen, std::string("'(' after ") + word));
      if (Peek().kind == TokenKind::kIdentifier) {
        FOLIO_ASSIGN_OR_RETURN(e->qualifier, Identifier("a qualifier or a string"));
        FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kComma, "',' after the qualifier"));
      }
      if (Peek().kind != TokenKind::kString) {
        return Expected(kind == ExprKind::kContains ? "a text search expression in quotes" : "a folder id in quotes");
      }
      const Token& s = Next();
      e->text = kind == ExprKind::kContains ? s.text : UnescapeStringLiteral(s.text);
      FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, std::string("')' to close ") + word));
      return e;
    }
    if (AcceptKeyword("ANY")) {
      e->kind = ExprKind::kAnyIn;
      FOLIO_ASSIGN_OR_RETURN(e->column, Column("a multi-valued property after ANY"));
      e->negated = AcceptKeyword("NOT");
      FOLIO_RETURN_IF_ERROR(
          ExpectKeyword("IN", e->negated ? "IN after NOT" : "IN or NOT IN after ANY " + e->column.name));
      FOLIO_RETURN_IF_ERROR(List(*e));
      return e;
    }
    if (StartsLiteral()) {
      // lit = ANY column
      FOLIO_ASSIGN_OR_RETURN(Literal lit, ReadLiteral());
      e->kind = ExprKind::kAnyEquals;
      e->values.push_back(std::move(lit));
      FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kEq, "'=' ANY after a value (a comparison puts the property first)"));
      FOLIO_RETURN_IF_ERROR(ExpectKeyword("ANY", "ANY after '=' (a comparison puts the property first)"));
      FOLIO_ASSIGN_OR_RETURN(e->column, Column("a multi-valued property after ANY"));
      return e;
    }
    FOLIO_ASSIGN_OR_RETURN(e->column,
                           Column("a predicate (a property, CONTAINS, IN_FOLDER, IN_TREE, ANY, NOT or '(')"));
    const std::string after = "after '" + e->column.name + "'";
    std::optional<CompareOp> op;
    switch (Peek().kind) {
      case TokenKind::kEq:
        op = CompareOp::kEq;
        break;
      case TokenKind::kNe:
        op = CompareOp::kNe;
        break;
      case TokenKind::kLt:
        op = CompareOp::kLt;
        break;
      case TokenKind::kGt:
        op = CompareOp::kGt;
        break;
      case TokenKind::kLe:
        op = CompareOp::kLe;
        break;
      case TokenKind::kGe:
        op = CompareOp::kGe;
        break;
      default:
        break;
    }
    if (op) {
      Next();
      e->kind = ExprKind::kCompare;
      e->op = *op;
      if (IsKeyword("NULL")) {
        return InvalidArgument("syntax error at " + DescribePos(Peek().pos) + ": '" + e->column.name + " " +
                               std::string(TextOf(*op)) + " NULL' is never true: use IS NULL or IS NOT NULL");
      }
      if (!StartsLiteral()) return Expected("a value after '" + std::string(TextOf(*op)) + "'");
      FOLIO_ASSIGN_OR_RETURN(Literal lit, ReadLiteral());
      e->values.push_back(std::move(lit));
      return e;
    }
    if (AcceptKeyword("IS")) {
      e->kind = ExprKind::kIsNull;
      e->negated = AcceptKeyword("NOT");
      FOLIO_RETURN_IF_ERROR(ExpectKeyword("NULL", e->negated ? "NULL after IS NOT" : "NULL or NOT NULL after IS"));
      return e;
    }
    e->negated = AcceptKeyword("NOT");
    if (AcceptKeyword("IN")) {
      e->kind = ExprKind::kIn;
      FOLIO_RETURN_IF_ERROR(List(*e));
      return e;
    }
    if (AcceptKeyword("LIKE")) {
      e->kind = ExprKind::kLike;
      if (Peek().kind != TokenKind::kString) return Expected("a pattern in quotes after LIKE");
      e->text = Next().text;
      if (IsKeyword("ESCAPE")) {
        return InvalidArgument("syntax error at " + DescribePos(Peek().pos) +
                               ": LIKE takes no ESCAPE clause; escape % and _ with a backslash (\\% and \\_)");
      }
      return e;
    }
    if (e->negated) return Expected("IN or LIKE after NOT");
    return Expected("a comparison operator (=, <>, <, >, <=, >=), IN, LIKE or IS " + after);
  }

  // '(' literal {, literal} ')'
  Status List(Expr& e) {
    FOLIO_RETURN_IF_ERROR(Expect(TokenKind::kLParen, "'(' to open the list of values"));
    do {
      if (++list_values_ > kMaxListValues) {
        return InvalidArgument("the IN lists hold more than " + std::to_string(kMaxListValues) + " values (at " +
                               DescribePos(Peek().pos) + ")");
      }
      if (!StartsLiteral()) return Expected("a value in the list");
      FOLIO_ASSIGN_OR_RETURN(Literal lit, ReadLiteral());
      e.values.push_back(std::move(lit));
    } while (Accept(TokenKind::kComma));
    return Expect(TokenKind::kRParen, "',' or ')' in the list of values");
  }

  bool StartsLiteral() const {
    const Token& t = Peek();
    return t.kind == TokenKind::kString || t.kind == TokenKind::kNumber || IsKeyword("TRUE") || IsKeyword("FALSE") ||
           IsKeyword("TIMESTAMP");
  }

  Result<Literal> ReadLiteral() {
    Literal lit;
    lit.pos = Peek().pos;
    if (AcceptKeyword("TRUE") || AcceptKeyword("FALSE")) {
      lit.kind = LiteralKind::kBoolean;
      lit.boolean = EqualsNoCase(t_[i_ - 1].text, "TRUE");
      return lit;
    }
    if (AcceptKeyword("TIMESTAMP")) {
      if (Peek().kind != TokenKind::kString) return Expected("a date and time in quotes after TIMESTAMP");
      const Token& s = Next();
      lit.kind = LiteralKind::kTimestamp;
      lit.text = UnescapeStringLiteral(s.text);
      auto ms = storage::ParseIsoMs(lit.text);
      if (!ms.ok()) {
        return InvalidArgument("invalid TIMESTAMP '" + lit.text + "' at " + DescribePos(s.pos) +
                               ": expected YYYY-MM-DDThh:mm:ss[.sss] followed by Z or +hh:mm or -hh:mm");
      }
      lit.timestamp_ms = *ms;
      return lit;
    }
    const Token& t = Next();
    if (t.kind == TokenKind::kString) {
      lit.kind = LiteralKind::kString;
      lit.text = UnescapeStringLiteral(t.text);
      return lit;
    }
    // A number: an integer when it has neither a point nor an exponent and fits 64 bits.
    lit.text = t.text;
    const bool integral = t.text.find_first_of(".eE") == std::string::npos;
    if (integral) {
      const char* begin = t.text.data() + (t.text[0] == '+' ? 1 : 0);
      auto [end, ec] = std::from_chars(begin, t.text.data() + t.text.size(), lit.integer);
      if (ec == std::errc() && end == t.text.data() + t.text.size()) {
        lit.kind = LiteralKind::kInteger;
        lit.decimal = static_cast<double>(lit.integer);
        return lit;
      }
    }
    lit.kind = LiteralKind::kDecimal;
    lit.decimal = std::strtod(t.text.c_str(), nullptr);
    if (!std::isfinite(lit.decimal)) {
      return InvalidArgument("number " + t.text + " at " + DescribePos(t.pos) + " is out of range");
    }
    return lit;
  }

  std::vector<Token> t_;
  size_t i_ = 0;
  int depth_ = 0;
  int predicates_ = 0;
  size_t list_values_ = 0;
};

}  // namespace

std::string_view CompareOpText(CompareOp op) { return TextOf(op); }

Result<ParsedQuery> Parse(std::string_view statement) {
  if (statement.size() > kMaxStatementBytes) {
    return InvalidArgument("the statement is " + std::to_string(statement.size()) + " bytes long; at most " +
                           std::to_string(kMaxStatementBytes) + " are accepted");
  }
  if (statement.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return InvalidArgument("missing statement: the query is empty");
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(statement));
  return Parser(std::move(tokens)).Query();
}

}  // namespace folio::query
