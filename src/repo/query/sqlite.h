// A thin RAII layer over the SQLite C API for the query index: a connection, prepared
// statements, and SQLite's result codes turned into Status (kStorage, naming the
// statement's purpose). With sqlite_memory.cc, the only files that include sqlite3.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

#include "folio/status.h"
#include "repo/query/bound_query.h"

struct sqlite3;
struct sqlite3_stmt;

namespace folio::query {

// The cause() of a kStorage Status for a database file that is not a database or is
// damaged: the index is rebuilt from the repository.
inline constexpr std::errc kIndexCorrupt = std::errc::bad_message;
// The cause() of a kStorage Status when a statement ran past its deadline.
inline constexpr std::errc kIndexTimedOut = std::errc::timed_out;

bool IsCorruption(const Status& s);

class Stmt;

class Db {
 public:
  // Opens (creating if missing) the database file at the absolute host path `path`,
  // refusing a symbolic link there, in WAL mode with synchronous=NORMAL (the index is
  // derived: a crash may lose its last changes, which the change feed or a rebuild
  // replaces), a busy timeout for other processes, and the function folio_like
  // (like.h). Errors: kStorage (cause kIndexCorrupt for a file that is not a database).
  static Result<std::unique_ptr<Db>> Open(const std::string& path);
  // Opens an existing database file to read it only (PRAGMA query_only): for checks.
  // Errors: kStorage, cause no_such_file_or_directory when there is no file, kIndexCorrupt
  // for one that is not a database.
  static Result<std::unique_ptr<Db>> OpenExisting(const std::string& path);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs one or more statements without results.
  Status Exec(std::string_view sql);
  // Runs `sql` (statements without results) in one write transaction: all or nothing.
  Status Transaction(std::string_view sql);
  Result<Stmt> Prepare(std::string_view sql);
  int64_t LastInsertRowId() const;
  int Changes() const;

  // Statements running after `deadline` stop with kStorage, cause kIndexTimedOut.
  void SetDeadline(std::chrono::steady_clock::time_point deadline);
  void ClearDeadline();

  // The error of the last call, as a Status naming `what`.
  Status Error(int code, std::string_view what) const;

  sqlite3* handle() const { return db_; }

 private:
  explicit Db(sqlite3* db) : db_(db) {}
  static int Progress(void* self);

  sqlite3* db_;
  std::chrono::steady_clock::time_point deadline_{};
  bool has_deadline_ = false;
};

class Stmt {
 public:
  Stmt(Db* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Stmt(Stmt&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }
  Stmt& operator=(Stmt&& o) noexcept;
  ~Stmt();

  // Parameters are 1-based.
  Stmt& Bind(int i, const SqlValue& v);
  Stmt& BindText(int i, std::string_view text);
  Stmt& BindInt(int i, int64_t v);
  Stmt& BindReal(int i, double v);
  Stmt& BindNull(int i);
  // A row is ready (true) or the statement is done (false).
  Result<bool> Step();
  // Steps to the end, ignoring rows.
  Status Run();
  void Reset();

  bool IsNull(int col) const;
  int64_t Int(int col) const;
  double Real(int col) const;
  std::string Text(int col) const;

 private:
  Db* db_;
  sqlite3_stmt* stmt_;
};

}  // namespace folio::query
