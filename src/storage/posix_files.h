// The open files PosixFs hands out (posix_fs.cc), and the small helpers both share.
// Private to storage: nothing outside PosixFs makes these.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <string>

#include "folio/fs.h"

namespace folio::storage {

// kStorage "cannot <what> '<path>': <strerror>", cause() = `err`.
Status Errno(const std::string& what, const std::string& path, int err);

// A file descriptor, closed on destruction.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) { Reset(); fd_ = o.fd_; o.fd_ = -1; }
    return *this;
  }
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  int release() { int f = fd_; fd_ = -1; return f; }
  void Reset() { if (fd_ >= 0) ::close(fd_); fd_ = -1; }

 private:
  int fd_;
};

FileType TypeOfMode(mode_t mode);
FileStat ToFileStat(const struct stat& st);

// `fd` open for reading a regular file, `opened` its fstat when opened; `path` names it
// in errors.
std::unique_ptr<ReadableFile> NewPosixReadableFile(Fd fd, const FileStat& opened, std::string path);
// `fd` open for writing; Sync does nothing unless `durable`.
std::unique_ptr<WritableFile> NewPosixWritableFile(Fd fd, std::string path, bool durable);
// `fd` a directory (O_PATH will do) whose files ReadFile opens beneath it.
std::unique_ptr<Directory> NewPosixDirectory(Fd fd, std::string path);
std::unique_ptr<RandomAccessFile> NewPosixRandomAccessFile(Fd fd, std::string path, bool durable);
// `fd` already flock'ed; unlocked and closed on destruction.
std::unique_ptr<FileLock> NewPosixLock(Fd fd);

}  // namespace folio::storage
