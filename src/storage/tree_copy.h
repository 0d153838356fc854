// Copies of whole directory trees through an Fs: `folio serve --ephemeral`'s copy and the
// fixture's snapshots (docs/API.md §14.2). PosixFs shares the blocks of each file where
// the filesystem can (FICLONE: XFS, btrfs) and copies in the kernel elsewhere.
#pragma once

#include <cstdint>
#include <string>

#include "folio/fs.h"
#include "folio/status.h"

namespace folio::storage {

// Copies the directories and regular files below `from` of `src` into the existing
// directory `to` of `dst` ("" is the root of each); symbolic links and special files are
// skipped, as Folio never follows them. With `sync`, every file and directory made is
// synced before this returns (the copy survives a power loss). Errors: those of the
// Fs calls (kStorage naming the path); what was copied is left for the caller to remove.
Status CopyTree(Fs& src, const std::string& from, Fs& dst, const std::string& to, bool sync = false);

// The bytes of the regular files below `dir` of `fs`. Errors: kStorage.
Result<uint64_t> TreeBytes(Fs& fs, const std::string& dir);

}  // namespace folio::storage
