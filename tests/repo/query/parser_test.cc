// The CMIS QL lexer and parser: accepted forms, the tree they give, and every syntax
// error with its position and what was expected.
#include "repo/query/parser.h"

#include <doctest/doctest.h>

#include "repo/query/lexer.h"

using namespace folio;
using namespace folio::query;

namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

ParsedQuery MustParse(const std::string& statement) {
  auto q = Parse(statement);
  REQUIRE_MESSAGE(q.ok(), statement << " -> " << q.status().ToString());
  return std::move(*q);
}

std::string ErrorOf(const std::string& statement) {
  auto q = Parse(statement);
  REQUIRE_MESSAGE(!q.ok(), statement << " parsed");
  CHECK(q.status().kind() == ErrorKind::kInvalidArgument);
  return q.status().message();
}

}  // namespace

TEST_CASE("Parser: select list, FROM, alias, qualified columns") {
  ParsedQuery q = MustParse("SELECT * FROM cmis:document");
  REQUIRE(q.select.size() == 1);
  CHECK(q.select[0].kind == SelectItem::Kind::kStar);
  CHECK(q.from == "cmis:document");
  CHECK(q.where == nullptr);

  q = MustParse("select d.cmis:name AS title, cmis:objectId id, SCORE() s from cmis:document d");
  REQUIRE(q.select.size() == 3);
  CHECK(q.select[0].column.qualifier == "d");
  CHECK(q.select[0].column.name == "cmis:name");
  CHECK(q.select[0].alias == "title");
  CHECK(q.select[1].alias == "id");
  CHECK(q.select[2].kind == SelectItem::Kind::kScore);
  CHECK(q.select[2].alias == "s");
  CHECK(q.from_alias == "d");

  q = MustParse("SELECT d.* FROM acme:my-type AS d");
  CHECK(q.select[0].kind == SelectItem::Kind::kStar);
  CHECK(q.select[0].column.qualifier == "d");
  CHECK(q.from == "acme:my-type");
}

TEST_CASE("Parser: keywords in any case, identifiers as written") {
  ParsedQuery q = MustParse("SeLeCt name FrOm document wHeRe name Is nOt NuLl oRdEr bY name DeSc");
  CHECK(q.select[0].column.name == "name");
  REQUIRE(q.where);
  CHECK(q.where->kind == ExprKind::kIsNull);
  CHECK(q.where->negated);
  REQUIRE(q.order_by.size() == 1);
  CHECK(q.order_by[0].descending);
}

TEST_CASE("Parser: every predicate") {
  struct Case {
    const char* where;
    ExprKind kind;
    bool negated;
  };
  const Case cases[] = {
      {"a = 'x'", ExprKind::kCompare, false},
      {"a <> 1", ExprKind::kCompare, false},
      {"a < -2.5", ExprKind::kCompare, false},
      {"a >= TIMESTAMP '2024-03-01T10:00:00.000+02:00'", ExprKind::kCompare, false},
      {"a IN ('x', 'y')", ExprKind::kIn, false},
      {"a NOT IN (1, 2, 3)", ExprKind::kIn, true},
      {"a LIKE 'ab%'", ExprKind::kLike, false},
      {"a NOT LIKE '_b'", ExprKind::kLike, true},
      {"a IS NULL", ExprKind::kIsNull, false},
      {"a IS NOT NULL", ExprKind::kIsNull, true},
      {"'red' = ANY tags", ExprKind::kAnyEquals, false},
      {"ANY tags IN ('red', 'blue')", ExprKind::kAnyIn, false},
      {"ANY tags NOT IN ('red')", ExprKind::kAnyIn, true},
      {"CONTAINS('fox -dog')", ExprKind::kContains, false},
      {"CONTAINS(d, 'fox')", ExprKind::kContains, false},
      {"IN_FOLDER('f1')", ExprKind::kInFolder, false},
      {"IN_TREE(d, 'f1')", ExprKind::kInTree, false},
      {"a = TRUE", ExprKind::kCompare, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.where);
    ParsedQuery q = MustParse(std::string("SELECT * FROM t d WHERE ") + c.where);
    REQUIRE(q.where);
    CHECK(q.where->kind == c.kind);
    CHECK(q.where->negated == c.negated);
  }
  ParsedQuery q = MustParse("SELECT * FROM t WHERE a >= TIMESTAMP '2024-03-01T10:00:00.000+02:00'");
  CHECK(q.where->values[0].kind == LiteralKind::kTimestamp);
  CHECK(q.where->values[0].timestamp_ms == 1709280000000);  // 08:00 UTC
  q = MustParse("SELECT * FROM t WHERE in_tree_x = 1");     // an identifier that merely starts like a keyword
  CHECK(q.where->column.name == "in_tree_x");
}

