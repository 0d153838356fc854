// Every filesystem call the engine makes goes through Fs, so that failures can be
// injected in tests (FaultyFs) and so that one class (PosixFs) is the only code that
// touches the disk and enforces "nothing outside the data directory".
//
// Paths are relative to the Fs root, '/'-separated, without '.', '..' or empty
// segments; "" is the root itself. PosixFs refuses anything else, and refuses to
// follow symbolic links anywhere in a path.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "folio/status.h"

namespace folio {

enum class FileType { kFile, kDirectory, kSymlink, kOther };

struct DirEntry {
  std::string name;
  FileType type = FileType::kOther;
};

struct FileStat {
  FileType type = FileType::kOther;
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // modification time, nanoseconds since the epoch
  uint64_t inode = 0;
  uint64_t device = 0;
  // Status change time, nanoseconds since the epoch: moved on by every change of the
  // file, of its bytes or of its names (a rename included). 0 when not known.
  int64_t ctime_ns = 0;
  uint32_t links = 0;  // names of the file; 0 when not known
};

// True when `a` and `b` are the same file (two names of one inode).
inline bool SameInode(const FileStat& a, const FileStat& b) { return a.inode == b.inode && a.device == b.device; }
// True when `a` and `b` are one file with the same size and modification time: as far
// as a stat tells, not written between them (what Folio's caches of files compare).
inline bool SameFileState(const FileStat& a, const FileStat& b) {
  return SameInode(a, b) && a.size == b.size && a.mtime_ns == b.mtime_ns;
}

class ReadableFile {
 public:
  virtual ~ReadableFile() = default;
  // Reads up to `n` bytes at the current position; returns 0 at end of file.
  virtual Result<size_t> Read(char* buf, size_t n) = 0;
  // Moves the read position to `offset` bytes from the start.
  virtual Status Seek(uint64_t offset) = 0;
  virtual uint64_t size() const = 0;
  // The identity of the open file itself (fstat), whatever its path names now.
  virtual Result<FileStat> Stat() const = 0;
  // The identity the file had when it was opened (PosixFs took it then: no system
  // call); the default is Stat().
  virtual Result<FileStat> StatAtOpen() const { return Stat(); }
};

// True unless two stats of one open file, taken before and after reading it, show a
// change in between (its ctime moved). A whole-file read of a record (ReadWholeRecord,
// Directory::ReadFile) checks this and reads again if not: once a record has left
// every name, Folio may reuse its inode for another file after a grace
// (storage/spare_pool.h), and a reader that opened it before would otherwise read the
// other file's bytes.
inline bool UnchangedWhileRead(const FileStat& before, const FileStat& after) {
  return before.ctime_ns == after.ctime_ns && before.size == after.size && SameInode(before, after);
}
// How often a whole-file read starts over because the file changed while it was read
// before it gives up (KeptChangingWhileRead).
inline constexpr int kReadAttempts = 8;

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(std::string_view bytes) = 0;
  // Appends everything `src` has left to read (PosixFs copies in the kernel).
  virtual Status AppendFrom(ReadableFile& src);
  virtual Status Sync() = 0;   // fsync: the bytes survive a power loss
  virtual Status Close() = 0;  // further calls fail; the destructor closes too
  // The identity of the open file (fstat). The default fails (operation_not_supported).
  virtual Result<FileStat> Stat() const;
  // Cuts the file to `size` bytes (ftruncate); the write position stays. The default
  // fails (operation_not_supported).
  virtual Status Truncate(uint64_t size);
};

// A lock on a file, held until destruction. Cross-process (flock) and cross-thread
// (each lock is its own open file description).
class FileLock {
 public:
  virtual ~FileLock() = default;
};

enum class LockMode {
  kExclusive,  // writers of a repository
  kShared,     // readers that must not see a change half-applied (fsck rechecking)
};

// A file read and written at offsets and made durable with one data sync: the
// repository's commit log (docs/STORAGE.md).
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to `n` bytes at `offset`; fewer only at the end of the file.
  virtual Result<size_t> ReadAt(uint64_t offset, char* buf, size_t n) = 0;
  // Writes all of `bytes` at `offset`, extending the file if needed.
  virtual Status WriteAt(uint64_t offset, std::string_view bytes) = 0;
  // fdatasync: the bytes written so far (and the size) survive a power loss.
  virtual Status DataSync() = 0;
  virtual Result<uint64_t> Size() = 0;
};

// A directory opened once, through the same confinement as any path, whose files can
// then be read by name without resolving the directory's path again: for reading many
// files of one directory (getAllVersions reads every version record of a series).
class Directory {
 public:
  virtual ~Directory() = default;
  // Replaces `out` with the whole content of the file `name` (one path segment; a
  // symlink is refused as Fs::Open refuses it), read again if it changed while read,
  // as ReadWholeRecord does. Errors name the file by its Fs path and give the same
  // cause() as Fs::Open and ReadableFile::Read would.
  virtual Status ReadFile(const std::string& name, std::string& out) = 0;
  // Fs::IdentityStat of the file `name` (one path segment) of this directory, with the
  // same use: validating what was read of it before. PosixFs: one fstatat beneath the
  // open directory, not following a symlink. Errors as Fs::IdentityStat (kInvalidArgument
  // for a name of more than one segment).
  virtual Result<FileStat> IdentityStat(const std::string& name) = 0;
};

class Fs {
 public:
  virtual ~Fs() = default;

