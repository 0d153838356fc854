// Where fsck --repair puts doubtful files instead of deleting them:
// <repository>/.folio/lost+found/<stamp>/<path relative to the repository>.
#pragma once

#include <string>

#include "folio/fs.h"
#include "storage/layout.h"

namespace folio::fsck {

class LostFound {
 public:
  // `stamp` names this run's directory (see LostFoundStamp).
  LostFound(Fs& fs, std::string stamp) : fs_(fs), stamp_(std::move(stamp)) {}

  // Moves the file or directory `path` (data-directory-relative, inside the repository
  // of `layout`) to lost+found and returns where it now is. Never replaces anything: a
  // taken name gets a suffix ".1", ".2", ... Errors: kStorage; kRuntime if `path` is
  // not inside the repository.
  Result<std::string> Move(const storage::RepoLayout& layout, const std::string& path);
  // Copies the file `path` there (for content about to be replaced); returns the copy.
  Result<std::string> Copy(const storage::RepoLayout& layout, const std::string& path);

 private:
  // Creates the directories above `path`'s place in lost+found; returns that place.
  Result<std::string> Place(const storage::RepoLayout& layout, const std::string& path);

  Fs& fs_;
  std::string stamp_;
};

// The current UTC time as a file name: "2026-11-21T19-30-00.123Z".
std::string LostFoundStamp();

}  // namespace folio::fsck
