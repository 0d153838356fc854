// FsFeatures: what a filesystem offers of the calls PosixFs prefers, and OpenPosixFs for
// a filesystem that lacks some (storage/fs_probe.h finds out which).
#pragma once

#include <memory>
#include <string>

#include "folio/fs.h"

namespace folio {

// What a filesystem offers of the calls PosixFs prefers; storage/fs_probe.h finds it out
// under a data directory. PosixFs keeps the Fs contract without each one (its fallback
// in brackets); docs/STORAGE.md, "What Folio needs of a filesystem", says why each is safe.
struct FsFeatures {
  // renameat2(RENAME_NOREPLACE) [a file: a hard link to the new name, then the old
  // name removed; a directory, or without hard links: a rename under a flock of the
  // target's directory, after checking that the name is free].
  bool rename_noreplace = true;
  // renameat2(RENAME_EXCHANGE) [Exchange fails with operation_not_supported: no spare
  // files, each write makes a new file].
  bool rename_exchange = true;
  // openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) [a walk one name at a time, each
  // opened with O_NOFOLLOW beneath the last].
  bool openat2 = true;
  bool flock = true;  // flock(2) on files and directories [open file description locks]
  bool ofd_locks = true;  // fcntl(F_OFD_SETLKW)
  bool hard_links = true;  // linkat(2) [see rename_noreplace]
  // Modification and change times finer than a second [Exchange refused as without
  // rename_exchange: a reused inode rewritten within one second would look unchanged].
  bool fine_timestamps = true;
  bool dir_fsync = true;  // fsync(2) of a directory [syncfs(2) of the whole filesystem]
  bool tmpfile = true;  // O_TMPFILE (not used by Folio: reported only)
};

// OpenPosixFs (folio/fs.h) on a filesystem with `features`: each call it lacks replaced
// by its fallback. Errors: as OpenPosixFs.
Result<std::unique_ptr<Fs>> OpenPosixFs(const std::string& root, PosixFsOptions options, const FsFeatures& features);

}  // namespace folio
