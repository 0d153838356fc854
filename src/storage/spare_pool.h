// SparePool: files a repository's commits keep for their inodes instead of freeing them
// (docs/STORAGE.md §8.5, "Spare files"), so that a write in steady state neither frees
// an inode nor allocates one.
//
// Why: every put of a record replaces a file (a new inode written, the old one freed)
// and a check-in removes a few. On some filesystems the inode allocator is the most
// expensive part of that: ext4 without a journal walks past every inode freed in the
// last minutes before it hands one out, which made up half of the server's CPU under a
// write load (bench/RESULTS.md). A spare is written over in place and swapped into the
// target's name in one renameat2(RENAME_EXCHANGE), which leaves the old file under the
// spare's name: ready to be the next spare.
//
// Who may read a spare's old bytes: a reader that opened the file before it was
// replaced. So a spare is written over only after it has been out of every name but
// its own for `grace` (by this process's clock, and by the file's own ctime for spares
// another process put there), and Folio's own whole-file reads check that the file's
// ctime did not move while they read it (ReadWholeRecord, Directory::ReadFile, the JSON
// cache), and read again if it did. Only files whose bytes are read whole, or not at
// all, are taken as spares (MayRetire): records and markers below a `.folio`
// directory, never content (which a slow client may stream for minutes).
//
// Spares are garbage: nothing names them, they hold stale bytes, and they may be
// removed at any time by the holder of the repository's lock (Clear). Every call here
// is made by the holder of the repository's write lock; thread-safe within it (the
// records of one group commit are applied by several threads).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "folio/fs.h"

namespace folio::storage {

struct SparePoolOptions {
  // How long a file is kept out of every name before it is written over.
  std::chrono::milliseconds grace{500};
  // Spares kept at most; a file retired beyond that is freed as before.
  size_t capacity = 8192;
};

class SparePool {
 public:
  // `dir`: the directory spares live in (made when the first one is retired), on the
  // same filesystem as the files they replace.
  SparePool(std::string dir, SparePoolOptions options);

  // Puts `bytes` at `path` (which may or may not exist) by writing a spare that has
  // served its grace and swapping it in: readers see the old file or the new one,
  // whole. What `path` named before becomes a spare when `keep_old` (a record, see
  // the file comment), and is removed otherwise. With `keep_old` and no spare ready,
  // a new file made beside `path` is swapped in the same way, so that the replaced
  // record is still kept (a pool that frees what it replaces while none is ready never
  // catches up with a steady load). False, with nothing changed at
  // `path`, when that is not possible either (no spare ready and not `keep_old`, the
  // pool full, the filesystem unable to swap files): the caller writes a new file.
  // Errors: the filesystem's, on writing the spare.
  Result<bool> Put(Fs& fs, const std::string& path, std::string_view bytes, bool keep_old);

  // Moves the file `path`, whose stat the caller holds, into the pool instead of
  // removing it. False when the pool is full, or the file has other names or cannot
  // be moved there: the caller removes it.
  Result<bool> Retire(Fs& fs, const std::string& path, const FileStat& st);

  // Removes every spare (on a full disk).
  void Clear(Fs& fs);
  // The spares an earlier process left are not to be used but removed (when first
  // needed: opening a repository writes nothing). After the machine restarted: a power
  // loss may have left a spare's name on a file that has another name now.
  void DistrustFound();
  // Removes the spares beyond the `keep` most recently retired (the repository fell
  // idle: a burst's spares need not stay on disk).
  void Trim(Fs& fs, size_t keep);

  // Files handed out as spares / kept as spares / made new as spares (when none was
  // ready, see Put) so far (tests, benchmarks).
  uint64_t reused() const;
  uint64_t retired() const;
  uint64_t made() const;
  size_t size() const;

  // True for a file whose inode may become a spare when it is replaced or removed:
  // in a `.folio` directory, a record (`*.json`), a checked-out marker, or any file of
  // `size` 0 (a marker). Pass UINT64_MAX when the size is not known.
  static bool MayRetire(std::string_view path, uint64_t size);

 private:
  struct Spare {
    std::string name;
    std::chrono::steady_clock::time_point retired;
  };

  // Requires mu_. Reads the spares an earlier process left (once): each serves its
  // grace from now.
  void LoadLocked(Fs& fs);
  // The oldest spare if it has served its grace, taken out of the queue.
  bool TakeReady(Fs& fs, Spare& out);
  // Opens the ready `spare` to be written over, and says its `old_size`; null when it
  // cannot be (dropped, given back, or the pool turned off, as the cause says).
  std::unique_ptr<WritableFile> OpenReady(Fs& fs, const Spare& spare, uint64_t& old_size);
  // True when the pool is on and has room for one more spare.
  bool HasRoom() const;
  void GiveBack(Spare spare);
  // Counts a put through a spare (`made` new, or reused).
  void CountPut(bool made);
  // Queues the spare `name` (now holding what a put replaced) again, if there is room.
  bool Requeue(const std::string& name);
  // Moves the file `path` into the pool under a new name; false when the pool is off or
  // full, or the move fails (the file is then where it was).
  bool MoveIn(Fs& fs, const std::string& path);
  void Drop(Fs& fs, const Spare& spare);
  std::string NewNameLocked();
  std::string PathOf(const std::string& name) const;

  const std::string dir_;
  const SparePoolOptions options_;
  mutable std::mutex mu_;
  std::deque<Spare> ready_;  // oldest first
  bool loaded_ = false;
  bool distrust_found_ = false;
  bool disabled_ = false;  // the filesystem cannot swap or rewrite files
  uint64_t next_name_ = 0;
  uint64_t reused_ = 0;
  uint64_t retired_ = 0;
  uint64_t made_ = 0;
};

}  // namespace folio::storage
