// PosixFs: the only code that touches the disk. Every path is resolved beneath the
// root directory descriptor with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), so a
// symlink or a '..' can never lead outside the data directory.
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "folio/fs.h"

namespace folio {
namespace {

Status Errno(const std::string& what, const std::string& path, int err) {
  return StorageError("cannot " + what + " '" + path + "': " + std::strerror(err),
                      static_cast<std::errc>(err));
}

// '/'-separated, relative, no empty, '.' or '..' segments, no NUL. "" is the root.
Status ValidatePath(const std::string& path) {
  if (path.empty()) return OkStatus();
  if (path.find('\0') != std::string::npos) return InvalidArgument("path contains NUL");
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string_view seg(path.data() + start, end - start);
    if (seg.empty() || seg == "." || seg == "..") {
      return InvalidArgument("invalid storage path '" + path + "'");
    }
    start = end + 1;
  }
  return OkStatus();
}

std::pair<std::string, std::string> SplitParent(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {"", path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

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
  return out;
}

class PosixReadableFile : public ReadableFile {
 public:
  PosixReadableFile(Fd fd, uint64_t size, std::string path)
      : fd_(std::move(fd)), size_(size), path_(std::move(path)) {}
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
  uint64_t size() const override { return size_; }
  Result<FileStat> Stat() const override {
    struct stat st;
    if (::fstat(fd_.get(), &st) != 0) return Errno("stat", path_, errno);
    return ToFileStat(st);
  }
  int fd() const { return fd_.get(); }

 private:
  Fd fd_;
  uint64_t size_;
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
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
        name.find('\0') != std::string::npos) {
      return InvalidArgument("invalid storage path '" + Shown(name) + "'");
    }
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
    return OkStatus();
  }

