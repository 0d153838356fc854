// Bound queries as SQL; see sql_plan.h.
#include "repo/query/sql_plan.h"

#include "repo/query/like.h"
#include "repo/query/schema.h"

namespace folio::query {
namespace {

std::string OpSql(CompareOp op) { return std::string(CompareOpText(op)); }

// The folders at and below a folder id (the parameter), by the folder column.
constexpr const char* kTreeSql =
    "WITH RECURSIVE t(id) AS (SELECT ? UNION SELECT c.p_objectId FROM objects c JOIN t ON c.folder = t.id "
    "WHERE c.p_baseTypeId = 'cmis:folder') SELECT id FROM t";

class Writer {
 public:
  std::string sql;
  std::vector<SqlValue> params;

  void Param(SqlValue v) {
    sql += '?';
    params.push_back(std::move(v));
  }
  void Text(std::string_view s) { sql += s; }

  void List(const std::vector<SqlValue>& values) {
    sql += '(';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) sql += ", ";
      Param(values[i]);
    }
    sql += ')';
  }

  // "o.rid IN (SELECT obj FROM props WHERE prop = ?" ... the caller closes it.
  void OpenProps(const BoundProperty& p, bool in = true) {
    Text(in ? "o.rid IN (SELECT obj FROM props WHERE prop = " : "o.rid NOT IN (SELECT obj FROM props WHERE prop = ");
    Param(SqlValue::Text(p.id));
  }

  void Expr(const BoundExpr& e) {
    const ColumnProperty* col = FindColumn(e.property.id);
    const std::string c = col ? "o." + std::string(col->column) : "";
    switch (e.kind) {
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        Text("(");
        for (size_t i = 0; i < e.children.size(); ++i) {
          if (i) Text(e.kind == ExprKind::kAnd ? " AND " : " OR ");
          Expr(*e.children[i]);
        }
        Text(")");
        return;
      }
      case ExprKind::kCompare:
        if (col) {
          Text(c + " " + OpSql(e.op) + " ");
          Param(e.values[0]);
        } else {
          OpenProps(e.property);
          Text(" AND v " + OpSql(e.op) + " ");
          Param(e.values[0]);
          Text(")");
        }
        return;
      case ExprKind::kIn:
        if (col) {
          Text(c + (e.negated ? " NOT IN " : " IN "));
          List(e.values);
        } else {
          OpenProps(e.property);
          Text(e.negated ? " AND v NOT IN " : " AND v IN ");
          List(e.values);
          Text(")");
        }
        return;
      case ExprKind::kLike: {
        if (col) {
          Text("(");
          Like(c, e);
          Text(")");
        } else {
          OpenProps(e.property);
          Text(" AND ");
          Like("v", e);
          Text(")");
        }
        return;
      }
      case ExprKind::kIsNull:
        if (col) {
          Text(c + (e.negated ? " IS NOT NULL" : " IS NULL"));
        } else {
          OpenProps(e.property, /*in=*/e.negated);
          Text(")");
        }
        return;
      case ExprKind::kAnyEquals:
      case ExprKind::kAnyIn:
        // "Some value is in the list"; negated: none is (true when there are no values).
        OpenProps(e.property, /*in=*/!e.negated);
        if (e.kind == ExprKind::kAnyEquals) {
          Text(" AND v = ");
          Param(e.values[0]);
        } else {
          Text(" AND v IN ");
          List(e.values);
        }
        Text(")");
        return;
      case ExprKind::kContains:
        Contains(e);
        return;
      case ExprKind::kInFolder:
        Text(e.negated ? "(o.folder IS NULL OR o.folder <> " : "(o.folder = ");
        Param(SqlValue::Text(e.folder_id));
        Text(")");
        return;
      case ExprKind::kInTree:
        Text(e.negated ? "(o.folder IS NULL OR o.folder NOT IN (" : "(o.folder IN (");
        Text(kTreeSql);
        params.push_back(SqlValue::Text(e.folder_id));
        Text("))");
        return;
      case ExprKind::kNot:
        return;  // never bound
    }
  }

  // A LIKE on `x` (a column, or v of props); with a literal prefix, a range on it first,
  // so that the column's index finds the candidates.
  void Like(const std::string& x, const BoundExpr& e) {
    const LikePattern pattern = CompileLike(e.like_pattern);
    const std::string prefix = LikePrefix(pattern);
    if (!prefix.empty() && !e.negated) {
      // Every string with this prefix lies in [prefix, prefix + 0xFF): UTF-8 never holds
      // the byte 0xFF, and text compares bytewise.
      Text(x + " >= ");
      Param(SqlValue::Text(prefix));
      Text(" AND " + x + " < ");
      Param(SqlValue::Text(prefix + "\xFF"));
      Text(" AND ");
    }
    Text(e.negated ? "NOT folio_like(" + x + ", " : "folio_like(" + x + ", ");
    Param(SqlValue::Text(e.like_pattern));
    Text(")");
  }

  void Contains(const BoundExpr& e) {
    std::vector<std::string> positive;
    std::vector<std::string> only_negative;  // conjuncts with no positive term
    for (const auto& conjunct : e.text.any_of) {
      const std::string c = Fts5Conjunct(conjunct);
      if (!c.empty()) {
        positive.push_back(c);
        continue;
      }
      std::string any;
      for (const TextTerm& t : conjunct) any += (any.empty() ? "" : " OR ") + Fts5String(t.text);
      only_negative.push_back(any);
    }
    Text(e.negated ? "NOT (" : "(");
    if (!e.text_types.empty()) {
      // Only objects of full-text indexed types match (and so they alone fail NOT).
      Text("o.p_objectTypeId IN ");
      std::vector<SqlValue> types;
      for (const std::string& t : e.text_types) types.push_back(SqlValue::Text(t));
      List(types);
      Text(" AND (");
    }
    bool first = true;
    if (!positive.empty()) {
      std::string match;
      for (const std::string& p : positive) match += (match.empty() ? "" : " OR ") + p;
      Text("o.rid IN (SELECT rowid FROM fts WHERE fts MATCH ");
      Param(SqlValue::Text(match));
      Text(")");
      first = false;
    }
    for (const std::string& n : only_negative) {
      if (!first) Text(" OR ");
      first = false;
      Text("o.rid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ");
      Param(SqlValue::Text(n));
      Text(")");
    }
    if (!e.text_types.empty()) Text(")");
    Text(")");
  }

  void SortKey(const OrderKey& k, const std::string& score) {
    if (k.score) {
      Text(score);
    } else if (const ColumnProperty* col = FindColumn(k.property.id)) {
      Text("o." + std::string(col->column));
    } else {
      Text("(SELECT v FROM props WHERE obj = o.rid AND prop = ");
      Param(SqlValue::Text(k.property.id));
      Text(" AND ord = 0)");
    }
    Text(k.descending ? " DESC" : " ASC");
  }
};