TEST_CASE("Parser: AND binds tighter than OR, NOT tighter than AND, parentheses group") {
  ParsedQuery q = MustParse("SELECT * FROM t WHERE a = 1 OR b = 2 AND NOT c = 3");
  REQUIRE(q.where->kind == ExprKind::kOr);
  REQUIRE(q.where->children.size() == 2);
  CHECK(q.where->children[0]->kind == ExprKind::kCompare);
  REQUIRE(q.where->children[1]->kind == ExprKind::kAnd);
  CHECK(q.where->children[1]->children[1]->kind == ExprKind::kNot);

  q = MustParse("SELECT * FROM t WHERE (a = 1 OR b = 2) AND c = 3");
  REQUIRE(q.where->kind == ExprKind::kAnd);
  CHECK(q.where->children[0]->kind == ExprKind::kOr);

  q = MustParse("SELECT * FROM t WHERE NOT (a = 1 AND b = 2)");
  REQUIRE(q.where->kind == ExprKind::kNot);
  CHECK(q.where->children[0]->kind == ExprKind::kAnd);

  q = MustParse("SELECT * FROM t WHERE a = 1 AND b = 2 AND c = 3 OR d = 4 OR e = 5");
  REQUIRE(q.where->kind == ExprKind::kOr);
  CHECK(q.where->children.size() == 3);
  CHECK(q.where->children[0]->children.size() == 3);
}

TEST_CASE("Parser: literals: escapes, numbers, booleans") {
  ParsedQuery q = MustParse(R"(SELECT * FROM t WHERE a = 'O\'Neil\'s \\ plan' AND b = 'it''s')");
  CHECK(q.where->children[0]->values[0].text == "O'Neil's \\ plan");
  CHECK(q.where->children[1]->values[0].text == "it's");
  q = MustParse("SELECT * FROM t WHERE a = 42 AND b = -3.5 AND c = 1.2E3 AND d = +7 AND e = .5 AND f = false");
  const auto& v = q.where->children;
  CHECK(v[0]->values[0].kind == LiteralKind::kInteger);
  CHECK(v[0]->values[0].integer == 42);
  CHECK(v[1]->values[0].kind == LiteralKind::kDecimal);
  CHECK(v[1]->values[0].decimal == -3.5);
  CHECK(v[2]->values[0].decimal == 1200);
  CHECK(v[3]->values[0].integer == 7);
  CHECK(v[4]->values[0].decimal == 0.5);
  CHECK(v[5]->values[0].kind == LiteralKind::kBoolean);
  CHECK_FALSE(v[5]->values[0].boolean);
  // Too big for 64 bits: a decimal.
  q = MustParse("SELECT * FROM t WHERE a = 99999999999999999999");
  CHECK(q.where->values[0].kind == LiteralKind::kDecimal);
  // LIKE and CONTAINS keep their escapes for their own rules.
  q = MustParse(R"(SELECT * FROM t WHERE a LIKE 'x\%y' AND CONTAINS('\"a b\"'))");
  CHECK(q.where->children[0]->text == R"(x\%y)");
  CHECK(q.where->children[1]->text == R"(\"a b\")");
}

TEST_CASE("Parser: ORDER BY several keys") {
  ParsedQuery q = MustParse("SELECT * FROM t ORDER BY a, d.b DESC, c ASC");
  REQUIRE(q.order_by.size() == 3);
  CHECK_FALSE(q.order_by[0].descending);
  CHECK(q.order_by[1].column.qualifier == "d");
  CHECK(q.order_by[1].descending);
  CHECK_FALSE(q.order_by[2].descending);
}

