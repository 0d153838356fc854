// Copies of whole directory trees through an Fs: `folio serve --ephemeral`'s copy and the
// fixture's snapshots (docs/API.md §14.2). PosixFs shares the blocks of each file where
// the filesystem can (FICLONE: XFS, btrfs) and copies in the kernel elsewhere.
#pragma once

#include <cstdint>
#include <string>

#include "folio/fs.h"
#include "folio/status.h"

namespace folio::storage {

// What CopyTree does with a file or directory removed between the listing of its
// directory and its copy.
enum class VanishedEntries {
  kFail,  // an error: the tree was to stay as it is
  // Left out, as it is no longer in the tree: for a tree that changes meanwhile only by
  // the removal of garbage (a caller that needs a consistent copy stops what writes the
  // tree first: the copy of a file being written holds part of it).
  kLeaveOut,
};

// Copies the directories and regular files below `from` of `src` into the existing
// directory `to` of `dst` ("" is the root of each); symbolic links and special files are
// skipped, as Folio never follows them. With `sync`, every file and directory made is
// synced before this returns (the copy survives a power loss). Errors: those of the
// Fs calls (kStorage naming the path); what was copied is left for the caller to remove.
Status CopyTree(Fs& src, const std::string& from, Fs& dst, const std::string& to, bool sync = false,
                VanishedEntries vanished = VanishedEntries::kFail);

// The bytes of the regular files below `dir` of `fs`. Errors: kStorage.
Result<uint64_t> TreeBytes(Fs& fs, const std::string& dir);

}  // namespace folio::storage
