// Binding a parsed statement to the repository's types; see binder.h.
#include "repo/query/binder.h"

#include <deque>
#include <map>
#include <set>

#include "folio/cmis_ids.h"

namespace folio::query {
namespace {

using repo::types::PropertyType;

constexpr size_t kMaxTypesWalked = 10000;

struct PropInfo {
  std::string id;
  std::string query_name;
  PropertyType type = PropertyType::kString;
  bool multi = false;
  bool queryable = true;
  bool orderable = true;
};

struct TypeInfo {
  std::string id;
  std::string query_name;
  std::string base_id;
  bool queryable = true;
  bool included_in_supertype_query = true;
  bool fulltext_indexed = false;
  std::vector<PropInfo> props;  // in definition order
};

bool Flag(const Json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string Text(const Json& j, const char* key, const std::string& fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

TypeInfo FromJson(const Json& j) {
  TypeInfo t;
  t.id = Text(j, "id", "");
  t.query_name = Text(j, "queryName", t.id);
  t.base_id = Text(j, "baseId", t.id);
  t.queryable = Flag(j, "queryable", true);
  t.included_in_supertype_query = Flag(j, "includedInSupertypeQuery", true);
  t.fulltext_indexed = t.base_id == cmis::kDocument && Flag(j, "fulltextIndexed", false);
  auto defs = j.find("propertyDefinitions");
  if (defs == j.end() || !defs->is_object()) return t;
  for (auto it = defs->begin(); it != defs->end(); ++it) {
    if (!it->is_object()) continue;
    PropInfo p;
    p.id = Text(*it, "id", it.key());
    p.query_name = Text(*it, "queryName", p.id);
    p.type = repo::types::ParsePropertyType(Text(*it, "propertyType", "string")).value_or(PropertyType::kString);
    p.multi = Text(*it, "cardinality", "single") == "multi";
    p.queryable = Flag(*it, "queryable", true);
    // The index orders single values only, whatever a definition claims.
    p.orderable = !p.multi && Flag(*it, "orderable", true);
    t.props.push_back(std::move(p));
  }
  return t;
}

bool IsStringFamily(PropertyType t) {
  return t == PropertyType::kString || t == PropertyType::kId || t == PropertyType::kUri || t == PropertyType::kHtml;
}

std::string LiteralShown(const Literal& lit) {
  switch (lit.kind) {
    case LiteralKind::kString:
      return "string '" + lit.text + "'";
    case LiteralKind::kInteger:
    case LiteralKind::kDecimal:
      return "number " + lit.text;
    case LiteralKind::kBoolean:
      return lit.boolean ? "TRUE" : "FALSE";
    case LiteralKind::kTimestamp:
      return "TIMESTAMP '" + lit.text + "'";
  }
  return "a value";
}

CompareOp Opposite(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return CompareOp::kNe;
    case CompareOp::kNe:
      return CompareOp::kEq;
    case CompareOp::kLt:
      return CompareOp::kGe;
    case CompareOp::kGe:
      return CompareOp::kLt;
    case CompareOp::kGt:
      return CompareOp::kLe;
    case CompareOp::kLe:
      return CompareOp::kGt;
  }
  return op;
}

class Binder {
 public:
  Binder(const ParsedQuery& q, Repository& repo, const IdSpelling& spelling)
      : q_(q), repo_(repo), spelling_(spelling) {}

  Result<BoundQuery> Run() {
    BoundQuery out;
    FOLIO_ASSIGN_OR_RETURN(from_, ResolveType());
    out.from_type = from_.id;
    if (from_.base_id == cmis::kSecondary) {
      // The objects that list the type: their own properties of every base type
      // (docs/API.md §6.6) come before the secondary type's.
      out.secondary_from = true;
      TypeInfo common = FromJson(repo::types::BuiltInType(cmis::kItem)->json);
      common.props.insert(common.props.end(), from_.props.begin(), from_.props.end());
      from_.props = std::move(common.props);
    }
    FOLIO_ASSIGN_OR_RETURN(out.type_ids, CoveredTypes());
    covered_ = out.type_ids;
    FOLIO_RETURN_IF_ERROR(SelectList(out));
    if (q_.where) {
      FOLIO_ASSIGN_OR_RETURN(out.where, BindExpr(*q_.where, false));
      out.has_contains = has_contains_;
      out.score_match = score_match_;
    }
    FOLIO_RETURN_IF_ERROR(OrderBy(out));
    return out;
  }

 private:
  std::string CanonicalType(std::string_view name) const {
    return spelling_.type ? spelling_.type(name) : std::string(name);
  }
  std::string CanonicalProperty(std::string_view name) const {
    return spelling_.property ? spelling_.property(name) : std::string(name);
  }

  // Every type of the repository, base types first (for names that are not ids).
  Result<std::vector<TypeInfo>> AllTypes() {
    std::vector<TypeInfo> out;
    std::deque<std::string> todo{""};
    while (!todo.empty() && out.size() < kMaxTypesWalked) {
      const std::string parent = todo.front();
      todo.pop_front();
      FOLIO_ASSIGN_OR_RETURN(std::vector<Json> children, repo_.GetTypeChildren(parent));
      for (const Json& c : children) {
        out.push_back(FromJson(c));
        todo.push_back(out.back().id);
      }
    }
    return out;
  }

  Result<TypeInfo> ResolveType() {
    const std::string canonical = CanonicalType(q_.from);
    auto def = repo_.GetTypeDefinition(canonical);
    if (def.ok()) {
      TypeInfo t = FromJson(*def);
      if (t.query_name == q_.from || t.query_name == canonical) return CheckQueryable(std::move(t));
    } else if (def.status().kind() != ErrorKind::kObjectNotFound) {
      return def.status();
    }
    FOLIO_ASSIGN_OR_RETURN(std::vector<TypeInfo> all, AllTypes());
    for (TypeInfo& t : all) {
      if (t.query_name == q_.from || t.query_name == canonical) {
        FOLIO_ASSIGN_OR_RETURN(auto full, repo_.GetTypeDefinition(t.id));
        return CheckQueryable(FromJson(full));
      }
    }
    return InvalidArgument("unknown type '" + q_.from + "' in FROM (at " + DescribePos(q_.from_pos) + ")");
  }

  Result<TypeInfo> CheckQueryable(TypeInfo t) {
    if (!t.queryable) {
      return InvalidArgument("type '" + q_.from + "' in FROM (at " + DescribePos(q_.from_pos) + ") is not queryable");
    }
    return t;
  }

  // The FROM type and its subtypes that ask to be included in their supertypes' queries;
  // those of them that are not full-text indexed go to unindexed_.
  Result<std::vector<std::string>> CoveredTypes() {
    std::vector<std::string> out{from_.id};
    if (!from_.fulltext_indexed) unindexed_.insert(from_.id);
    std::deque<std::string> todo{from_.id};
    while (!todo.empty() && out.size() < kMaxTypesWalked) {
      const std::string parent = todo.front();
      todo.pop_front();
      FOLIO_ASSIGN_OR_RETURN(std::vector<Json> children, repo_.GetTypeChildren(parent));
      for (const Json& c : children) {
        TypeInfo t = FromJson(c);
        if (t.included_in_supertype_query) {
          out.push_back(t.id);
          if (!t.fulltext_indexed) unindexed_.insert(t.id);
        }
        todo.push_back(t.id);
      }
    }
    return out;
  }

  // cmis:document and every type below it that is full-text indexed, whatever their
  // includedInSupertypeQuery: the types of the documents a text search may match.
  Result<std::vector<std::string>> IndexedDocumentTypes() {
    std::vector<std::string> out;
    FOLIO_ASSIGN_OR_RETURN(Json document, repo_.GetTypeDefinition(cmis::kDocument));
    if (FromJson(document).fulltext_indexed) out.push_back(cmis::kDocument);
    std::deque<std::string> todo{cmis::kDocument};
    size_t walked = 0;
    while (!todo.empty() && walked < kMaxTypesWalked) {
      const std::string parent = todo.front();
      todo.pop_front();
      FOLIO_ASSIGN_OR_RETURN(std::vector<Json> children, repo_.GetTypeChildren(parent));
      for (const Json& c : children) {
        TypeInfo t = FromJson(c);
        ++walked;
        if (t.fulltext_indexed) out.push_back(t.id);
        todo.push_back(t.id);
      }
    }
    return out;
  }

  Status CheckQualifier(const std::string& qualifier, const SourcePos& pos) const {
    if (qualifier.empty() || qualifier == q_.from_alias || qualifier == q_.from || qualifier == from_.id) {
      return OkStatus();
    }
    return InvalidArgument("unknown qualifier '" + qualifier + "' at " + DescribePos(pos) + ": the query is FROM '" +
                           q_.from + "'" + (q_.from_alias.empty() ? "" : " AS '" + q_.from_alias + "'"));
  }

  // True if some type (built-in or custom) defines a property named `name`.
  bool KnownAnywhere(const std::string& name, const std::string& canonical) {
    for (const std::string& id : repo::types::BuiltInTypeIds()) {
      auto t = repo::types::BuiltInType(id);
      if (t && (t->properties.count(name) || t->properties.count(canonical))) return true;
    }
    auto all = AllTypes();
    if (!all.ok()) return false;
    for (const TypeInfo& t : *all) {
      for (const PropInfo& p : t.props) {
        if (p.query_name == name || p.query_name == canonical || p.id == canonical) return true;
      }
    }
    return false;
  }

  Result<PropInfo> FindProperty(const ColumnRef& c, const char* use) {
    FOLIO_RETURN_IF_ERROR(CheckQualifier(c.qualifier, c.pos));
    const std::string canonical = CanonicalProperty(c.name);
    const PropInfo* found = nullptr;
    for (const PropInfo& p : from_.props) {
      if (p.query_name == c.name) found = &p;
    }
    for (const PropInfo& p : from_.props) {
      if (!found && (p.query_name == canonical || p.id == canonical)) found = &p;
    }
    if (found == nullptr) {
      if (KnownAnywhere(c.name, canonical)) {
        return InvalidArgument("type '" + from_.id + "' has no property '" + c.name + "' (at " + DescribePos(c.pos) +
                               ")");
      }
      return InvalidArgument("unknown property '" + c.name + "' at " + DescribePos(c.pos));
    }
    if (!found->queryable) {
      return InvalidArgument("property '" + c.name + "' (at " + DescribePos(c.pos) +
                             ") is not queryable and cannot be used " + use);
    }
    return *found;
  }

  static BoundProperty Bound(const PropInfo& p) { return BoundProperty{p.id, p.type, p.multi}; }

  Result<SqlValue> Value(const PropInfo& p, const ColumnRef& c, const Literal& lit) {
    auto mismatch = [&](const std::string& hint) -> Status {
      return InvalidArgument("cannot compare " + std::string(repo::types::PropertyTypeName(p.type)) + " property '" +
                             c.name + "' with " + LiteralShown(lit) + " (at " + DescribePos(lit.pos) + ")" + hint);
    };
    if (IsStringFamily(p.type)) {
      if (lit.kind != LiteralKind::kString) return mismatch(": use a string in quotes");
      return SqlValue::Text(lit.text);
    }
    switch (p.type) {
      case PropertyType::kInteger:
      case PropertyType::kDecimal:
        if (lit.kind == LiteralKind::kInteger) return SqlValue::Integer(lit.integer);
        if (lit.kind == LiteralKind::kDecimal) return SqlValue::Real(lit.decimal);
        return mismatch(": use a number");
      case PropertyType::kDateTime:
        if (lit.kind == LiteralKind::kTimestamp) return SqlValue::Integer(lit.timestamp_ms);
        return mismatch(": use TIMESTAMP 'YYYY-MM-DDThh:mm:ss.sssZ'");
      case PropertyType::kBoolean:
        if (lit.kind == LiteralKind::kBoolean) return SqlValue::Integer(lit.boolean ? 1 : 0);
        return mismatch(": use TRUE or FALSE");
      default:
        break;
    }
    return mismatch("");
  }

  Status RequireSingle(const PropInfo& p, const ColumnRef& c, const std::string& what) {
    if (!p.multi) return OkStatus();
    return InvalidArgument("property '" + c.name + "' (at " + DescribePos(c.pos) + ") is multi-valued: " + what);
  }

  Result<std::unique_ptr<BoundExpr>> BindExpr(const Expr& e, bool negate) {
    if (e.kind == ExprKind::kNot) return BindExpr(*e.children[0], !negate);
    auto b = std::make_unique<BoundExpr>();
    b->kind = e.kind;
    if (e.kind == ExprKind::kAnd || e.kind == ExprKind::kOr) {
      // De Morgan: NOT (a AND b) = NOT a OR NOT b, in three-valued logic too.
      if (negate) b->kind = e.kind == ExprKind::kAnd ? ExprKind::kOr : ExprKind::kAnd;
      for (const auto& c : e.children) {
        FOLIO_ASSIGN_OR_RETURN(auto child, BindExpr(*c, negate));
        b->children.push_back(std::move(child));
      }
      return b;
    }
    b->negated = e.negated != negate;
    switch (e.kind) {
      case ExprKind::kContains:
        return BindContains(e, std::move(b), negate);
      case ExprKind::kInFolder:
      case ExprKind::kInTree:
        return BindFolder(e, std::move(b));
      default:
        break;
    }
    FOLIO_ASSIGN_OR_RETURN(PropInfo p, FindProperty(e.column, "in WHERE"));
    b->property = Bound(p);
    const std::string name = "'" + e.column.name + "'";
    switch (e.kind) {
      case ExprKind::kCompare: {
        FOLIO_RETURN_IF_ERROR(
            RequireSingle(p, e.column, "compare one of its values with '<value>' = ANY " + e.column.name));
        if ((p.type == PropertyType::kBoolean) && e.op != CompareOp::kEq && e.op != CompareOp::kNe) {
          return InvalidArgument("operator '" + std::string(CompareOpText(e.op)) +
                                 "' is not defined for boolean property " + name + " (at " + DescribePos(e.pos) +
                                 "): use = or <>");
        }
        FOLIO_ASSIGN_OR_RETURN(SqlValue v, Value(p, e.column, e.values[0]));
        b->values.push_back(std::move(v));
        b->op = b->negated ? Opposite(e.op) : e.op;
        b->negated = false;
        return b;
      }
      case ExprKind::kIn:
        FOLIO_RETURN_IF_ERROR(RequireSingle(p, e.column, "use ANY " + e.column.name + " IN (...)"));
        break;
      case ExprKind::kAnyIn:
      case ExprKind::kAnyEquals:
        if (!p.multi) {
          return InvalidArgument("property " + name + " (at " + DescribePos(e.column.pos) +
                                 ") is single-valued: ANY needs a multi-valued property" +
                                 (e.kind == ExprKind::kAnyIn ? "; use " + e.column.name + " IN (...)"
                                                             : "; use " + e.column.name + " = <value>"));
        }
        break;
      case ExprKind::kLike:
        FOLIO_RETURN_IF_ERROR(RequireSingle(p, e.column, "LIKE needs a single-valued property"));
        if (!IsStringFamily(p.type)) {
          return InvalidArgument("LIKE needs a string property, but " + name + " (at " + DescribePos(e.column.pos) +
                                 ") is " + std::string(repo::types::PropertyTypeName(p.type)));
        }
        b->like_pattern = e.text;
        return b;
      case ExprKind::kIsNull:
        return b;
      default:
        return RuntimeError("unexpected predicate");
    }
    for (const Literal& lit : e.values) {
      FOLIO_ASSIGN_OR_RETURN(SqlValue v, Value(p, e.column, lit));
      b->values.push_back(std::move(v));
    }
    return b;
  }

  Result<std::unique_ptr<BoundExpr>> BindContains(const Expr& e, std::unique_ptr<BoundExpr> b, bool negate) {
    FOLIO_RETURN_IF_ERROR(CheckQualifier(e.qualifier, e.pos));
    if (from_.base_id == cmis::kSecondary) {
      // The objects that have the type are searched as their own type says: documents
      // of a full-text indexed type match, nothing else does (docs/API.md §6.6).
      FOLIO_ASSIGN_OR_RETURN(b->text_types, IndexedDocumentTypes());
      if (b->text_types.empty()) b->text_types.push_back("");  // no type is "": none matches
    } else if (from_.base_id != cmis::kDocument) {
      return InvalidArgument("CONTAINS (at " + DescribePos(e.pos) + ") needs a full-text indexed type, but '" +
                             q_.from + "' is not: only documents are indexed");
    } else if (!from_.fulltext_indexed) {
      return InvalidArgument("CONTAINS (at " + DescribePos(e.pos) + ") needs a full-text indexed type, but '" +
                             q_.from + "' is not (its fulltextIndexed is false)");
    } else if (!unindexed_.empty()) {
      // Objects of covered subtypes that are not full-text indexed never match.
      for (const std::string& id : covered_) {
        if (!unindexed_.count(id)) b->text_types.push_back(id);
      }
    }
    FOLIO_ASSIGN_OR_RETURN(b->text, ParseTextSearch(e.text));
    if (!has_contains_ && !negate) {
      std::string match;
      for (const auto& conjunct : b->text.any_of) {
        const std::string c = Fts5Conjunct(conjunct);
        if (c.empty()) {
          match.clear();
          break;
        }
        match += (match.empty() ? "" : " OR ") + c;
      }
      score_match_ = match;
    }
    has_contains_ = true;
    return b;
  }

  Result<std::unique_ptr<BoundExpr>> BindFolder(const Expr& e, std::unique_ptr<BoundExpr> b) {
    FOLIO_RETURN_IF_ERROR(CheckQualifier(e.qualifier, e.pos));
    const char* what = e.kind == ExprKind::kInFolder ? "IN_FOLDER" : "IN_TREE";
    auto folder = repo_.GetObject(e.text);
    if (!folder.ok()) {
      if (folder.status().kind() == ErrorKind::kStorage) return folder.status();
      return InvalidArgument(std::string(what) + " (at " + DescribePos(e.pos) + "): no folder with id '" + e.text +
                             "'");
    }
    if (folder->base != BaseType::kFolder) {
      return InvalidArgument(std::string(what) + " (at " + DescribePos(e.pos) + "): '" + e.text + "' is not a folder");
    }
    b->folder_id = folder->id;
    return b;
  }

  Status SelectList(BoundQuery& out) {
    std::set<std::string> keys;
    for (const SelectItem& item : q_.select) {
      if (item.kind == SelectItem::Kind::kStar) {
        FOLIO_RETURN_IF_ERROR(CheckQualifier(item.column.qualifier, item.pos));
        out.select_all = true;
        continue;
      }
      OutputColumn col;
      if (item.kind == SelectItem::Kind::kScore) {
        col.score = true;
        col.alias = item.alias.empty() ? "SEARCH_SCORE" : item.alias;
      } else {
        FOLIO_ASSIGN_OR_RETURN(PropInfo p, FindProperty(item.column, "in the select list"));
        col.property = Bound(p);
        col.alias = item.alias;
      }
      const std::string key = col.alias.empty() ? col.property.id : col.alias;
      if (!keys.insert(key).second) {
        return InvalidArgument("'" + key + "' names two columns of the select list (at " + DescribePos(item.pos) +
                               "): give one an alias");
      }
      if (!col.alias.empty()) aliases_[col.alias] = col;
      out.columns.push_back(std::move(col));
    }
    if (out.select_all) {
      for (const PropInfo& p : from_.props) out.all_properties.push_back(p.id);
    }
    return OkStatus();
  }

  Status OrderBy(BoundQuery& out) {
    for (const SortKey& k : q_.order_by) {
      OrderKey key;
      key.descending = k.descending;
      auto alias = k.column.qualifier.empty() ? aliases_.find(k.column.name) : aliases_.end();
      if (alias != aliases_.end()) {
        key.score = alias->second.score;
        key.property = alias->second.property;
      } else {
        FOLIO_ASSIGN_OR_RETURN(PropInfo p, FindProperty(k.column, "in ORDER BY"));
        if (p.multi) {
          return InvalidArgument("property '" + k.column.name + "' (at " + DescribePos(k.pos) +
                                 ") is multi-valued and cannot order the results");
        }
        if (!p.orderable) {
          return InvalidArgument("property '" + k.column.name + "' (at " + DescribePos(k.pos) + ") is not orderable");
        }
        key.property = Bound(p);
      }
      out.order_by.push_back(std::move(key));
    }
    return OkStatus();
  }

  const ParsedQuery& q_;
  Repository& repo_;
  const IdSpelling& spelling_;
  TypeInfo from_;
  bool has_contains_ = false;
  std::string score_match_;
  std::vector<std::string> covered_;  // the types the query covers (BoundQuery::type_ids)
  std::set<std::string> unindexed_;   // those of them that are not full-text indexed
  std::map<std::string, OutputColumn> aliases_;
};

}  // namespace

Result<BoundQuery> Bind(const ParsedQuery& parsed, Repository& repo, const IdSpelling& spelling) {
  return Binder(parsed, repo, spelling).Run();
}

}  // namespace folio::query