bool NeedsScore(const BoundQuery& q) {
  for (const OutputColumn& c : q.columns) {
    if (c.score) return true;
  }
  for (const OrderKey& k : q.order_by) {
    if (k.score) return true;
  }
  return false;
}

}  // namespace

SqlPlan PlanQuery(const BoundQuery& q, bool all_versions, uint64_t skip, uint64_t max,
                  const std::vector<std::string>* readers) {
  Writer where;
  std::vector<SqlValue> types;
  for (const std::string& t : q.type_ids) types.push_back(SqlValue::Text(t));
  if (q.secondary_from) {
    // One primary-key lookup in props per candidate row.
    where.Text("EXISTS (SELECT 1 FROM props s WHERE s.obj = o.rid AND s.prop = ");
    where.Param(SqlValue::Text(cmis::kSecondaryObjectTypeIds));
    where.Text(" AND s.v IN ");
    where.List(types);
    where.Text(")");
  } else {
    where.Text("o.p_objectTypeId IN ");
    where.List(types);
  }
  if (!all_versions) where.Text(" AND o.current = 1");
  if (readers != nullptr) {
    if (readers->empty()) {
      where.Text(" AND 0");
    } else {
      // One primary-key lookup per candidate row.
      where.Text(" AND EXISTS (SELECT 1 FROM readers r WHERE r.obj = o.rid AND r.principal IN ");
      std::vector<SqlValue> principals;
      for (const std::string& p : *readers) principals.push_back(SqlValue::Text(p));
      where.List(principals);
      where.Text(")");
    }
  }
  if (q.where) {
    where.Text(" AND ");
    where.Expr(*q.where);
  }

  SqlPlan plan;
  plan.count_sql = "SELECT count(*) FROM objects o WHERE " + where.sql;
  plan.count_params = where.params;

  // bm25() is lower for better matches; the score is its negation (higher is better).
  const bool score = NeedsScore(q) && !q.score_match.empty();
  Writer page;
  page.Text("SELECT o.p_objectId, ");
  page.Text(score ? "(SELECT -bm25(fts) FROM fts WHERE fts MATCH " : "1.0");
  if (score) {
    page.Param(SqlValue::Text(q.score_match));
    page.Text(" AND rowid = o.rid)");
  }
  page.Text(" AS score FROM objects o WHERE ");
  page.sql += where.sql;
  page.params.insert(page.params.end(), where.params.begin(), where.params.end());
  page.Text(" ORDER BY ");
  for (const OrderKey& k : q.order_by) {
    page.SortKey(k, "score");
    page.Text(", ");
  }
  page.Text("o.rid LIMIT ");
  page.Param(SqlValue::Integer(static_cast<int64_t>(std::min<uint64_t>(max, INT64_MAX))));
  page.Text(" OFFSET ");
  page.Param(SqlValue::Integer(static_cast<int64_t>(std::min<uint64_t>(skip, INT64_MAX))));
  plan.page_sql = std::move(page.sql);
  plan.page_params = std::move(page.params);
  return plan;
}

}  // namespace folio::query
