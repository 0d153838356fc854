// Host files for import and export; see host_files.h.
#include "cli/host_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "storage/datetime.h"

namespace folio::cli {

std::atomic<bool> g_stop_requested{false};

namespace {

Status Errno(const std::string& what, int e) { return StorageError(what + ": " + ::strerror(e)); }

int64_t MtimeNs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

FileStat ToFileStat(const struct stat& st) {
  FileStat f;
  f.type = S_ISREG(st.st_mode)   ? FileType::kFile
           : S_ISDIR(st.st_mode) ? FileType::kDirectory
           : S_ISLNK(st.st_mode) ? FileType::kSymlink
                                 : FileType::kOther;
  f.size = static_cast<uint64_t>(st.st_size);
  f.mtime_ns = MtimeNs(st);
  f.inode = st.st_ino;
  f.device = st.st_dev;
  return f;
}

std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

Status Walk(const std::string& root, const std::string& rel,
            const std::function<std::string(const std::string&)>& refuse, std::vector<TreeEntry>& entries,
            std::vector<LeftOut>& left_out) {
  const std::string dir_path = rel.empty() ? root : root + "/" + rel;
  DIR* dir = ::opendir(dir_path.c_str());
  if (dir == nullptr) return Errno("cannot read directory '" + dir_path + "'", errno);
  std::vector<std::string> names;
  while (const struct dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = Join(rel, name);
    struct stat st;
    if (::lstat((root + "/" + path).c_str(), &st) != 0) {
      if (errno == ENOENT) continue;  // removed while walked
      return Errno("cannot read '" + root + "/" + path + "'", errno);
    }
    if (S_ISLNK(st.st_mode)) {
      left_out.push_back({path, "a symbolic link (never followed)"});
      continue;
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      left_out.push_back({path, "not a regular file or directory"});
      continue;
    }
    if (std::string why = refuse(name); !why.empty()) {
      left_out.push_back({path, why});
      continue;
    }
    TreeEntry entry{path, S_ISDIR(st.st_mode), S_ISDIR(st.st_mode) ? 0 : static_cast<uint64_t>(st.st_size),
                    MtimeNs(st)};
    entries.push_back(entry);
    if (entry.directory) FOLIO_RETURN_IF_ERROR(Walk(root, path, refuse, entries, left_out));
  }
  return OkStatus();
}

void OnStopSignal(int) { g_stop_requested.store(true); }

}  // namespace

Status WalkTree(const std::string& root, const std::function<std::string(const std::string& name)>& refuse,
                std::vector<TreeEntry>& entries, std::vector<LeftOut>& left_out) {
  struct stat st;
  if (::stat(root.c_str(), &st) != 0) {
    if (errno == ENOENT) return ObjectNotFound("'" + root + "' does not exist");
    return Errno("cannot read '" + root + "'", errno);
  }
  if (!S_ISDIR(st.st_mode)) return InvalidArgument("'" + root + "' is not a directory");
  return Walk(root, "", refuse, entries, left_out);
}

Result<std::optional<FileStat>> HostStat(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::optional<FileStat>();
    return Errno("cannot read '" + path + "'", errno);
  }
  return std::optional<FileStat>(ToFileStat(st));
}

Status WriteFileReplacing(const std::string& dest, const std::string& temp_prefix,
                          const std::function<Result<int64_t>(int fd)>& fill) {
  static std::atomic<uint64_t> counter{0};
  const size_t slash = dest.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : dest.substr(0, slash);
  const std::string temp =
      dir + "/" + temp_prefix + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot write '" + dest + "'", errno);
  Result<int64_t> mtime = fill(fd);
  Status s = mtime.status();
  if (s.ok()) {
    const struct timespec times[2] = {{0, UTIME_OMIT}, {*mtime / 1000000000LL, *mtime % 1000000000LL}};
    if (::futimens(fd, times) != 0) s = Errno("cannot set the time of '" + dest + "'", errno);
  }
  if (::close(fd) != 0 && s.ok()) s = Errno("cannot write '" + dest + "'", errno);
  if (s.ok() && ::rename(temp.c_str(), dest.c_str()) != 0) s = Errno("cannot write '" + dest + "'", errno);
  if (!s.ok()) ::unlink(temp.c_str());
  return s;
}

