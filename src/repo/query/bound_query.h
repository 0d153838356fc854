// A statement checked against the repository's types (binder.h): canonical property
// ids with their types, values converted to what the index stores, the FROM type with
// the subtypes it covers. What sql_plan.h turns into SQL.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "repo/query/ast.h"
#include "repo/query/text_search.h"
#include "repo/types/types.h"

namespace folio::query {

// A value as the index stores it: text (string, id, uri, html), integer (integer,
// datetime in ms, boolean 0/1) or real (decimal).
struct SqlValue {
  enum class Kind { kText, kInteger, kReal };
  Kind kind = Kind::kText;
  std::string text;
  int64_t integer = 0;
  double real = 0;

  static SqlValue Text(std::string s) { return SqlValue{Kind::kText, std::move(s), 0, 0}; }
  static SqlValue Integer(int64_t i) { return SqlValue{Kind::kInteger, "", i, 0}; }
  static SqlValue Real(double d) { return SqlValue{Kind::kReal, "", 0, d}; }
};

struct BoundProperty {
  std::string id;  // canonical ("cmis:name", "acme:amount")
  repo::types::PropertyType type = repo::types::PropertyType::kString;
  bool multi = false;
};

struct BoundExpr {
  ExprKind kind = ExprKind::kCompare;                // never kNot: NOT is pushed down into `negated`
  std::vector<std::unique_ptr<BoundExpr>> children;  // kAnd, kOr
  BoundProperty property;
  CompareOp op = CompareOp::kEq;
  std::vector<SqlValue> values;
  // Set by NOT (and by NOT IN, NOT LIKE, IS NOT NULL, ANY .. NOT IN). A comparison, IN
  // or LIKE on a property that is not set is unknown, so its negation is the opposite
  // comparison (NOT a = 1 is a <> 1: neither holds when a is not set, as in SQL); the
  // other predicates are true or false, and negated simply flips them.
  bool negated = false;
  std::string like_pattern;  // kLike: the pattern with escapes unresolved (like.h)
  TextQuery text;            // kContains
  // kContains: when some covered types are not full-text indexed, the types whose
  // objects may match; empty: every covered type's.
  std::vector<std::string> text_types;
  std::string folder_id;     // kInFolder, kInTree
};

struct OutputColumn {
  bool score = false;
  BoundProperty property;  // when !score
  std::string alias;       // "" when not aliased: keyed by the property id in the variant's spelling
};

struct OrderKey {
  bool score = false;
  BoundProperty property;
  bool descending = false;
};

struct BoundQuery {
  std::string from_type;                    // canonical id of the FROM type
  std::vector<std::string> type_ids;        // it and the subtypes its query covers
  bool secondary_from = false;              // type_ids are secondary types: objects listing one match
  bool select_all = false;                  // SELECT *: every property of the FROM type
  std::vector<std::string> all_properties;  // with select_all: the FROM type's property ids, in order
  std::vector<OutputColumn> columns;        // otherwise, in select-list order
  std::unique_ptr<BoundExpr> where;         // null: every object of the types
  std::vector<OrderKey> order_by;
  bool has_contains = false;
  // The FTS5 expression SCORE() ranks by (the first CONTAINS); "" when none can.
  std::string score_match;
};

}  // namespace folio::query
