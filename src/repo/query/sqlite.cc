// SQLite connections and statements; see sqlite.h.
#include "repo/query/sqlite.h"

#include <sqlite3.h>

#include "repo/query/like.h"
#include "repo/query/sqlite_memory.h"

namespace folio::query {
namespace {

// folio_like(value, pattern): CMIS LIKE (like.h). The compiled pattern is kept with the
// statement while the pattern argument stays the same.
void LikeFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  auto* pattern = static_cast<LikePattern*>(sqlite3_get_auxdata(ctx, 1));
  if (pattern == nullptr) {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    pattern = new LikePattern(CompileLike(std::string_view(p, sqlite3_value_bytes(argv[1]))));
    sqlite3_set_auxdata(ctx, 1, pattern, [](void* x) { delete static_cast<LikePattern*>(x); });
    pattern = static_cast<LikePattern*>(sqlite3_get_auxdata(ctx, 1));
    if (pattern == nullptr) {  // SQLite could not keep it (out of memory): compile per call
      LikePattern once = CompileLike(std::string_view(p, sqlite3_value_bytes(argv[1])));
      const char* v = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
      sqlite3_result_int(ctx, LikeMatch(once, std::string_view(v, sqlite3_value_bytes(argv[0]))));
      return;
    }
  }
  const char* v = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  sqlite3_result_int(ctx, LikeMatch(*pattern, std::string_view(v, sqlite3_value_bytes(argv[0]))));
}

}  // namespace

bool IsCorruption(const Status& s) { return s.kind() == ErrorKind::kStorage && s.Is(kIndexCorrupt); }

Result<std::unique_ptr<Db>> Db::Open(const std::string& path) {
  InstallSqliteMemoryCounter();
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  std::unique_ptr<Db> db(new Db(raw));
  if (rc != SQLITE_OK) return db->Error(rc, "cannot open the query index '" + path + "'");
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 10000);
  sqlite3_create_function_v2(raw, "folio_like", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, LikeFunction, nullptr,
                             nullptr, nullptr);
  sqlite3_progress_handler(raw, 1000, &Db::Progress, db.get());
  FOLIO_RETURN_IF_ERROR(db->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF"));
  return db;
}

Result<std::unique_ptr<Db>> Db::OpenExisting(const std::string& path) {
  InstallSqliteMemoryCounter();
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  std::unique_ptr<Db> db(new Db(raw));
  if ((rc & 0xff) == SQLITE_CANTOPEN) {
    return StorageError("no query index at '" + path + "'", std::errc::no_such_file_or_directory);
  }
  if (rc != SQLITE_OK) return db->Error(rc, "cannot open the query index '" + path + "'");
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 10000);
  FOLIO_RETURN_IF_ERROR(db->Exec("PRAGMA query_only = 1"));
  return db;
}

Db::~Db() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

int Db::Progress(void* self) {
  auto* db = static_cast<Db*>(self);
  return db->has_deadline_ && std::chrono::steady_clock::now() > db->deadline_ ? 1 : 0;
}

void Db::SetDeadline(std::chrono::steady_clock::time_point deadline) {
  deadline_ = deadline;
  has_deadline_ = true;
}

void Db::ClearDeadline() { has_deadline_ = false; }

Status Db::Error(int code, std::string_view what) const {
  const int primary = code & 0xff;
  std::string message = std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code));
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) return StorageError(message, kIndexCorrupt);
  if (primary == SQLITE_INTERRUPT) return StorageError(message, kIndexTimedOut);
  return StorageError(message);
}

Status Db::Exec(std::string_view sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  if (rc != SQLITE_OK) return Error(rc, "query index");
  return OkStatus();
}

Status Db::Transaction(std::string_view sql) {
  FOLIO_RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  Status s = Exec(sql);
  if (s.ok()) s = Exec("COMMIT");
  if (!s.ok()) (void)Exec("ROLLBACK");
  return s;
}

Result<Stmt> Db::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "query index: cannot prepare a statement");
  return Stmt(this, stmt);
}

int64_t Db::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }
int Db::Changes() const { return sqlite3_changes(db_); }

Stmt& Stmt::operator=(Stmt&& o) noexcept {
  if (this != &o) {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
    db_ = o.db_;
    stmt_ = o.stmt_;
    o.stmt_ = nullptr;
  }
  return *this;
}

Stmt::~Stmt() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Stmt& Stmt::Bind(int i, const SqlValue& v) {
  switch (v.kind) {
    case SqlValue::Kind::kText:
      return BindText(i, v.text);
    case SqlValue::Kind::kInteger:
      return BindInt(i, v.integer);
    case SqlValue::Kind::kReal:
      return BindReal(i, v.real);
  }
  return *this;
}

Stmt& Stmt::BindText(int i, std::string_view text) {
  sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::BindInt(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Stmt& Stmt::BindReal(int i, double v) {
  sqlite3_bind_double(stmt_, i, v);
  return *this;
}
Stmt& Stmt::BindNull(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}

Result<bool> Stmt::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status s = db_->Error(rc, "query index");
  sqlite3_reset(stmt_);
  return s;
}

Status Stmt::Run() {
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return OkStatus();
  }
}

void Stmt::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Stmt::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
int64_t Stmt::Int(int col) const { return sqlite3_column_int64(stmt_, col); }
double Stmt::Real(int col) const { return sqlite3_column_double(stmt_, col); }
std::string Stmt::Text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  if (t == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(stmt_, col));
}

}  // namespace folio::query
