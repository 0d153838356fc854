// The handles MemFs gives out (open files, directories, locks), and what they share
// with MemFs itself: errors as PosixFs words them, lookups, stat.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "folio/fs.h"
#include "storage/mem_fs_core.h"

namespace folio::storage::mem {

// "cannot <what> '<path>': <strerror(err)>" with cause() == err, as PosixFs says it.
Status Errno(const std::string& what, const std::string& path, int err);
// Require core.mu held. The inode `name` names in directory `dir` (0 if none); the
// stat of inode `ino` (the device is fixed).
uint64_t Child(const Core& core, uint64_t dir, const std::string& name);
FileStat StatOf(const Core& core, uint64_t ino);

// Handles on inode `ino` (a file, or a directory for NewDirectory), opened as `path`:
// each keeps the inode alive while open and fails with kStorage after a power loss.
// Require core->mu held.
std::unique_ptr<ReadableFile> NewReadableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path);
std::unique_ptr<WritableFile> NewWritableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path);
std::unique_ptr<RandomAccessFile> NewRandomAccessFile(std::shared_ptr<Core> core, uint64_t ino, std::string path);
std::unique_ptr<Directory> NewDirectory(std::shared_ptr<Core> core, uint64_t ino, std::string path);
// Locks `ino` (as flock would, one open file description per call), waiting on `lock`
// (held on core->mu) while a holder conflicts. kStorage if the power is lost meanwhile.
Result<std::unique_ptr<FileLock>> LockInode(std::shared_ptr<Core> core, uint64_t ino, std::string path,
                                            LockMode mode, std::unique_lock<std::mutex>& lock);

}  // namespace folio::storage::mem
