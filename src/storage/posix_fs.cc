// PosixFs: the only code that touches the disk. Every path is resolved beneath the
// root directory descriptor with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), so a
// symlink or a '..' can never lead outside the data directory. Its HoldDirectories()
// view (HeldPosixFs) resolves each directory that way once and keeps it open.
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "folio/fs.h"
#include "storage/fs_features.h"
#include "storage/layout.h"
#include "storage/posix_files.h"

namespace folio {
namespace {

using storage::Errno;
using storage::Fd;
using storage::ToFileStat;
using storage::TypeOfMode;

// The kernel answered ENOSYS to openat2 once (kernels before 5.6, valgrind).
std::atomic<bool> g_no_openat2{false};

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

// A directory descriptor for one call: opened for it (and closed after), or held by a
// HeldPosixFs (or the root) and only borrowed.
class DirRef {
 public:
  static DirRef Owned(Fd fd) {
    DirRef d;
    d.fd_ = fd.get();
    d.owned_ = std::move(fd);
    return d;
  }
  static DirRef Borrowed(int fd) {
    DirRef d;
    d.fd_ = fd;
    return d;
  }
  int get() const { return fd_; }

 private:
  Fd owned_;
  int fd_ = -1;
};

// Opens `rel` (validated; "" is `at` itself) beneath the directory `at`, never through
// a symlink; errors name `shown`, and say "create" when `flags` has O_CREAT or
// `creating` (a directory opened on the way to a file to create). `walk`: without
// openat2 (the filesystem's probe found none), by OpenByWalk.
Result<Fd> OpenBeneath(int at, const std::string& rel, const std::string& shown, int flags, mode_t mode,
                       bool creating, bool walk);

// Without openat2 (kernels before 5.6, valgrind): the same confinement by walking one
// component at a time, each opened with O_NOFOLLOW beneath the previous one;
// ValidatePath has already refused '.', '..' and empty segments.
Result<Fd> OpenByWalk(int at_root, const std::string& path, const std::string& shown, int flags, mode_t mode,
                      bool creating) {
  const int final_flags = flags | O_CLOEXEC | O_NOFOLLOW;
  if (path.empty()) {
    int fd = ::openat(at_root, ".", final_flags, mode);
    if (fd < 0) return Errno("open", shown, errno);
    return Fd(fd);
  }
  Fd dir;  // the directory reached so far; at_root while empty
  size_t start = 0;
  for (;;) {
    const size_t slash = path.find('/', start);
    const bool last = slash == std::string::npos;
    const std::string seg = path.substr(start, last ? std::string::npos : slash - start);
    const int at = dir.get() >= 0 ? dir.get() : at_root;
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
        // A final symlink opened (not as O_PATH) to be a directory is no directory, as
        // openat2 with O_NOFOLLOW says.
        if (last && (flags & O_DIRECTORY) && !(flags & O_PATH)) return Errno("open", shown, ENOTDIR);
        err = ELOOP;
      }
      if (err == ELOOP) return Errno("open", shown, ELOOP);
      return Errno((flags & O_CREAT) || creating ? "create" : "open", shown, err);
    }
    Fd next(fd);
    if (last) {
      // O_PATH with O_NOFOLLOW opens a final symlink itself instead of failing.
      struct stat st;
      if ((flags & O_PATH) && ::fstat(next.get(), &st) == 0 && S_ISLNK(st.st_mode)) {
        return Errno("open", shown, ELOOP);
      }
      return next;
    }
    dir = std::move(next);
    start = slash + 1;
  }
}

