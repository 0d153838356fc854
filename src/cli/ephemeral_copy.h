// Throw-away copies of a data directory, for `folio serve --ephemeral` and
// folio::testing::Server: the fixture is never written, and a copy that a killed
// process left behind is found and removed by the next one.
//
// A copy is $TMPDIR/folio-ephemeral-XXXXXX/ (TMPDIR unset: /tmp) holding
//   owner.json   the mark, written first: {"folioEphemeral": 1, "pid", "startTime", "bootId",
//                "pidNamespace"} of the process that made it (startTime: /proc/PID/stat's
//                field 22; pidNamespace: /proc/self/ns/pid)
//   data/        the copy
// Only a directory of that name, owned by this user, not a symbolic link, whose mark
// names a process of this pid namespace that is no longer running (or a boot that is
// over) is ever removed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "folio/status.h"

namespace folio::cli {

class EphemeralCopy {
 public:
  // Copies directories and regular files of `source` (symbolic links and special files
  // are skipped: Folio never follows them) without fsync. An empty `source` gives an
  // empty data directory.
  // Errors: kObjectNotFound if `source` does not exist; kStorage if it is not a
  // directory, or making the copy fails (nothing is left behind then).
  static Result<std::unique_ptr<EphemeralCopy>> Make(const std::string& source);

  ~EphemeralCopy();  // Remove()
  EphemeralCopy(const EphemeralCopy&) = delete;
  EphemeralCopy& operator=(const EphemeralCopy&) = delete;

  // The copy's data directory (…/folio-ephemeral-XXXXXX/data).
  std::string data_dir() const { return root_ + "/data"; }
  // The copy's own directory (…/folio-ephemeral-XXXXXX).
  const std::string& root() const { return root_; }
  // Removes the copy, once; later calls do nothing.
  void Remove();

 private:
  explicit EphemeralCopy(std::string root) : root_(std::move(root)) {}
  std::string root_;
};

// The directory copies are made in: $TMPDIR, or /tmp.
std::string EphemeralParentDir();

// Removes the copies in EphemeralParentDir() whose maker is gone (see above) and
// returns their paths. Never fails: what cannot be read or removed is left alone.
std::vector<std::string> RemoveAbandonedEphemeralCopies();

}  // namespace folio::cli
