// The open files of PosixFs; see posix_files.h.
#include "storage/posix_files.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "storage/entry_name.h"

namespace folio::storage {
namespace {

class PosixReadableFile : public ReadableFile {
 public:
  PosixReadableFile(Fd fd, const FileStat& opened, std::string path)
      : fd_(std::move(fd)), opened_(opened), path_(std::move(path)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    for (;;) {
      ssize_t r = ::read(fd_.get(), buf, n);
      if (r >= 0) return static_cast<size_t>(r);
      if (errno != EINTR) return Errno("read", path_, errno);
    }
  }
  Status Seek(uint64_t offset) override {
    if (::lseek(fd_.get(), static_cast<off_t>(offset), SEEK_SET) < 0) return Errno("seek", path_, errno);
    return OkStatus();
  }
  uint64_t size() const override { return opened_.size; }
  Result<FileStat> Stat() const override {
    struct stat st;
    if (::fstat(fd_.get(), &st) != 0) return Errno("stat", path_, errno);
    return ToFileStat(st);
  }
  Result<FileStat> StatAtOpen() const override { return opened_; }
  int fd() const { return fd_.get(); }

 private:
  Fd fd_;
  FileStat opened_;
  std::string path_;
};

class PosixWritableFile : public WritableFile {
 public:
  PosixWritableFile(Fd fd, std::string path, bool durable)
      : fd_(std::move(fd)), path_(std::move(path)), durable_(durable) {}
  Status Append(std::string_view bytes) override {
    if (fd_.get() < 0) return StorageError("write to closed file '" + path_ + "'");
    while (!bytes.empty()) {
      ssize_t w = ::write(fd_.get(), bytes.data(), bytes.size());
      if (w < 0) {
        if (errno == EINTR) continue;
        return Errno("write", path_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(w));
    }
    return OkStatus();
  }
  Status AppendFrom(ReadableFile& src) override {
    auto* posix = dynamic_cast<PosixReadableFile*>(&src);
    if (posix == nullptr) return WritableFile::AppendFrom(src);
    if (CloneWhole(posix->fd())) return OkStatus();
    for (;;) {
      ssize_t n = ::copy_file_range(posix->fd(), nullptr, fd_.get(), nullptr, 1 << 30, 0);
      if (n == 0) return OkStatus();
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EXDEV || errno == EINVAL || errno == ENOSYS) return WritableFile::AppendFrom(src);
        return Errno("copy into", path_, errno);
      }
    }
  }
  // A whole file copied into this empty one by sharing its blocks (FICLONE: XFS, btrfs),
  // each file still its own, changed apart from the other. False when not done (the
  // filesystem cannot, or either file is not at its start): the caller copies.
  bool CloneWhole(int src_fd) {
    struct stat dst;
    if (::fstat(fd_.get(), &dst) != 0 || dst.st_size != 0) return false;
    if (::lseek(src_fd, 0, SEEK_CUR) != 0) return false;
    if (::ioctl(fd_.get(), FICLONE, src_fd) != 0) return false;
    // Both files where a copy would leave them: at their ends.
    return ::lseek(src_fd, 0, SEEK_END) >= 0 && ::lseek(fd_.get(), 0, SEEK_END) >= 0;
  }
  Status Sync() override {
    if (!durable_) return OkStatus();
    if (::fsync(fd_.get()) != 0) return Errno("sync", path_, errno);
    return OkStatus();
  }
  Status Close() override {
    if (fd_.get() < 0) return OkStatus();
    int fd = fd_.release();
    if (::close(fd) != 0) return Errno("close", path_, errno);
    return OkStatus();
  }
  Result<FileStat> Stat() const override {
    struct stat st;
    if (::fstat(fd_.get(), &st) != 0) return Errno("stat", path_, errno);
    return ToFileStat(st);
  }
  Status Truncate(uint64_t size) override {
    while (::ftruncate(fd_.get(), static_cast<off_t>(size)) != 0) {
      if (errno != EINTR) return Errno("truncate", path_, errno);
    }
    return OkStatus();
  }

