// Files outside any data directory, as folio import reads them and folio export
// writes them: a directory tree walked without following links, files written
// under a temp name and renamed into place (a kill leaves the old file or the
// whole new one, never a part), modification times kept.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/status.h"

namespace folio::cli {

// One file or directory of a walked tree.
struct TreeEntry {
  std::string path;  // relative to the root, '/'-separated ("" never: the root
                     // is not listed)
  bool directory = false;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

// What a walk left out, and why ("a symbolic link", "a special file", a rule
// broken).
struct LeftOut {
  std::string path;
  std::string reason;
};

// Walks `root` depth first: a directory before what it holds, names in byte
// order. Symbolic links and special files are left out; so is every entry whose
// name `refuse(name)` gives a reason for (and, for a directory, all below it).
// Errors: kObjectNotFound if `root` does not exist; kInvalidArgument if it is
// not a directory; kStorage if a directory cannot be read (naming it).
Status WalkTree(const std::string& root, const std::function<std::string(const std::string& name)>& refuse,
                std::vector<TreeEntry>& entries, std::vector<LeftOut>& left_out);

// lstat: nullopt when nothing is there. Errors: kStorage for other failures.
Result<std::optional<FileStat>> HostStat(const std::string& path);

// Writes `dest` (a file that must not be a directory) under a temp name beside
// it, then renames it into place, replacing a file there. `fill(fd)` writes the
// bytes and returns the modification time to give the file. No fsync: callers
// sync in batches (SyncFilesystem) before they rely on the bytes. Temp names
// start with `temp_prefix` followed by the process id (see RemoveStaleTemps).
// Errors: those of `fill`; kStorage naming `dest`, with errno's message (the
// temp file is removed either way).
Status WriteFileReplacing(const std::string& dest, const std::string& temp_prefix,
                          const std::function<Result<int64_t>(int fd)>& fill);
// What a stable copy found of its source: the file as it was while it was read.
struct CopiedState {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};
// Called after each attempt's bytes are read and before the source is looked at
// again (tests change the file there); `attempt` counts from 1.
using CopyHook = std::function<void(const std::string& source, int attempt)>;
// Rule I1 (docs/STORAGE.md §10). Copies `source` into the open file `fd` (from its
// start, replacing what `fd` held) as the file was at one instant: its identity (device and inode, also of
// the name `source`), size, modification and change times are the same after the
// bytes were read as before, and exactly that size was read. A file modified
// within the filesystem clock's last tick (storage::IsRacy) is waited for until
// the tick is over first, since a write in that tick would not move its time. A
// file that changed is copied again, `tries` times in all. Returns the state
// copied, or nullopt when the file changed during every try (`fd` then holds no
// trusted bytes). Errors: kStorage naming `source` (gone, unreadable) or the
// write.
Result<std::optional<CopiedState>> CopyStable(const std::string& source, int fd, int tries,
                                              const CopyHook& hook = {});
// Writes what `from` has left into `fd`.
Status CopyBytes(ReadableFile& from, int fd, const std::string& what);

// Removes from `dir` the temp files whose names start with `temp_prefix` and
// that a process no longer running left (an interrupted import or export).
void RemoveStaleTemps(const std::string& dir, const std::string& temp_prefix);

// Makes everything written to the filesystem holding `path` durable (syncfs).
// Errors: kStorage.
Status SyncFilesystem(const std::string& path);

// Makes the directory `path` (its parent must exist); OK if it is a directory
// already. Errors: kConstraint if something else is there; kStorage.
Status MakeDirectory(const std::string& path);

// Set by SIGINT and SIGTERM once InstallStopHandlers ran: long commands stop at
// the next file, finish what they must (a batch's records), and say how to
// resume.
extern std::atomic<bool> g_stop_requested;
void InstallStopHandlers();

}  // namespace folio::cli
