// Looking at each file once in a read of many objects (a query page): within a
// LookOnce scope, the calling thread's stats and directory listings through a
// ConflictCheckingFs (Stat, IdentityStat and List, the engine's reads) are kept by path,
// so that the records many objects share (their folder's record, its adoption tables
// and their directory, a directory they would have) are looked at once, not once per
// object. The read then sees each file as it was the first time it looked, as if every
// look had happened at that instant; an edit made while it runs is seen by the next
// read (Rule H1, docs/STORAGE.md §9 and §10). What a scope keeps lives as long as the
// scope: a page's worth of stats and listings.
//
// What is kept is forgotten whenever a change of this process is applied to any
// repository (ChangeApplied, called by the Committer), and by ForgetAll (a read that
// starts again after waiting for the changes in flight). A stage of the Committer
// never uses what is kept: its reads must reach the filesystem, where conflicts are
// seen. Only successes and "no such file" are kept; any other error is looked at again.
//
// Thread-safety: a scope belongs to the thread that made it and is not movable; scopes
// nest (the innermost keeps). ChangeApplied may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "folio/fs.h"

namespace folio::storage {

class LookOnce {
 public:
  LookOnce();
  ~LookOnce();
  LookOnce(const LookOnce&) = delete;
  LookOnce& operator=(const LookOnce&) = delete;

  // The innermost scope of the calling thread; null when there is none.
  static LookOnce* Current();
  // Forgets what every scope of the calling thread keeps.
  static void ForgetAll();
  // A change reached the files: every scope looks again.
  static void ChangeApplied();

  // The stat of `path` in `fs` (`identity`: IdentityStat, else Stat) kept in this
  // scope, or `look()`'s answer, kept when it is a success or "no such file".
  Result<FileStat> Stat(const Fs* fs, const std::string& path, bool identity,
                        const std::function<Result<FileStat>()>& look);
  // The listing of directory `path` in `fs` kept in this scope, or `look()`'s answer,
  // kept as Stat keeps.
  Result<std::vector<DirEntry>> List(const Fs* fs, const std::string& path,
                                     const std::function<Result<std::vector<DirEntry>>()>& look);

 private:
  void Clear();
  // Forgets what was kept if a change was applied since it was looked at.
  void ForgetIfChanged();

  uint64_t seen_;  // the count of changes applied when what is kept was looked at
  LookOnce* outer_;
  struct Kept {
    std::unordered_map<std::string, Result<FileStat>> by_path[2];  // [0] Stat, [1] IdentityStat
    std::unordered_map<std::string, Result<std::vector<DirEntry>>> lists;
  };
  std::unordered_map<const Fs*, Kept> kept_;
};

}  // namespace folio::storage
