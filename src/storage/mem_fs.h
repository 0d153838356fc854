// MemFs: the whole Fs seam in memory, with a precise model of what a power loss keeps,
// so that tests can walk a crash through every step of an operation (as LevelDB's
// in-memory Env does). Also: importing a real directory into one, and dumping a tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "folio/fs.h"

namespace folio::storage {

namespace mem {
class Core;
}

// The two ways MemFs can lose power (see MemFs). Neither is how every filesystem
// behaves; a design that is correct under both is trusted.
enum class PowerLoss {
  // Object by object: only what each file's and directory's own sync made durable
  // survives. Pessimistic about data (ext4 data=writeback, XFS).
  kDropUnsynced,
  // Ordered metadata: every change is kept in the order it was made, up to a point
  // after the last sync. Realistic for journaling filesystems (ext4 data=journal).
  kKeepPrefix,
};

// A filesystem in memory with the contract of PosixFs (include/folio/fs.h), errors and
// cause() included, as tests/storage/fs_conformance_test.cc checks on both: paths are
// validated the same way; a symlink is never followed (ELOOP on the way or at the end,
// except SyncDir and List, which say ENOTDIR of a final one, as PosixFs does); a
// special file (a FIFO, a device) is refused by Open, OpenRandomAccess and
// Directory::ReadFile with EINVAL, and can be locked, linked, renamed and removed.
//
// Inodes: a directory maps names to inode numbers; a file holds bytes; a hard link is a
// second name of one inode. Inode numbers are never reused; the device is fixed; every
// change advances a fake clock (1 us per change, from 2023-11-14) that gives the mtime of
// what it changed, so an identity (device, inode, size, mtime) always differs after a
// change, and the ctime of every inode it changed, names included (a rename, an
// Exchange). A file removed while open stays readable through its open handles.
//
// Locks are in-process: Lock blocks while another lock holder conflicts, even in the
// same thread (each Lock is its own open file description, as with flock).
//
// POWER LOSS. Every change is remembered twice, once for each model:
//
// (a) DropUnsynced(): what a power loss does if each object is made durable only by its
//     own sync. Every file's content reverts to what it held at its last
//     WritableFile::Sync or RandomAccessFile::DataSync (empty if never synced); every
//     directory's entries revert to what they were at its last SyncDir (a directory
//     never synced has no durable entries, so it comes back empty); SyncAll makes
//     everything durable. A name in a durable directory brings back the inode it named
//     then, even if it was since removed or renamed; inodes no durable name reaches
//     vanish. Hard links are entries like any other. (A directory named by two durable
//     entries, possible when directories were moved and only some synced, is kept under
//     the first one found in breadth-first order, names in byte order.) This model exists
//     because it is the contract POSIX gives: a rename without SyncDir, or a new file
//     without Sync, may be lost whole; it is pessimistic about data.
//
// (b) KeepPrefix(n): an ordered-metadata filesystem (ext4 data=journal). Every change
//     (create, write, link, unlink, rename, mkdir; RemoveTree is one unlink per entry)
//     is recorded in order; any sync (WritableFile::Sync, DataSync, SyncDir, SyncAll)
//     is a barrier that makes every change before it durable. The power loss keeps the
//     state of the last barrier plus the first `n` changes recorded after it
//     (OpsSinceBarrier() of them exist), applied in order. This model exists because
//     journaling filesystems do not reorder: a test that tries every `n` proves a
//     design safe where (a) is too pessimistic to tell (a rename is never lost while a
//     later one survives).
//
// Either one: BootId() changes (and only then); every file, directory and lock opened
// before is dead (their calls fail with kStorage; a blocked Lock wakes and fails); the
// surviving state is then all durable.
//
// Thread-safe: one mutex guards everything; handles may outlive the MemFs.
class MemFs : public Fs {
 public:
  MemFs();  // an empty root directory, durable
  ~MemFs() override;
  MemFs(MemFs&&) noexcept;
  MemFs& operator=(MemFs&&) noexcept;