Result<Fd> OpenBeneath(int at, const std::string& rel, const std::string& shown, int flags, mode_t mode,
                       bool creating, bool walk) {
  const char* p = rel.empty() ? "." : rel.c_str();
  struct open_how how {};
  how.flags = static_cast<uint64_t>(flags | O_CLOEXEC | O_NOFOLLOW);
  if (flags & O_PATH) how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  for (;;) {
    if (walk || g_no_openat2.load(std::memory_order_relaxed)) return OpenByWalk(at, rel, shown, flags, mode, creating);
    long fd = ::syscall(SYS_openat2, at, p, &how, sizeof(how));
    if (fd >= 0) return Fd(static_cast<int>(fd));
    if (errno == EINTR || errno == EAGAIN) continue;
    if (errno == ENOSYS) {
      g_no_openat2.store(true, std::memory_order_relaxed);
      continue;
    }
    // A path longer than the kernel takes in one call (PATH_MAX): the objects' paths are
    // bounded (storage/name_rules.h), but a long domain and repository id come before
    // them. One component at a time, each name short.
    if (errno == ENAMETOOLONG) return OpenByWalk(at, rel, shown, flags, mode, creating);
    // ELOOP: a symlink on the way; EXDEV: an attempt to leave the root.
    if (errno == ELOOP || errno == EXDEV) return Errno("open", shown, ELOOP);
    return Errno((flags & O_CREAT) || creating ? "create" : "open", shown, errno);
  }
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

class PosixFs : public Fs {
 public:
  // `root` is owned by the PosixFs made by OpenPosixFs, borrowed by a HeldPosixFs.
  PosixFs(Fd owned_root, int root, std::string root_path, PosixFsOptions options, const FsFeatures& features)
      : owned_root_(std::move(owned_root)),
        root_(root),
        root_path_(std::move(root_path)),
        options_(options),
        features_(features) {}

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& path) override {
    // O_NONBLOCK: opening a FIFO someone put in the data directory must not block.
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(path, O_RDONLY | O_NONBLOCK, 0));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", path, errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    return storage::NewPosixReadableFile(std::move(fd), ToFileStat(st), path);
  }

  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(path, O_PATH | O_DIRECTORY, 0));
    return storage::NewPosixDirectory(std::move(fd), path);
  }

  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(path, O_WRONLY | O_CREAT | O_EXCL, 0644));
    return storage::NewPosixWritableFile(std::move(fd), path, options_.durable);
  }

  Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& path) override {
    // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of blocking.
    auto opened = OpenPath(path, O_WRONLY | O_NONBLOCK | O_NOCTTY, 0);
    if (!opened.ok() && opened.status().Is(std::errc::no_such_device_or_address)) {
      return Errno("open", path, EINVAL);
    }
    FOLIO_ASSIGN_OR_RETURN(Fd fd, std::move(opened));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", path, errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    return storage::NewPosixWritableFile(std::move(fd), path, options_.durable);
  }

  Status Rename(const std::string& from, const std::string& to) override {
    return RenameImpl(from, to, 0);
  }
  Status Exchange(const std::string& a, const std::string& b) override {
    // Exchange serves only to reuse inodes (storage/spare_pool.h), which a reader tells
    // apart by a ctime that moves: not with whole-second timestamps.
    if (!features_.rename_exchange || !features_.fine_timestamps) {
      FOLIO_RETURN_IF_ERROR(ValidatePath(a));
      FOLIO_RETURN_IF_ERROR(ValidatePath(b));
      if (a.empty() || b.empty()) return InvalidArgument("cannot rename the data directory itself");
      return Fs::Exchange(a, b);
    }
    return RenameImpl(a, b, RENAME_EXCHANGE);
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    if (features_.rename_noreplace) return RenameImpl(from, to, RENAME_NOREPLACE);
    return RenameNoReplaceFallback(from, to);
  }

  Status SyncDir(const std::string& dir) override {
    if (!options_.durable) return OkStatus();
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(dir, O_RDONLY | O_DIRECTORY, 0));
    // Without fsync of a directory, the whole filesystem (the names in `dir` with it).
    if (!features_.dir_fsync) {
      if (::syncfs(fd.get()) != 0) return Errno("sync the filesystem of", dir, errno);
      return OkStatus();
    }
    if (::fsync(fd.get()) != 0) return Errno("sync directory", dir, errno);
    return OkStatus();
  }

  Result<std::vector<DirEntry>> List(const std::string& dir) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(dir, O_RDONLY | O_DIRECTORY, 0));
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
    FOLIO_ASSIGN_OR_RETURN(DirRef dir, OpenDir(parent));
    if (::mkdirat(dir.get(), name.c_str(), 0755) != 0) return Errno("create directory", path, errno);
    return OkStatus();
  }

  Status Remove(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return InvalidArgument("cannot remove the data directory itself");
    auto [parent, name] = SplitParent(path);
    FOLIO_ASSIGN_OR_RETURN(DirRef dir, OpenDir(parent));
    struct stat st;
    if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("remove", path, errno);
    int flags = S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0;
    if (::unlinkat(dir.get(), name.c_str(), flags) != 0) return Errno("remove", path, errno);
    if (S_ISDIR(st.st_mode)) Forget(path);
    return OkStatus();
  }

  Status RemoveTree(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return InvalidArgument("cannot remove the data directory itself");
    auto [parent, name] = SplitParent(path);
    auto dir = OpenDir(parent);
    if (!dir.ok()) return dir.status().Is(std::errc::no_such_file_or_directory) ? OkStatus() : dir.status();
    Status s = RemoveTreeAt(dir->get(), name, path);
    Forget(path);  // what is gone, or half gone
    return s;
  }

  Result<FileStat> Stat(const std::string& path) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    struct stat st;
    if (path.empty()) {
      if (::fstat(root_, &st) != 0) return Errno("stat", path, errno);
    } else {
      auto [parent, name] = SplitParent(path);
      FOLIO_ASSIGN_OR_RETURN(DirRef dir, OpenDir(parent));
      if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat", path, errno);
    }
    return ToFileStat(st);
  }

  Result<FileStat> IdentityStat(const std::string& path) override {
    // ValidatePath still holds (relative, no '..'); only a symlink on the way could
    // lead elsewhere, and then the identity differs from the remembered one.
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    if (path.empty()) return Stat(path);
    auto [parent, name] = SplitParent(path);
    const int held = HeldDir(parent);
    struct stat st;
    const int r = held >= 0 ? ::fstatat(held, name.c_str(), &st, AT_SYMLINK_NOFOLLOW)
                            : ::fstatat(root_, path.c_str(), &st, AT_SYMLINK_NOFOLLOW);
    if (r != 0) return Errno("stat", path, errno);
    return ToFileStat(st);
  }

  Result<std::unique_ptr<FileLock>> Lock(const std::string& path, LockMode mode) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(path, O_RDWR | O_CREAT, 0644));
    FOLIO_RETURN_IF_ERROR(LockFd(fd.get(), mode == LockMode::kShared, path));
    return storage::NewPosixLock(std::move(fd));
  }

  Status Link(const std::string& from, const std::string& to) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(from));
    FOLIO_RETURN_IF_ERROR(ValidatePath(to));
    if (from.empty() || to.empty()) return InvalidArgument("cannot link the data directory itself");
    auto [from_parent, from_name] = SplitParent(from);
    auto [to_parent, to_name] = SplitParent(to);
    FOLIO_ASSIGN_OR_RETURN(DirRef a, OpenDir(from_parent));
    FOLIO_ASSIGN_OR_RETURN(DirRef b, OpenDir(to_parent));
    // No AT_SYMLINK_FOLLOW: a symlink at `from` is linked as itself, never followed.
    if (::linkat(a.get(), from_name.c_str(), b.get(), to_name.c_str(), 0) != 0) {
      return Errno("link", from + "' to '" + to, errno);
    }
    return OkStatus();
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& path) override {
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenPath(path, O_RDWR | O_CREAT, 0644));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Errno("stat", path, errno);
    if (!S_ISREG(st.st_mode)) return Errno("open", path, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    return storage::NewPosixRandomAccessFile(std::move(fd), path, options_.durable);
  }

  Status SyncAll() override {
    if (!options_.durable) return OkStatus();
    // Not root_ itself: an O_PATH descriptor is refused by syncfs.
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(root_, "", root_path_, O_RDONLY | O_DIRECTORY, 0, false, walk()));
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

  std::unique_ptr<Fs> HoldDirectories() override;

 protected:
  // The directory `dir` (validated; "" is the root), for *at calls on names in it.
  // Errors name `dir`.
  virtual Result<DirRef> OpenDir(const std::string& dir) {
    if (dir.empty()) return DirRef::Borrowed(root_);
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(root_, dir, dir, O_PATH | O_DIRECTORY, 0, false, walk()));
    return DirRef::Owned(std::move(fd));
  }
  // Opens `path` itself with `flags`. Errors name `path`.
  virtual Result<Fd> OpenPath(const std::string& path, int flags, mode_t mode) {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    return OpenBeneath(root_, path, path, flags, mode, false, walk());
  }
  // A descriptor of `dir` held open already, or -1.
  virtual int HeldDir(const std::string& /*dir*/) { return -1; }
  // `path` (and everything below it) is about to be renamed or removed.
  virtual void Forget(const std::string& /*path*/) {}

  int root() const { return root_; }
  bool walk() const { return !features_.openat2; }

 private:
  // Locks the open file `fd` (shared or exclusive), waiting for conflicting holders:
  // flock, or where the filesystem has none, an open file description lock on the
  // whole file (both belong to the open file, both end with its last descriptor).
  Status LockFd(int fd, bool shared, const std::string& path) {
    if (features_.flock) {
      while (::flock(fd, shared ? LOCK_SH : LOCK_EX) != 0) {
        if (errno != EINTR) return Errno("lock", path, errno);
      }
      return OkStatus();
    }
    struct flock whole {};
    whole.l_type = shared ? F_RDLCK : F_WRLCK;
    whole.l_whence = SEEK_SET;  // l_start 0, l_len 0: the whole file, however long
    while (::fcntl(fd, F_OFD_SETLKW, &whole) != 0) {
      if (errno != EINTR) return Errno("lock", path, errno);
    }
    return OkStatus();
  }

  // The directories of `from` and `to` (validated; neither the root itself) for one
  // rename: a temp file renamed over its target (every write) stays in one directory,
  // resolved once.
  struct RenameDirs {
    std::string to_parent, from_name, to_name;
    DirRef a, other;
    int b() const { return other.get() >= 0 ? other.get() : a.get(); }
  };
  Result<RenameDirs> OpenRenameDirs(const std::string& from, const std::string& to) {
    FOLIO_RETURN_IF_ERROR(ValidatePath(from));
    FOLIO_RETURN_IF_ERROR(ValidatePath(to));
    if (from.empty() || to.empty()) return InvalidArgument("cannot rename the data directory itself");
    auto [from_parent, from_name] = SplitParent(from);
    auto [to_parent, to_name] = SplitParent(to);
    RenameDirs dirs{to_parent, from_name, to_name, DirRef(), DirRef()};
    FOLIO_ASSIGN_OR_RETURN(dirs.a, OpenDir(from_parent));
    if (to_parent != from_parent) {
      FOLIO_ASSIGN_OR_RETURN(dirs.other, OpenDir(to_parent));
    }
    return dirs;
  }

  // RenameNoReplace without RENAME_NOREPLACE. A file with hard links: linked under
  // `to` (which fails if `to` exists, atomically), then its name `from` removed; a
  // crash between leaves both names, and `from` is always a temporary or a file its
  // caller removes when it finds it again. A directory (or no hard links): renamed
  // while holding an exclusive flock of the directory of `to`, after checking that
  // `to` is free; every RenameNoReplace takes that lock, and the names Folio creates
  // otherwise (mkdir, O_EXCL) fail on a taken name by themselves. Without flock, a
  // directory is made at `to` (taking the name) and replaced by the rename: a crash
  // between leaves it empty, which a reader takes as an empty folder.
  Status RenameNoReplaceFallback(const std::string& from, const std::string& to) {
    FOLIO_ASSIGN_OR_RETURN(RenameDirs dirs, OpenRenameDirs(from, to));
    const std::string shown = from + "' to '" + to;
    const std::string& to_parent = dirs.to_parent;
    const std::string& from_name = dirs.from_name;
    const std::string& to_name = dirs.to_name;
    const DirRef& a = dirs.a;
    const int b = dirs.b();
    struct stat st;
    if (::fstatat(a.get(), from_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("rename", shown, errno);
    if (!S_ISDIR(st.st_mode) && features_.hard_links) {
      if (::linkat(a.get(), from_name.c_str(), b, to_name.c_str(), 0) != 0) return Errno("rename", shown, errno);
      if (::unlinkat(a.get(), from_name.c_str(), 0) != 0 && errno != ENOENT) {
        const int err = errno;
        (void)::unlinkat(b, to_name.c_str(), 0);  // back as it was: the one name `from`
        return Errno("rename", shown, err);
      }
      return OkStatus();
    }
    if (!features_.flock) {
      if (::mkdirat(b, to_name.c_str(), 0755) != 0) return Errno("rename", shown, errno);
      return RenameImpl(from, to, 0);
    }
    // The lock is taken on a descriptor of its own: flock on the O_PATH one is refused.
    FOLIO_ASSIGN_OR_RETURN(Fd guard, OpenPath(to_parent, O_RDONLY | O_DIRECTORY, 0));
    FOLIO_RETURN_IF_ERROR(LockFd(guard.get(), false, to_parent.empty() ? "." : to_parent));
    if (::fstatat(b, to_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return Errno("rename", shown, EEXIST);
    if (errno != ENOENT) return Errno("rename", shown, errno);
    return RenameImpl(from, to, 0);
  }

  Status RenameImpl(const std::string& from, const std::string& to, unsigned flags) {
    FOLIO_ASSIGN_OR_RETURN(RenameDirs dirs, OpenRenameDirs(from, to));
    const int r = ::renameat2(dirs.a.get(), dirs.from_name.c_str(), dirs.b(), dirs.to_name.c_str(), flags);
    const int err = errno;
    // A directory renamed, or replaced (an empty one), is no longer where it was held.
    // (Only now: `a` or `b` may be one of the held descriptors.)
    Forget(from);
    Forget(to);
    if (r != 0) return Errno(flags == RENAME_EXCHANGE ? "exchange" : "rename", from + "' to '" + to, err);
    return OkStatus();
  }

  Fd owned_root_;
  int root_;
  std::string root_path_;
  PosixFsOptions options_;
  FsFeatures features_;
};

// PosixFs::HoldDirectories(): the directories it resolves stay open (a few dozen at
// most, the least recently used let go first), each opened beneath the nearest one
// held (or the root) with the same openat2 confinement. Every call then costs one *at
// call on a single name below a held descriptor, as the kernel would resolve it.
class HeldPosixFs final : public PosixFs {
 public:
  HeldPosixFs(int root, std::string root_path, PosixFsOptions options, const FsFeatures& features)
      : PosixFs(Fd(), root, std::move(root_path), options, features) {}

  std::unique_ptr<Fs> HoldDirectories() override { return nullptr; }

 protected:
  Result<DirRef> OpenDir(const std::string& dir) override {
    if (dir.empty()) return DirRef::Borrowed(root());
    FOLIO_ASSIGN_OR_RETURN(int fd, Hold(dir, dir, false));
    return DirRef::Borrowed(fd);
  }

  Result<Fd> OpenPath(const std::string& path, int flags, mode_t mode) override {
    FOLIO_RETURN_IF_ERROR(ValidatePath(path));
    auto [parent, name] = SplitParent(path);
    if (parent.empty()) return OpenBeneath(root(), path, path, flags, mode, false, walk());
    FOLIO_ASSIGN_OR_RETURN(int dir, Hold(parent, path, (flags & O_CREAT) != 0));
    return OpenBeneath(dir, name, path, flags, mode, false, walk());
  }

  int HeldDir(const std::string& dir) override {
    if (dir.empty()) return root();
    for (Entry& e : held_) {
      if (e.path == dir) {
        e.used = ++clock_;
        return e.fd.get();
      }
    }
    return -1;
  }

  void Forget(const std::string& path) override {
    std::erase_if(held_, [&](const Entry& e) { return storage::IsAtOrBelow(e.path, path); });
  }

 private:
  static constexpr size_t kMaxHeld = 32;
  struct Entry {
    std::string path;
    Fd fd;
    uint64_t used = 0;
  };

  // The held descriptor of `dir` (not ""), opened beneath the nearest held directory
  // above it when not held yet. Errors are those of opening `dir` from the root,
  // naming `shown` (said as "create" when `creating`).
  Result<int> Hold(const std::string& dir, const std::string& shown, bool creating) {
    if (int fd = HeldDir(dir); fd >= 0) return fd;
    const Entry* above = nullptr;
    for (const Entry& e : held_) {
      if (dir != e.path && storage::IsAtOrBelow(dir, e.path) && (above == nullptr || e.path.size() > above->path.size())) {
        above = &e;
      }
    }
    const int at = above != nullptr ? above->fd.get() : root();
    const std::string rel = above != nullptr ? dir.substr(above->path.size() + 1) : dir;
    FOLIO_ASSIGN_OR_RETURN(Fd fd, OpenBeneath(at, rel, shown, O_PATH | O_DIRECTORY, 0, creating, walk()));
    if (held_.size() >= kMaxHeld) {
      auto lru = std::min_element(held_.begin(), held_.end(),
                                  [](const Entry& a, const Entry& b) { return a.used < b.used; });
      held_.erase(lru);
    }
    held_.push_back(Entry{dir, std::move(fd), ++clock_});
    return held_.back().fd.get();
  }

  std::vector<Entry> held_;
  uint64_t clock_ = 0;
};

std::unique_ptr<Fs> PosixFs::HoldDirectories() {
  return std::make_unique<HeldPosixFs>(root_, root_path_, options_, features_);
}

}  // namespace

Result<std::unique_ptr<Fs>> OpenPosixFs(const std::string& root, PosixFsOptions options) {
  return OpenPosixFs(root, options, FsFeatures{});
}

Result<std::unique_ptr<Fs>> OpenPosixFs(const std::string& root, PosixFsOptions options, const FsFeatures& features) {
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) return Errno("open data directory", root, errno);
  std::string root_path(real);
  ::free(real);
  int fd = ::open(root_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("open data directory", root_path, errno);
  return std::unique_ptr<Fs>(new PosixFs(Fd(fd), fd, root_path, options, features));
}

}  // namespace folio
