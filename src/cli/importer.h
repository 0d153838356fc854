// folio import: a directory tree brought into a repository as folders and
// documents. Each file is copied once, as it was at one instant (CopyStable: a
// file that keeps changing while it is copied is left out, and the exit code
// says so), into the repository's directory tree (under a temp name, then
// renamed), made durable with one sync per batch, and adopted by the engine,
// whose adopter gives a folder's new files their records in one change with
// their content linked, not copied (docs/STORAGE.md §9). MIME types come from
// the name's extension, else from the content (libmagic).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/host_files.h"
#include "cli/progress.h"
#include "folio/status.h"

namespace folio::cli {

struct ImportOptions {
  std::string source;      // SRC: a directory
  std::string data_dir;    // DATA
  std::string domain;      // DOMAIN (created when missing)
  std::string repository;  // REPO (created when missing, with `variant`)
  std::string variant;     // "A", "B", or "" (B for a new repository; any for an
                           // existing one)
  bool while_serving = false;
  ProgressOptions progress;
  // Files copied between two syncs (and adoptions) at most: what a kill can
  // cost.
  size_t batch_files = 2000;
  uint64_t batch_bytes = 256ull << 20;
  // Tests: called after each copy attempt's bytes are read (see CopyStable).
  CopyHook copy_hook;
};

struct ImportReport {
  uint64_t folders = 0;  // folders in the source tree
  uint64_t files = 0;    // files in the source tree (not left out)
  uint64_t bytes = 0;
  uint64_t copied = 0;  // files copied by this run
  uint64_t copied_bytes = 0;
  uint64_t already_there = 0;     // files an earlier run imported (same size and time)
  std::vector<LeftOut> left_out;  // not imported, and why
  bool interrupted = false;       // stopped by a signal; run again to finish
  bool created_domain = false, created_repository = false;
  double seconds = 0;
};

// Imports `options.source` into the repository. Errors: kObjectNotFound for a
// missing SRC; kInvalidArgument for a SRC that is not a directory, a DATA that
// is not a data directory, or a bad domain or repository id (naming it);
// kConstraint while a server holds DATA (unless while_serving); kStorage.
// Entries that cannot be imported (a name Folio refuses, a link, a file where a
// folder is, a different document already there) do not stop it: they are
// listed in left_out.
Result<ImportReport> RunImport(const ImportOptions& options);

}  // namespace folio::cli
