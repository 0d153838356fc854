// An Fs that keeps every change in memory above a filesystem it never changes: how a
// read-only repository (serve --read-only, inspect, a read-only mount) adopts files
// and folders made by hand (docs/STORAGE.md §9) without writing a byte. Reads see the
// changes made through the overlay first, then the filesystem below.
//
// Changes it holds: files created (CreateNew, then appended to), directories made,
// links (another name of a file below or above), and renames and removals of what it
// holds; a file renamed onto a path of the filesystem below shadows it. Renaming or
// removing a file or directory of the filesystem below is refused with kStorage, cause
// read_only_file_system.
//
// Memory: what every overlay of the process holds together (paths, records, and the
// bytes of files written to it) is counted against one limit, kOverlayMemoryLimit by
// default (docs/STORAGE.md §9). The overlay itself never refuses a call for it: the
// Committer asks for room (CheckRoom) before it applies a change, so that a change is
// held whole or not at all.
//
// Thread-safety: every call may be made from any thread.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

#include "folio/fs.h"

namespace folio::storage {

class ChangeSet;

// The memory every OverlayFs of a process may hold together, by default.
inline constexpr uint64_t kOverlayMemoryLimit = uint64_t{256} << 20;

class OverlayFs : public Fs {
 public:
  // Requires: `lower` outlives the overlay.
  explicit OverlayFs(Fs& lower) : lower_(lower) {}
  ~OverlayFs() override;

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) override;
  // The filesystem below's own (a directory descriptor) while the overlay holds nothing.
  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status RenameNoReplace(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string&) override { return OkStatus(); }
  Result<std::vector<DirEntry>> List(const std::string& dir) override;
  Status MakeDir(const std::string& path) override;
  Status Remove(const std::string& path) override;
  Status RemoveTree(const std::string& path) override;
  Result<FileStat> Stat(const std::string& path) override;
  Result<FileStat> IdentityStat(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> Lock(const std::string& path, LockMode mode) override {
    return lower_.Lock(path, mode);
  }
  Status Link(const std::string& from, const std::string& to) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& path) override;
  Status SyncAll() override { return OkStatus(); }
  std::string BootId() override { return lower_.BootId(); }
  std::string Describe(const std::string& path) const override { return lower_.Describe(path); }

  // Paths the overlay holds (files, directories and links); for tests and metrics.
  size_t size() const;
  // Bytes this overlay holds, as counted against the limit.
  uint64_t memory_used() const { return used_.load(); }

  // The limit for all overlays of the process together (kOverlayMemoryLimit unless set),
  // and what they hold now. Thread-safe.
  static uint64_t MemoryLimit();
  static void SetMemoryLimit(uint64_t bytes);
  static uint64_t MemoryUsedByAll();
  // At most the bytes that applying `change` to an overlay adds to what it holds.
  static uint64_t CostOf(const ChangeSet& change);
  // OK when all overlays together may hold `cost` bytes more. Errors: kStorage with
  // cause not_enough_memory, its message naming `what` (the repository), the limit and
  // how to adopt on disk instead.
  static Status CheckRoom(uint64_t cost, const std::string& what);

 private:
  struct Node;
  class File;
  class Writer;

  // Requires mu_ (shared). The node at `path`, or null.
  const std::shared_ptr<Node>* FindLocked(const std::string& path) const;
  // Requires mu_ (shared): true when `path` exists above or below.
  bool ExistsLocked(const std::string& path);
  Status RequireParentLocked(const std::string& path);
  Status RenameImpl(const std::string& from, const std::string& to, bool replace);
  Result<FileStat> StatImpl(const std::string& path, bool identity);
  // Requires mu_ (exclusive): `path` holds `node` (replacing what it held), or holds
  // nothing; both keep the memory count.
  void PutLocked(const std::string& path, std::shared_ptr<Node> node);
  void EraseLocked(std::map<std::string, std::shared_ptr<Node>>::iterator it);
  // Requires mu_ (exclusive): a name was added to or removed from `dir`.
  void DirChangedLocked(const std::string& dir);
  // Adds `delta` (may be negative) to this overlay's count and the process's.
  void Charge(int64_t delta);

  Fs& lower_;
  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<Node>> nodes_;
  // Names added to or removed from each directory (above or below) through the overlay:
  // added to the mtime its Stat reports, as a directory's mtime changes with its
  // entries, so that what is kept by a directory's identity (tables, listings) sees them.
  // Not counted against the memory limit: one entry per directory a node was ever put in
  // (a read-only repository's overlay grows by adoptions and seldom removes).
  std::map<std::string, uint64_t> dir_changes_;
  std::atomic<bool> empty_{true};  // no node yet: every call goes straight below
  uint64_t next_inode_ = 1;        // guarded by mu_
  std::atomic<uint64_t> used_{0};  // bytes counted: each path, each node and its bytes
};

}  // namespace folio::storage
