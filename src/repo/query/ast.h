// The syntax tree of a CMIS QL statement (docs/API.md §12, CMIS 1.1 §2.1.14):
// what parser.h produces and binder.h checks against the repository's types. Names are
// kept as written; nothing here knows the types or the variant spellings.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio::query {

// Where something starts in the statement: byte offset, and 1-based line and column
// (columns count bytes).
struct SourcePos {
  size_t offset = 0;
  int line = 1;
  int column = 1;
};

// "line 1, column 15".
std::string DescribePos(const SourcePos& pos);

// A property reference: `cmis:name` or `d.cmis:name`.
struct ColumnRef {
  std::string qualifier;  // "" when not qualified
  std::string name;
  SourcePos pos;
};

enum class LiteralKind { kString, kInteger, kDecimal, kBoolean, kTimestamp };

struct Literal {
  LiteralKind kind = LiteralKind::kString;
  std::string text;          // kString: the unescaped value; kTimestamp: the quoted text
  int64_t integer = 0;       // kInteger
  double decimal = 0;        // kDecimal (and kInteger, converted)
  bool boolean = false;      // kBoolean
  int64_t timestamp_ms = 0;  // kTimestamp
  SourcePos pos;
};

struct SelectItem {
  enum class Kind { kStar, kColumn, kScore };
  Kind kind = Kind::kColumn;
  ColumnRef column;   // kColumn; for kStar, column.qualifier may name the table
  std::string alias;  // "" when not aliased
  SourcePos pos;
};

enum class CompareOp { kEq, kNe, kLt, kGt, kLe, kGe };
std::string_view CompareOpText(CompareOp op);

enum class ExprKind {
  kAnd,
  kOr,
  kNot,
  kCompare,    // column op literal
  kIn,         // column [NOT] IN (literals)
  kLike,       // column [NOT] LIKE 'pattern'
  kIsNull,     // column IS [NOT] NULL
  kAnyEquals,  // literal = ANY column
  kAnyIn,      // ANY column [NOT] IN (literals)
  kContains,   // CONTAINS([qualifier,] 'text search expression')
  kInFolder,   // IN_FOLDER([qualifier,] 'folder id')
  kInTree,     // IN_TREE([qualifier,] 'folder id')
};

struct Expr {
  ExprKind kind = ExprKind::kCompare;
  SourcePos pos;
  std::vector<std::unique_ptr<Expr>> children;  // kAnd, kOr (two or more), kNot (one)
  ColumnRef column;                             // the predicates on a property
  CompareOp op = CompareOp::kEq;                // kCompare
  std::vector<Literal> values;                  // kCompare, kAnyEquals: one; kIn, kAnyIn: the list
  bool negated = false;                         // NOT IN, NOT LIKE, IS NOT NULL, ANY .. NOT IN
  std::string text;                             // kLike pattern, kContains expression, folder id
  std::string qualifier;                        // kContains, kInFolder, kInTree: "" or the one given
};

struct SortKey {
  ColumnRef column;  // a property, or an alias of the select list
  bool descending = false;
  SourcePos pos;
};

struct ParsedQuery {
  std::vector<SelectItem> select;
  std::string from;  // the type's query name
  SourcePos from_pos;
  std::string from_alias;
  std::unique_ptr<Expr> where;  // null without WHERE
  std::vector<SortKey> order_by;
};

}  // namespace folio::query
