// The query index's tables; see schema.h.
#include "repo/query/schema.h"

#include "folio/cmis_ids.h"

namespace folio::query {

const ColumnProperty* FindColumn(std::string_view property_id) {
  for (const ColumnProperty& c : kColumnProperties) {
    if (c.property == property_id) return &c;
  }
  return nullptr;
}

std::string CreateSchemaSql(bool with_indexes) {
  std::string sql =
      "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;\n"
      "CREATE TABLE IF NOT EXISTS objects(\n"
      "  rid INTEGER PRIMARY KEY,\n"
      "  folder TEXT,\n"
      "  current INTEGER NOT NULL,\n"
      "  text_key TEXT";
  for (const ColumnProperty& c : kColumnProperties) {
    sql += ",\n  " + std::string(c.column) + " " + std::string(c.sql_type);
    if (c.property == cmis::kObjectId) sql += " NOT NULL UNIQUE";
  }
  sql += ");\n";
  sql +=
      "CREATE TABLE IF NOT EXISTS props(obj INTEGER NOT NULL, prop TEXT NOT NULL, ord INTEGER NOT NULL, v,\n"
      "  PRIMARY KEY(obj, prop, ord)) WITHOUT ROWID;\n"
      "CREATE TABLE IF NOT EXISTS readers(obj INTEGER NOT NULL, principal TEXT NOT NULL,\n"
      "  PRIMARY KEY(obj, principal)) WITHOUT ROWID;\n"
      "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(name, body, tokenize='unicode61 remove_diacritics 2');\n";
  if (with_indexes) sql += CreateIndexesSql();
  return sql;
}

std::string CreateIndexesSql() {
  std::string sql = "CREATE INDEX IF NOT EXISTS objects_folder ON objects(folder);\n";
  for (const ColumnProperty& c : kColumnProperties) {
    if (!c.indexed) continue;
    sql +=
        "CREATE INDEX IF NOT EXISTS objects_" + std::string(c.column) + " ON objects(" + std::string(c.column) + ");\n";
  }
  return sql + "CREATE INDEX IF NOT EXISTS props_value ON props(prop, v);\n";
}

std::string DropSchemaSql() {
  return "DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS props; DROP TABLE IF EXISTS objects; "
         "DROP TABLE IF EXISTS readers; DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS pending;";
}

}  // namespace folio::query