TEST_CASE("Parser: syntax errors say where and what was expected") {
  struct Case {
    const char* statement;
    const char* message;
  };
  const Case cases[] = {
      {"", "missing statement"},
      {"   \n ", "missing statement"},
      {"SELEC * FROM t", "line 1, column 1: expected SELECT, found 'SELEC'"},
      {"SELECT FROM t", "line 1, column 8: expected '*', a property name or SCORE(), found 'FROM'"},
      {"SELECT a b c FROM t", "line 1, column 12: expected ',' or FROM, found 'c'"},
      {"SELECT * FROM", "line 1, column 14: expected a type name after FROM, found end of statement"},
      {"SELECT *\nFROM t\nWHERE a =", "line 3, column 10: expected a value after '='"},
      {"SELECT * FROM t WHERE a", "expected a comparison operator (=, <>, <, >, <=, >=), IN, LIKE or IS after 'a'"},
      {"SELECT * FROM t WHERE a = 1 AND", "expected a predicate"},
      {"SELECT * FROM t WHERE (a = 1", "expected ')', AND or OR, found end of statement"},
      {"SELECT * FROM t WHERE a IN (1, 2", "expected ',' or ')' in the list of values"},
      {"SELECT * FROM t WHERE a IN ()", "expected a value in the list"},
      {"SELECT * FROM t WHERE a LIKE 5", "expected a pattern in quotes after LIKE"},
      {"SELECT * FROM t WHERE a IS 5", "expected NULL or NOT NULL after IS"},
      {"SELECT * FROM t WHERE a NOT = 1", "expected IN or LIKE after NOT"},
      {"SELECT * FROM t WHERE a = NULL", "use IS NULL or IS NOT NULL"},
      {"SELECT * FROM t WHERE 'x' = a", "expected ANY after '='"},
      {"SELECT * FROM t WHERE 'x' < ANY a", "expected '=' ANY after a value"},
      {"SELECT * FROM t WHERE ANY a = 'x'", "expected IN or NOT IN after ANY a"},
      {"SELECT * FROM t WHERE CONTAINS(5)", "expected a text search expression in quotes"},
      {"SELECT * FROM t WHERE IN_FOLDER('x'", "expected ')' to close IN_FOLDER"},
      {"SELECT * FROM t WHERE a = 'unterminated", "line 1, column 27: string literal is not terminated"},
      {"SELECT * FROM t WHERE a = TIMESTAMP 'yesterday'", "invalid TIMESTAMP 'yesterday'"},
      {"SELECT * FROM t WHERE a = 1e", "expected the digits of an exponent"},
      {"SELECT * FROM t WHERE a = 12abc", "malformed number"},
      {"SELECT * FROM t WHERE a = 1 ORDER a", "expected BY after ORDER"},
      {"SELECT * FROM t ORDER BY", "expected a property name or alias in ORDER BY"},
      {"SELECT * FROM t WHERE a = 1 b", "expected AND, OR, ORDER BY or the end of the statement, found 'b'"},
      {"SELECT * FROM t ; DROP TABLE objects", "unexpected character ';'"},
      {"SELECT * FROM t WHERE a LIKE 'x' ESCAPE '!'", "LIKE takes no ESCAPE clause"},
      {"SELECT * FROM a JOIN b ON a.x = b.y", "JOIN at line 1, column 17 is not supported"},
      {"SELECT * FROM t WHERE a != 1", "unexpected character '!'"},
      {"SELECT select FROM t", "expected '*', a property name or SCORE(), found 'select'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.statement);
    const std::string message = ErrorOf(c.statement);
    CHECK_MESSAGE(Contains(message, c.message), message);
  }
}

TEST_CASE("Parser: limits on length, nesting, predicates and lists") {
  CHECK(Contains(ErrorOf("SELECT * FROM t WHERE a = '" + std::string(kMaxStatementBytes, 'x') + "'"),
                 "at most 100000 are accepted"));
  std::string deep = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 10000; ++i) deep += "(";
  CHECK(Contains(ErrorOf(deep), "nested more than 32 levels"));
  std::string nots = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 10000; ++i) nots += "NOT ";
  CHECK(Contains(ErrorOf(nots + "a = 1"), "nested more than 32 levels"));
  std::string ok_depth = "SELECT * FROM t WHERE " + std::string(30, '(') + "a = 1" + std::string(30, ')');
  MustParse(ok_depth);
  std::string many = "SELECT * FROM t WHERE a = 0";
  for (int i = 1; i <= kMaxPredicates; ++i) many += " OR a = " + std::to_string(i);
  CHECK(Contains(ErrorOf(many), "more than 500 predicates"));
  std::string list = "SELECT * FROM t WHERE a IN (0";
  for (size_t i = 1; i <= kMaxListValues; ++i) list += "," + std::to_string(i);
  CHECK(Contains(ErrorOf(list + ")"), "more than 10000 values"));
  std::string order = "SELECT * FROM t ORDER BY a0";
  for (size_t i = 1; i <= kMaxOrderKeys; ++i) order += ", a" + std::to_string(i);
  CHECK(Contains(ErrorOf(order), "more than 16 keys"));
}

TEST_CASE("Lexer: positions count lines and columns, strings keep their raw text") {
  auto tokens = Tokenize("SELECT\n  'a\\'b' <>\n<= >= < > = , . * ( )");
  REQUIRE(tokens.ok());
  const auto& t = *tokens;
  REQUIRE(t.size() == 14);
  CHECK(t[1].kind == TokenKind::kString);
  CHECK(t[1].text == "a\\'b");
  CHECK(t[1].pos.line == 2);
  CHECK(t[1].pos.column == 3);
  CHECK(t[2].kind == TokenKind::kNe);
  CHECK(t[3].kind == TokenKind::kLe);
  CHECK(t[3].pos.line == 3);
  CHECK(t[4].kind == TokenKind::kGe);
  CHECK(t[13].kind == TokenKind::kEnd);
  CHECK(UnescapeStringLiteral("a\\'b\\\\c''d") == "a'b\\c'd");
}
