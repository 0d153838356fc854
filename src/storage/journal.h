// Transactions over several files with exactly one commit point (docs/STORAGE.md,
// "Changes and crash recovery"). A transaction first stages everything new as synced
// temp files (invisible: reserved names), then writes one journal record listing the
// renames and removals to perform (the atomic rename of that record is the commit
// point), then performs them and deletes the record. Every action is idempotent, so
// recovery after a crash re-applies committed records and ignores uncommitted temps.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "folio/fs.h"
#include "storage/json_file.h"

namespace folio::storage {

struct JournalAction {
  enum class Op { kRename, kRemove };
  Op op = Op::kRename;
  std::string from;  // kRename: source; kRemove: the path (file or tree)
  std::string to;    // kRename: target (replaced if it is a file)
};

// Not thread-safe; the caller holds the repository's write lock for its lifetime.
// Requires: within one transaction no path is renamed away and later recreated (so
// that replaying the actions is idempotent).
class Transaction {
 public:
  Transaction(Fs& fs, std::string journal_dir);
  ~Transaction();  // not committed: removes what was staged (rollback)
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // At commit, `target` holds `bytes` (created or replaced). Staged now as a temp file,
  // whose path is returned (its size and mtime are what `target` will have).
  Result<std::string> Write(const std::string& target, std::string_view bytes);
  Result<std::string> WriteJson(const std::string& target, const Json& value);
  // At commit, `target` holds a copy of what `src` has left to read.
  Result<std::string> Copy(const std::string& target, ReadableFile& src);
  // At commit, `target` is the already written and synced file `file` (moved beside
  // `target` now, so the final rename is atomic; `file` must be on the same filesystem).
  Result<std::string> Adopt(const std::string& target, const std::string& file);
  // At commit, a new directory appears at `target`; returns the temp directory to fill
  // with WriteNewFile / NewSubdir before Commit.
  Result<std::string> NewDir(const std::string& target);
  Status NewSubdir(const std::string& path);
  // Creates a new file `path` inside a directory made by NewDir (synced at commit).
  Status WriteNewFile(const std::string& path, std::string_view bytes);
  Status CopyNewFile(const std::string& path, ReadableFile& src);
  // Moves the finished, synced file `from` to `path` inside a directory made by NewDir.
  Status MoveNewFile(const std::string& from, const std::string& path);
  // At commit, renames `from` to `to` (a file or directory).
  void Rename(const std::string& from, const std::string& to);
  // At commit, removes `path` and everything below it.
  void Remove(const std::string& path);

  bool empty() const { return actions_.empty(); }
  // Performs every staged change, or (failing before the commit point) none and
  // cleans up. After a failure past the commit point the change is completed by the
  // next RecoverJournal. Errors: kStorage.
  Status Commit();

 private:
  Result<std::string> Stage(const std::string& target, const std::string& temp);

  Fs& fs_;
  std::string journal_dir_;
  std::vector<JournalAction> actions_;
  std::vector<std::string> temps_;         // removed on rollback
  std::set<std::string> sync_before_;      // directories to sync before the commit point
  bool committed_ = false;
};

// Completes the committed changes that an interrupted process left in `journal_dir`
// and removes half-written records. Returns how many records were completed. The
// caller holds the repository's write lock. Errors: kStorage.
Result<int> RecoverJournal(Fs& fs, const std::string& journal_dir);

// The actions of a committed record (for fsck and tests).
Result<std::vector<JournalAction>> ParseJournalRecord(const Json& record, const std::string& what);

}  // namespace folio::storage