 private:
  Fd fd_;
  std::string path_;
  bool durable_;
};

// A directory opened beneath the root (PosixFs::OpenDirectory); its files are opened
// with openat beneath it, one segment, O_NOFOLLOW: nothing can lead outside it.
class PosixDirectory : public Directory {
 public:
  PosixDirectory(Fd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
  Status ReadFile(const std::string& name, std::string& out) override {
    FOLIO_RETURN_IF_ERROR(EntryPath(path_, name).status());
    for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
      bool unchanged = false;
      FOLIO_RETURN_IF_ERROR(ReadOnce(name, out, unchanged));
      if (unchanged) return OkStatus();
    }
    return KeptChangingWhileRead(Shown(name));
  }
  Result<FileStat> IdentityStat(const std::string& name) override {
    FOLIO_RETURN_IF_ERROR(EntryPath(path_, name).status());
    struct stat st;
    if (::fstatat(fd_.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat", Shown(name), errno);
    return ToFileStat(st);
  }

 private:
  // One read of `name` into `out`; `unchanged`: its ctime did not move meanwhile.
  Status ReadOnce(const std::string& name, std::string& out, bool& unchanged) {
    int raw;
    do {
      raw = ::openat(fd_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    } while (raw < 0 && errno == EINTR);
    // ELOOP: the file is a symlink (reported as Fs::Open reports it).
    if (raw < 0) return Errno("open", Shown(name), errno);
    Fd fd(raw);
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", Shown(name), errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", Shown(name), S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    // One read normally does: one byte more than the size asks for, so that a short
    // read of the (regular) file is its end; a file that grew meanwhile is read on to
    // its end.
    out.resize(static_cast<size_t>(st.st_size) + 1);
    size_t have = 0;
    for (;;) {
      if (have == out.size()) out.resize(out.size() * 2 + 4096);
      const size_t want = out.size() - have;
      ssize_t n = ::read(fd.get(), out.data() + have, want);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno("read", Shown(name), errno);
      }
      have += static_cast<size_t>(n);
      if (n == 0 || static_cast<size_t>(n) < want) break;
    }
    out.resize(have);
    struct stat after;
    if (::fstat(fd.get(), &after) != 0) return Errno("stat", Shown(name), errno);
    unchanged = UnchangedWhileRead(ToFileStat(st), ToFileStat(after));
    return OkStatus();
  }

  std::string Shown(const std::string& name) const { return path_.empty() ? name : path_ + "/" + name; }

  Fd fd_;
  std::string path_;
};

class PosixRandomAccessFile : public RandomAccessFile {
 public:
  PosixRandomAccessFile(Fd fd, std::string path, bool durable)
      : fd_(std::move(fd)), path_(std::move(path)), durable_(durable) {}
  Result<size_t> ReadAt(uint64_t offset, char* buf, size_t n) override {
    size_t have = 0;
    while (have < n) {
      ssize_t r = ::pread(fd_.get(), buf + have, n - have, static_cast<off_t>(offset + have));
      if (r < 0) {
        if (errno == EINTR) continue;
        return Errno("read", path_, errno);
      }
      if (r == 0) break;
      have += static_cast<size_t>(r);
    }
    return have;
  }
  Status WriteAt(uint64_t offset, std::string_view bytes) override {
    while (!bytes.empty()) {
      ssize_t w = ::pwrite(fd_.get(), bytes.data(), bytes.size(), static_cast<off_t>(offset));
      if (w < 0) {
        if (errno == EINTR) continue;
        return Errno("write", path_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(w));
      offset += static_cast<uint64_t>(w);
    }
    return OkStatus();
  }
  Status DataSync() override {
    if (!durable_) return OkStatus();
    if (::fdatasync(fd_.get()) != 0) return Errno("sync", path_, errno);
    return OkStatus();
  }
  Result<uint64_t> Size() override {
    struct stat st;
    if (::fstat(fd_.get(), &st) != 0) return Errno("stat", path_, errno);
    return static_cast<uint64_t>(st.st_size);
  }

 private:
  Fd fd_;
  std::string path_;
  bool durable_;
};

class PosixLock : public FileLock {
 public:
  explicit PosixLock(Fd fd) : fd_(std::move(fd)) {}
  ~PosixLock() override { ::flock(fd_.get(), LOCK_UN); }

 private:
  Fd fd_;
};

}  // namespace

Status Errno(const std::string& what, const std::string& path, int err) {
  return StorageError("cannot " + what + " '" + path + "': " + std::strerror(err),
                      static_cast<std::errc>(err));
}

FileType TypeOfMode(mode_t mode) {
  if (S_ISREG(mode)) return FileType::kFile;
  if (S_ISDIR(mode)) return FileType::kDirectory;
  if (S_ISLNK(mode)) return FileType::kSymlink;
  return FileType::kOther;
}

FileStat ToFileStat(const struct stat& st) {
  FileStat out;
  out.type = TypeOfMode(st.st_mode);
  out.size = static_cast<uint64_t>(st.st_size);
  out.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  out.inode = st.st_ino;
  out.device = st.st_dev;
  out.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
  out.links = static_cast<uint32_t>(st.st_nlink);
  return out;
}

std::unique_ptr<ReadableFile> NewPosixReadableFile(Fd fd, const FileStat& opened, std::string path) {
  return std::make_unique<PosixReadableFile>(std::move(fd), opened, std::move(path));
}

std::unique_ptr<WritableFile> NewPosixWritableFile(Fd fd, std::string path, bool durable) {
  return std::make_unique<PosixWritableFile>(std::move(fd), std::move(path), durable);
}

std::unique_ptr<Directory> NewPosixDirectory(Fd fd, std::string path) {
  return std::make_unique<PosixDirectory>(std::move(fd), std::move(path));
}

std::unique_ptr<RandomAccessFile> NewPosixRandomAccessFile(Fd fd, std::string path, bool durable) {
  return std::make_unique<PosixRandomAccessFile>(std::move(fd), std::move(path), durable);
}

std::unique_ptr<FileLock> NewPosixLock(Fd fd) { return std::make_unique<PosixLock>(std::move(fd)); }

}  // namespace folio::storage