  virtual Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) = 0;
  // The directory `path`, to read several of its files (see Directory). The default
  // reads each one through Open; PosixFs opens the directory once and each file
  // beneath it with openat.
  virtual Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& path);
  // Fails with cause() == std::errc::file_exists if `path` exists.
  virtual Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& path) = 0;
  // Opens the existing regular file `path` for writing from its first byte, its bytes
  // kept until written over (cut the rest with WritableFile::Truncate). Refuses a
  // symlink (ELOOP) and any other non-regular file (EINVAL). The default fails with
  // cause() == std::errc::operation_not_supported.
  virtual Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& path);
  // Atomically replaces `to` (file, or empty directory) with `from`.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Like Rename, but fails with cause() == std::errc::file_exists if `to` exists.
  virtual Status RenameNoReplace(const std::string& from, const std::string& to) = 0;
  // Atomically swaps what the names `a` and `b` refer to (renameat2 RENAME_EXCHANGE);
  // both must exist (no_such_file_or_directory otherwise). The default, and a
  // filesystem without the call, fail with cause() == operation_not_supported (or
  // invalid_argument, as Linux says it).
  virtual Status Exchange(const std::string& a, const std::string& b);
  virtual Status SyncDir(const std::string& dir) = 0;
  // Entries of `dir` except "." and "..", in no particular order.
  virtual Result<std::vector<DirEntry>> List(const std::string& dir) = 0;
  // Fails with cause() == std::errc::file_exists if `path` exists.
  virtual Status MakeDir(const std::string& path) = 0;
  // Removes a file or an empty directory; cause() == no_such_file_or_directory if missing.
  virtual Status Remove(const std::string& path) = 0;
  // Removes `path` and everything below it; OK if it does not exist.
  virtual Status RemoveTree(const std::string& path) = 0;
  // Does not follow a final symlink (reports kSymlink).
  virtual Result<FileStat> Stat(const std::string& path) = 0;
  // Only for validating a cache of a file read earlier through Open: the identity
  // (device, inode, size, mtime) of `path`, found with one system call and without the
  // confinement checks of Stat. A match with the remembered identity proves it is the
  // very file a confined call opened before; on any mismatch the caller must read it
  // again through Open. The default is Stat.
  virtual Result<FileStat> IdentityStat(const std::string& path) { return Stat(path); }
  // Creates `path` if needed and locks it (exclusively, or shared with other shared
  // holders), waiting for conflicting holders.
  virtual Result<std::unique_ptr<FileLock>> Lock(const std::string& path, LockMode mode = LockMode::kExclusive) = 0;
  // Makes `to` another name of the file `from` (a hard link: no byte is copied). Fails
  // with cause() == std::errc::file_exists if `to` exists.
  virtual Status Link(const std::string& from, const std::string& to) = 0;
  // Opens `path` for reading and writing at offsets, creating it (empty) if missing.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& path) = 0;
  // Makes every change made so far through this Fs durable, as a power loss would
  // otherwise lose it (syncfs): the checkpoint of the commit log.
  virtual Status SyncAll() = 0;
  // Changes when the machine restarts, and only then: changes applied to files but
  // not yet made durable are known to be intact while it stays the same (the kernel's
  // page cache is shared by every process), and may be lost once it differs.
  virtual std::string BootId() = 0;
  // The absolute host path of `path`, for messages and tools only.
  virtual std::string Describe(const std::string& path) const = 0;

  // A view of this Fs for one thread's run of related calls (the application of one
  // change, storage/change_set.h), which may keep the directories it resolves open
  // between its calls so that each is resolved once: PosixFs then makes one openat2
  // per directory (beneath the root, no symlinks, as always) and plain *at calls on one
  // name below it, instead of resolving every path from the root.
  // Paths, results and errors are those of this Fs. A directory the view renames or
  // removes is forgotten; one renamed meanwhile by someone else would be followed to
  // its new place, so use it only while nothing else renames or removes the
  // directories it touches (the Committer's exclusion). Not thread-safe (one per
  // thread); must not outlive this Fs. nullptr (the default): nothing to gain, use
  // this Fs itself.
  virtual std::unique_ptr<Fs> HoldDirectories() { return nullptr; }
};

// Convenience built on Fs.
// The bytes of the file at `path`. Errors: the Fs's; kStorage when the file holds more
// than `max_bytes` (only that many and one more are read).
Result<std::string> ReadWholeFile(Fs& fs, const std::string& path, uint64_t max_bytes = UINT64_MAX);
// As ReadWholeFile, for a file that is replaced whole and never written in place by
// Folio (a record): read again while the file changed during the read
// (UnchangedWhileRead), up to kReadAttempts times, then KeptChangingWhileRead. With
// `opened`, the identity of the file whose bytes are returned.
Result<std::string> ReadWholeRecord(Fs& fs, const std::string& path, uint64_t max_bytes = UINT64_MAX,
                                    FileStat* opened = nullptr);
// The error of a whole-file read given up after kReadAttempts reads that each saw the
// file change: kStorage, cause resource_unavailable_try_again.
Status KeptChangingWhileRead(const std::string& path);
bool Exists(Fs& fs, const std::string& path);
// True if the files at `a` and `b` hold the same bytes (read in chunks, never whole);
// nullopt if either cannot be read.
std::optional<bool> SameBytes(Fs& fs, const std::string& a, const std::string& b);

struct PosixFsOptions {
  // false skips fsync (Sync and SyncDir do nothing): only for building throw-away
  // fixtures fast (benchmarks); never for data a person keeps.
  bool durable = true;
};

// The real filesystem below `root` (which must exist and be a directory). Every path
// is resolved beneath `root` by the kernel (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS),
// so no path, however built, reaches outside it or through a symlink; its
// HoldDirectories() view resolves a directory the same way, once, and the names
// below it with *at calls on one segment (O_NOFOLLOW).
Result<std::unique_ptr<Fs>> OpenPosixFs(const std::string& root, PosixFsOptions options = {});

}  // namespace folio