namespace {

// Copies what `in` holds from its start into `fd`, replacing what `fd` held;
// returns the bytes copied.
Result<uint64_t> CopyAll(int in, int fd, const std::string& source) {
  if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0 || ::lseek(in, 0, SEEK_SET) != 0) {
    return Errno("cannot copy '" + source + "'", errno);
  }
  uint64_t copied = 0;
  bool kernel = true;
  char buf[64 * 1024];
  for (;;) {
    if (kernel) {
      const ssize_t n = ::copy_file_range(in, nullptr, fd, nullptr, 1 << 30, 0);
      if (n > 0) {
        copied += static_cast<uint64_t>(n);
        continue;
      }
      if (n == 0) break;
      if (errno == EINTR) continue;
      if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) {
        return Errno("cannot copy '" + source + "'", errno);
      }
      kernel = false;  // across filesystems on old kernels, or a filesystem without it
    }
    const ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("cannot read '" + source + "'", errno);
    if (n == 0) break;
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(fd, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return Errno("cannot copy '" + source + "'", errno);
      off += w;
    }
    copied += static_cast<uint64_t>(n);
  }
  return copied;
}

int64_t CtimeNs(const struct stat& st) {
  return static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
}

// The same file, unchanged: identity, size and both times.
bool SameState(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size && MtimeNs(a) == MtimeNs(b) &&
         CtimeNs(a) == CtimeNs(b);
}

// Waits until a write to a file last changed at `st` would move its times.
void WaitPastRacyTick(const struct stat& st) {
  const int64_t newest = std::max(MtimeNs(st), CtimeNs(st));
  while (storage::IsRacy(newest)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

}  // namespace

Result<std::optional<CopiedState>> CopyStable(const std::string& source, int fd, int tries, const CopyHook& hook) {
  struct Source {
    int fd = -1;
    ~Source() {
      if (fd >= 0) ::close(fd);
    }
  } in;
  for (int attempt = 1; attempt <= tries; ++attempt) {
    if (in.fd < 0) {
      in.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
      if (in.fd < 0) return Errno("cannot read '" + source + "'", errno);
    }
    struct stat before;
    if (::fstat(in.fd, &before) != 0) return Errno("cannot read '" + source + "'", errno);
    WaitPastRacyTick(before);
    FOLIO_ASSIGN_OR_RETURN(uint64_t copied, CopyAll(in.fd, fd, source));
    if (hook) hook(source, attempt);
    struct stat after, named;
    if (::fstat(in.fd, &after) != 0) return Errno("cannot read '" + source + "'", errno);
    const bool replaced = ::lstat(source.c_str(), &named) != 0 || !SameState(after, named);
    if (!replaced && SameState(before, after) && copied == static_cast<uint64_t>(before.st_size)) {
      return std::optional<CopiedState>(CopiedState{copied, MtimeNs(before)});
    }
    if (replaced) {
      // Replaced under its name (an editor's save): the next try copies the file
      // that is there then.
      ::close(in.fd);
      in.fd = -1;
    }
  }
  return std::optional<CopiedState>();
}

Status CopyBytes(ReadableFile& from, int fd, const std::string& what) {
  char buf[64 * 1024];
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(size_t n, from.Read(buf, sizeof buf));
    if (n == 0) return OkStatus();
    for (size_t off = 0; off < n;) {
      const ssize_t w = ::write(fd, buf + off, n - off);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return Errno("cannot write '" + what + "'", errno);
      off += static_cast<size_t>(w);
    }
  }
}

void RemoveStaleTemps(const std::string& dir, const std::string& temp_prefix) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> stale;
  while (const struct dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(temp_prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + temp_prefix.size(), nullptr, 10);
    // A live process's temp file is its business (another import running now).
    if (pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) continue;
    stale.push_back(name);
  }
  ::closedir(d);
  for (const std::string& name : stale) ::unlink((dir + "/" + name).c_str());
}

Status SyncFilesystem(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open '" + path + "'", errno);
  const int r = ::syncfs(fd);
  const int e = errno;
  ::close(fd);
  return r == 0 ? OkStatus() : Errno("cannot sync '" + path + "'", e);
}

Status MakeDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) == 0) return OkStatus();
  const int e = errno;
  if (e == EEXIST) {
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return OkStatus();
    return Constraint("'" + path + "' exists and is not a directory");
  }
  return Errno("cannot make directory '" + path + "'", e);
}

void InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace folio::cli
