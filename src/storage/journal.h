// The journal of data written by Folio before the commit log (docs/STORAGE.md §8.7):
// Folio no longer writes it, and only completes what such a data directory holds. A
// record lists renames and removals; it was committed when its atomic rename made it
// exist. Every action is idempotent, so recovery re-applies committed records (again,
// after a crash during recovery) and ignores uncommitted temp files.
#pragma once

#include <string>
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

// Completes the committed changes that an interrupted process left in `journal_dir`
// and removes half-written records. Returns how many records were completed. The
// caller holds the repository's write lock. Errors: kStorage.
Result<int> RecoverJournal(Fs& fs, const std::string& journal_dir);

// The actions of a committed record (for fsck and tests).
Result<std::vector<JournalAction>> ParseJournalRecord(const Json& record, const std::string& what);

}  // namespace folio::storage
