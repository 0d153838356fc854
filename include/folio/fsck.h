// folio fsck: checks every invariant of docs/STORAGE.md §10 over a data directory and,
// with repair, fixes what can be fixed without deleting user content.
#pragma once

#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/status.h"

namespace folio {

enum class Severity { kError, kWarning, kNote };

// One problem found. `id` is a stable finding id from docs/STORAGE.md §10.
struct Finding {
  std::string id;
  Severity severity = Severity::kError;
  std::string path;     // data-directory-relative path of the file at fault
  std::string message;  // what is wrong, naming the object
  std::string repair;   // with repair: what was done ("" if nothing could be done)
};

struct FsckOptions {
  bool repair = false;
};

struct FsckReport {
  std::vector<Finding> findings;
  // Errors and warnings (notes do not count); after a repair, those left unrepaired.
  size_t problems() const;
  bool clean() const { return problems() == 0; }
};

// Walks the whole data directory `dir`. With repair, takes each repository's write
// lock while repairing it. Errors: kObjectNotFound if `dir` does not exist; kStorage if
// it cannot be read at all (individual unreadable files are findings).
Result<FsckReport> RunFsck(const std::string& dir, const FsckOptions& options);
// The same over the data directory behind `fs` (a MemFs in tests).
Result<FsckReport> RunFsck(Fs& fs, const FsckOptions& options);

std::string_view SeverityName(Severity s);  // "error", "warning", "note"

}  // namespace folio