  // A deep copy of the contents and of what each model would keep (the recorded changes,
  // the durable state, the clock, the boot id); not the open files or locks, which
  // belong to processes. For reusing a prepared fixture across many test steps.
  MemFs Clone() const;

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) override;
  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status Exchange(const std::string& a, const std::string& b) override;
  Status RenameNoReplace(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& dir) override;
  Result<std::vector<DirEntry>> List(const std::string& dir) override;
  Status MakeDir(const std::string& path) override;
  Status Remove(const std::string& path) override;
  Status RemoveTree(const std::string& path) override;
  Result<FileStat> Stat(const std::string& path) override;
  // As Stat: unlike PosixFs (whose kernel follows a symlink before the final name),
  // a symlink on the way is ELOOP, which a caller treats as a mismatch all the same.
  Result<FileStat> IdentityStat(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> Lock(const std::string& path, LockMode mode = LockMode::kExclusive) override;
  Status Link(const std::string& from, const std::string& to) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& path) override;
  Status SyncAll() override;
  // "memfs-boot-N", N counting the power losses of this MemFs (and of what it was
  // cloned from).
  std::string BootId() override;
  // "memfs:/" + path.
  std::string Describe(const std::string& path) const override;

  // Plants a symlink (pointing at `target`, never followed) or a special file (as a
  // FIFO or device node would be) at `path`, for tests of what refuses them. Errors as
  // MakeDir. Each is a change like any other (durable once its directory is synced).
  Status MakeSymlinkForTest(const std::string& path, const std::string& target);
  Status MakeSpecialFileForTest(const std::string& path);
  // The number of names of the inode at `path` (FileStat::links). Errors as Stat.
  Result<uint32_t> LinkCount(const std::string& path);
  // Threads blocked in Lock right now (for tests that must act while one waits).
  size_t LockWaitersForTest() const;

  // Power loss, model (a) (see the class comment).
  void DropUnsynced();
  // Changes recorded since the last barrier: the valid `n` of KeepPrefix are 0..this.
  size_t OpsSinceBarrier() const;
  // Power loss, model (b), keeping the first `n` changes after the last barrier (all of
  // them if `n` is larger).
  void KeepPrefix(size_t n);
  // The power loss of `model`; `keep` is KeepPrefix's `n` (ignored by kDropUnsynced).
  void LosePower(PowerLoss model, size_t keep = SIZE_MAX);

 private:
  explicit MemFs(std::shared_ptr<mem::Core> core);
  Status RenameImpl(const std::string& from, const std::string& to, bool no_replace);
  Status MakeNode(const std::string& path, FileType type, const std::string& bytes);
  void RemoveTreeAt(uint64_t dir, const std::string& name);
  // The inode at `path` (not following a final symlink). Requires core_->mu held.
  Result<uint64_t> StatTargetLocked(const std::string& path);
  Result<uint64_t> OpenOrCreate(const std::vector<std::string>& segs, const std::string& path);

  std::shared_ptr<mem::Core> core_;
};

// Copies the real directory tree `host_dir` (directories, regular files, symlinks as
// symlinks, anything else as a special file) into `fs` under `into` (an existing
// directory), in byte order of names, then makes everything durable (SyncAll).
// Errors: kStorage naming the host path that could not be read; errors of `fs`.
Status ImportTree(MemFs& fs, const std::string& host_dir, const std::string& into = "");

// The tree below `path` of any Fs, one line per entry in byte order, depth first, for
// exact comparisons in tests and failure messages:
//   dir/                      a directory
//   dir/file = "bytes"        a file (C-style escapes; a long one shows 64 bytes and
//                             its size: = "abc..." (1000 bytes))
//   dir/link@                 a symlink
//   dir/fifo|                 any other kind of file
// An entry that cannot be read shows "!" and the error instead.
std::string DumpTree(Fs& fs, const std::string& path = "");

}  // namespace folio::storage
