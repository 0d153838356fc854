// Checking a query index against the files; see index_check.h.
#include "repo/query/index_check.h"

#include <map>

#include "repo/query/index_writer.h"
#include "repo/query/schema.h"
#include "repo/query/sqlite.h"

namespace folio::query {
namespace {

constexpr size_t kMaxExamples = 5;

struct Row {
  std::string folder;
  std::string name;
  bool current = true;
  std::optional<int64_t> modified_ms;
};

Result<std::map<std::string, Row>> ReadRows(Db& db) {
  std::map<std::string, Row> rows;
  FOLIO_ASSIGN_OR_RETURN(Stmt s,
                         db.Prepare("SELECT p_objectId, folder, p_name, current, p_lastModificationDate FROM objects"));
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) return rows;
    Row r{s.Text(1), s.Text(2), s.Int(3) == 1, std::nullopt};
    if (!s.IsNull(4)) r.modified_ms = s.Int(4);
    rows.emplace(s.Text(0), std::move(r));
  }
}

}  // namespace

IndexCheck CheckIndexFile(const std::string& db_path, const std::vector<ExpectedRow>& expected, uint64_t log_token) {
  IndexCheck out;
  auto opened = Db::OpenExisting(db_path);
  if (!opened.ok()) {
    if (opened.status().Is(std::errc::no_such_file_or_directory)) return out;  // kAbsent
    out.state = IndexCheck::State::kUnreadable;
    out.detail = opened.status().message();
    return out;
  }
  Db& db = **opened;
  auto unreadable = [&](const Status& s) {
    out.state = IndexCheck::State::kUnreadable;
    out.detail = s.message();
    return out;
  };
  // A database without any table is an index whose first writer stopped before its
  // schema's transaction committed (SQLite makes the file on open): as good as none.
  {
    auto tables = db.Prepare("SELECT count(*) FROM sqlite_master");
    if (!tables.ok()) return unreadable(tables.status());
    auto row = tables->Step();
    if (!row.ok()) return unreadable(row.status());
    if (*row && tables->Int(0) == 0) return out;  // kAbsent
  }
  auto schema = ReadMeta(db, "schema");
  if (!schema.ok()) return unreadable(schema.status());
  if (!*schema || **schema != kSchemaVersion) {
    out.state = IndexCheck::State::kUnreadable;
    out.detail = "its schema version is " + (*schema ? std::to_string(**schema) : std::string("unknown")) +
                 ", this Folio writes version " + std::to_string(kSchemaVersion);
    return out;
  }
  auto complete = ReadMeta(db, "complete");
  if (!complete.ok()) return unreadable(complete.status());
  if (!*complete || **complete != 1) {
    out.state = IndexCheck::State::kIncomplete;
    out.detail = "a build is running or was interrupted";
    return out;
  }
  auto token = ReadMeta(db, kChangeLogTokenKey);
  if (!token.ok()) return unreadable(token.status());
  const uint64_t applied = *token ? static_cast<uint64_t>(**token) : 0;
  if (!*token || applied > log_token) {
    out.state = IndexCheck::State::kUnreadable;
    out.detail = !*token ? "it follows no change log"
                         : "it has applied change log token " + std::to_string(applied) + " but the log ends at " +
                               std::to_string(log_token) + " (another log)";
    return out;
  }
  if (applied < log_token) {
    out.state = IndexCheck::State::kIncomplete;
    const uint64_t behind = log_token - applied;
    out.detail = std::to_string(behind) + " change log event" + (behind == 1 ? "" : "s") +
                 " not applied yet (the next query applies them)";
    return out;
  }
  auto rows = ReadRows(db);
  if (!rows.ok()) return unreadable(rows.status());
  out.state = IndexCheck::State::kChecked;
  auto differ = [&](std::string what) {
    if (out.examples.size() < kMaxExamples) out.examples.push_back(std::move(what));
    ++out.differences;
  };
  for (const ExpectedRow& e : expected) {
    auto it = rows->find(e.id);
    const std::string shown = "'" + e.name.value_or(e.id) + "' (" + e.id + ")";
    if (it == rows->end()) {
      differ(shown + " is missing");
      continue;
    }
    const Row& r = it->second;
    std::string what;
    auto add = [&](const std::string& w) { what += (what.empty() ? " " : ", ") + w; };
    if (e.name && *e.name != r.name) add("is named '" + r.name + "' in the index");
    if (e.folder && *e.folder != r.folder)
      add("is in folder '" + r.folder + "' in the index, '" + *e.folder + "' in the files");
    if (e.current != r.current)
      add(e.current ? "is the latest version, not in the index" : "is no longer the latest version");
    if (e.modified_ms && *e.modified_ms != r.modified_ms.value_or(-1)) add("was modified since it was indexed");
    if (!what.empty()) differ(shown + what);
    rows->erase(it);
  }
  for (const auto& [id, r] : *rows) differ("'" + r.name + "' (" + id + ") is no longer in the files");
  return out;
}

}  // namespace folio::query