 private:
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

class PosixFs : public Fs {
 public:
  PosixFs(Fd root, std::string root_path, PosixFsOptions options)
      : root_(std::move(root)), root_path_(std::move(root_path)), options_(options) {}

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) override {
    // O_NONBLOCK: opening a FIFO someone put in the data directory must not block.
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(path, O_RDONLY | O_NONBLOCK, 0));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", path, errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    return std::unique_ptr<ReadableFile>(
        new PosixReadableFile(std::move(fd), static_cast<uint64_t>(st.st_size), path));
  }

  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(path, O_PATH | O_DIRECTORY, 0));
    return std::unique_ptr<Directory>(new PosixDirectory(std::move(fd), path));
  }

  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(path, O_WRONLY | O_CREAT | O_EXCL, 0644));
    return std::unique_ptr<WritableFile>(new PosixWritableFile(std::move(fd), path, options_.durable));
  }

  Status Rename(const std::string& from, const std::string& to) override {
    return RenameImpl(from, to, 0);
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    return RenameImpl(from, to, RENAME_NOREPLACE);
  }

  Status SyncDir(const std::string& dir) override {
    if (!options_.durable) return OkStatus();
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(dir, O_RDONLY | O_DIRECTORY, 0));
    if (::fsync(fd.get()) != 0) return Errno("sync directory", dir, errno);
    return OkStatus();
  }

  Result<std::vector<DirEntry>> List(const std::string& dir) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(dir, O_RDONLY | O_DIRECTORY, 0));
    int raw = fd.release();
    DIR* d = ::fdopendir(raw);
    if (d == nullptr) {
      int err = errno;
      ::close(raw);
      return Errno("list", dir, err);
    }
    std::vector<DirEntry> out;
    errno = 0;
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name(e->d_name);
      if (name == "." || name == "..") continue;
      DirEntry entry{std::string(name), FileType::kOther};
      switch (e->d_type) {
        case DT_REG: entry.type = FileType::kFile; break;
        case DT_DIR: entry.type = FileType::kDirectory; break;
        case DT_LNK: entry.type = FileType::kSymlink; break;
        case DT_UNKNOWN: {
          struct stat st;
          if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) entry.type = TypeOfMode(st.st_mode);
          break;
        }
        default: break;
      }
      out.push_back(std::move(entry));
      errno = 0;
    }
    int err = errno;
    ::closedir(d);
    if (err != 0) return Errno("list", dir, err);
    return out;
  }

  Status MakeDir(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return Errno("create directory", path, EEXIST);
    auto [parent, name] = SplitParent(path);
    FOLIO_ASSIGN_OR_RETURN(Fd dir, OpenBeneath(parent, O_PATH | O_DIRECTORY, 0));
    if (::mkdirat(dir.get(), name.c_str(), 0755) != 0) return Errno("create directory", path, errno);
    return OkStatus();
  }

  Status Remove(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return InvalidArgument("cannot remove the data directory itself");
    auto [parent, name] = SplitParent(path);
    FOLIO_ASSIGN_OR_RETURN(Fd dir, OpenBeneath(parent, O_PATH | O_DIRECTORY, 0));
    struct stat st;
    if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("remove", path, errno);
    int flags = S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0;
    if (::unlinkat(dir.get(), name.c_str(), flags) != 0) return Errno("remove", path, errno);
    return OkStatus();
  }

  Status RemoveTree(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return InvalidArgument("cannot remove the data directory itself");
    auto [parent, name] = SplitParent(path);
    auto dir = OpenBeneath(parent, O_PATH | O_DIRECTORY, 0);
    if (!dir.ok()) return dir.status().Is(std::errc::no_such_file_or_directory) ? OkStatus() : dir.status();
    return RemoveTreeAt(dir->get(), name, path);
  }

  Result<FileStat> Stat(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    struct stat st;
    if (path.empty()) {
      if (::fstat(root_.get(), &st) != 0) return Errno("stat", path, errno);
    } else {
      auto [parent, name] = SplitParent(path);
      FOLIO_ASSIGN_OR_RETURN(Fd dir, OpenBeneath(parent, O_PATH | O_DIRECTORY, 0));
      if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat", path, errno);
    }
    return ToFileStat(st);
  }

  Result<FileStat> IdentityStat(const std::string& path) override {
    // ValidatePath still holds (relative, no '..'); only a symlink on the way could
    // lead elsewhere, and then the identity differs from the remembered one.
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return Stat(path);
    struct stat st;
    if (::fstatat(root_.get(), path.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat", path, errno);
    return ToFileStat(st);
  }

  Result<std::unique_ptr<FileLock>> Lock(const std::string& path, LockMode mode) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(path, O_RDWR | O_CREAT, 0644));
    const int op = mode == LockMode::kShared ? LOCK_SH : LOCK_EX;
    while (::flock(fd.get(), op) != 0) {
      if (errno != EINTR) return Errno("lock", path, errno);
    }
    return std::unique_ptr<FileLock>(new PosixLock(std::move(fd)));
  }

  Status Link(const std::string& from, const std::string& to) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(from));
    FOLIO_RETURN_IF_ERROR(ValidatePath(to));
    if (from.empty() || to.empty()) return InvalidArgument("cannot link the data directory itself");
    auto [from_parent, from_name] = SplitParent(from);
    auto [to_parent, to_name] = SplitParent(to);
    FOLIO_ASSIGN_OR_RETURN(Fd a, OpenBeneath(from_parent, O_PATH | O_DIRECTORY, 0));
    FOLIO_ASSIGN_OR_RETURN(Fd b, OpenBeneath(to_parent, O_PATH | O_DIRECTORY, 0));
    // No AT_SYMLINK_FOLLOW: a symlink at `from` is linked as itself, never followed.
    if (::linkat(a.get(), from_name.c_str(), b.get(), to_name.c_str(), 0) != 0) {
      return Errno("link", from + "' to '" + to, errno);
    }
    return OkStatus();
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(path, O_RDWR | O_CREAT, 0644));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", path, errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    return std::unique_ptr<RandomAccessFile>(new PosixRandomAccessFile(std::move(fd), path, options_.durable));
  }

  Status SyncAll() override {
    if (!options_.durable) return OkStatus();
    // Not root_ itself: an O_PATH descriptor is refused by syncfs.
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath("", O_RDONLY | O_DIRECTORY, 0));
    if (::syncfs(fd.get()) != 0) return Errno("sync the filesystem of", root_path_, errno);
    return OkStatus();
  }

  std::string BootId() override {
    static const std::string kBootId = [] {
      std::string id;
      int fd = ::open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        char buf[64];
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) id.assign(buf, static_cast<size_t>(n));
        ::close(fd);
      }
      while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
      // Without /proc the boot cannot be told apart: "" makes every reader assume a
      // restart (the safe side: changes since the last checkpoint are re-applied).
      return id;
    }();
    return kBootId;
  }

  std::string Describe(const std::string& path) const override {
    return path.empty() ? root_path_ : root_path_ + "/" + path;
  }

 private:
  Result<Fd> OpenBeneath(const std::string& path, int flags, mode_t mode) {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    const char* p = path.empty() ? "." : path.c_str();
    struct open_how how {};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC | O_NOFOLLOW);
    if (flags & O_PATH) how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    for (;;) {
      if (no_openat2_.load(std::memory_order_relaxed)) return OpenByWalk(path, flags, mode);
      long fd = ::syscall(SYS_openat2, root_.get(), p, &how, sizeof(how));
      if (fd >= 0) return Fd(static_cast<int>(fd));
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ENOSYS) {
        no_openat2_.store(true, std::memory_order_relaxed);
        continue;
      }
      // ELOOP: a symlink on the way; EXDEV: an attempt to leave the root.
      if (errno == ELOOP || errno == EXDEV) return Errno("open", path, ELOOP);
      return Errno(flags & O_CREAT ? "create" : "open", path, errno);
    }
  }

  // Without openat2 (kernels before 5.6, valgrind): the same confinement by walking one
  // component at a time, each opened with O_NOFOLLOW beneath the previous one;
  // ValidatePath has already refused '.', '..' and empty segments.
  Result<Fd> OpenByWalk(const std::string& path, int flags, mode_t mode) {
    const int final_flags = flags | O_CLOEXEC | O_NOFOLLOW;
    if (path.empty()) {
      int fd = ::openat(root_.get(), ".", final_flags, mode);
      if (fd < 0) return Errno("open", path, errno);
      return Fd(fd);
    }
    Fd dir;  // the directory reached so far; root_ while empty
    size_t start = 0;
    for (;;) {
      const size_t slash = path.find('/', start);
      const bool last = slash == std::string::npos;
      const std::string seg = path.substr(start, last ? std::string::npos : slash - start);
      const int at = dir.get() >= 0 ? dir.get() : root_.get();
      const int seg_flags = last ? final_flags : (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int fd;
      do {
        fd = ::openat(at, seg.c_str(), seg_flags, last ? mode : 0);
      } while (fd < 0 && errno == EINTR);
      if (fd < 0) {
        int err = errno;
        struct stat st;
        if ((err == ENOTDIR || err == ELOOP) && ::fstatat(at, seg.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode)) {
          err = ELOOP;
        }
        if (err == ELOOP) return Errno("open", path, ELOOP);
        return Errno(flags & O_CREAT ? "create" : "open", path, err);
      }
      Fd next(fd);
      if (last) {
        // O_PATH with O_NOFOLLOW opens a final symlink itself instead of failing.
        struct stat st;
        if ((flags & O_PATH) && ::fstat(next.get(), &st) == 0 && S_ISLNK(st.st_mode)) {
          return Errno("open", path, ELOOP);
        }
        return next;
      }
      dir = std::move(next);
      start = slash + 1;
    }
  }

  Status RenameImpl(const std::string& from, const std::string& to, unsigned flags) {
    FOLIO_RETURN_IF_ERROR(ValidatePath(from));
    FOLIO_RETURN_IF_ERROR(ValidatePath(to));
    if (from.empty() || to.empty()) return InvalidArgument("cannot rename the data directory itself");
    auto [from_parent, from_name] = SplitParent(from);
    auto [to_parent, to_name] = SplitParent(to);
    FOLIO_ASSIGN_OR_RETURN(Fd a, OpenBeneath(from_parent, O_PATH | O_DIRECTORY, 0));
    FOLIO_ASSIGN_OR_RETURN(Fd b, OpenBeneath(to_parent, O_PATH | O_DIRECTORY, 0));
    if (::renameat2(a.get(), from_name.c_str(), b.get(), to_name.c_str(), flags) != 0) {
      return Errno("rename", from + "' to '" + to, errno);
    }
    return OkStatus();
  }

  Status RemoveTreeAt(int parent_fd, const std::string& name, const std::string& shown) {
    struct stat st;
    if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return errno == ENOENT ? OkStatus() : Errno("remove", shown, errno);
    }
    if (S_ISDIR(st.st_mode)) {
      int raw = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (raw < 0) return Errno("open", shown, errno);
      DIR* d = ::fdopendir(raw);
      if (d == nullptr) { int err = errno; ::close(raw); return Errno("list", shown, err); }
      std::vector<std::string> children;
      while (struct dirent* e = ::readdir(d)) {
        std::string_view n(e->d_name);
        if (n != "." && n != "..") children.emplace_back(n);
      }
      Status s;
      for (const std::string& child : children) {
        s = RemoveTreeAt(::dirfd(d), child, shown + "/" + child);
        if (!s.ok()) break;
      }
      ::closedir(d);
      FOLIO_RETURN_IF_ERROR(s);
      if (::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) return Errno("remove", shown, errno);
      return OkStatus();
    }
    if (::unlinkat(parent_fd, name.c_str(), 0) != 0 && errno != ENOENT) return Errno("remove", shown, errno);
    return OkStatus();
  }

  Fd root_;
  std::string root_path_;
  PosixFsOptions options_;
  std::atomic<bool> no_openat2_{false};  // the kernel answered ENOSYS once
};

}  // namespace

Result<std::unique_ptr<Fs>> OpenPosixFs(const std::string& root, PosixFsOptions options) {
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) return Errno("open data directory", root, errno);
  std::string root_path(real);
  ::free(real);
  int fd = ::open(root_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("open data directory", root_path, errno);
  return std::unique_ptr<Fs>(new PosixFs(Fd(fd), root_path, options));
}

}  // namespace folio
