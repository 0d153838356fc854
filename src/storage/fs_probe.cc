// ProbeFilesystem: each call tried once on scratch files (storage/fs_probe.h).
#include "storage/fs_probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "storage/atomic_write.h"
#include "storage/racy_window.h"
#include "storage/posix_files.h"

namespace folio::storage {
namespace {

struct Named {
  const char* name;
  bool FsFeatures::*flag;
};
constexpr Named kFeatures[] = {
    {"rename_noreplace", &FsFeatures::rename_noreplace}, {"rename_exchange", &FsFeatures::rename_exchange},
    {"openat2", &FsFeatures::openat2},                   {"flock", &FsFeatures::flock},
    {"ofd_locks", &FsFeatures::ofd_locks},               {"hard_links", &FsFeatures::hard_links},
    {"fine_timestamps", &FsFeatures::fine_timestamps},   {"dir_fsync", &FsFeatures::dir_fsync},
    {"tmpfile", &FsFeatures::tmpfile},
};

std::string Why(const char* call, int err) { return std::string(call) + " (" + std::strerror(err) + ")"; }

// The kind of filesystem holding `path`: the mount with the longest mount point above
// it in /proc/self/mountinfo ("fuse.mfs", "nfs4", ...); "" when not found.
std::string FilesystemType(const std::string& path) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line, best_type;
  size_t best = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, dev, root, point, skip;
    fields >> id >> parent >> dev >> root >> point;
    // Optional fields end with "-"; the type follows.
    while (fields >> skip && skip != "-") {
    }
    std::string type;
    fields >> type;
    // Mount points escape spaces and such as \040: not worth decoding for a label.
    const bool above = path == point || point == "/" ||
                       (path.compare(0, point.size(), point) == 0 && path.size() > point.size() && path[point.size()] == '/');
    if (above && point.size() >= best) {
      best = point.size();
      best_type = type;
    }
  }
  return best_type;
}

// Tries every call in the directory `dir` (an absolute path, made for the probe).
void ProbeIn(const std::string& dir, FsProbe& out) {
  FsFeatures& f = out.features;
  const Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.get() < 0) {
    out.missing.push_back(Why("open of a directory", errno));
    return;
  }
  auto make = [&](const char* name, const char* bytes) {
    Fd fd(::openat(d.get(), name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (fd.get() < 0) return errno;
    const size_t n = std::strlen(bytes);
    if (::write(fd.get(), bytes, n) != static_cast<ssize_t>(n)) return errno == 0 ? EIO : errno;
    if (::fsync(fd.get()) != 0) return errno;
    return 0;
  };
  if (int err = make("a", "a"); err != 0) {
    out.missing.push_back(Why("creating and syncing a file", err));
    return;
  }
  if (int err = make("b", "b"); err != 0) {
    out.missing.push_back(Why("creating and syncing a file", err));
    return;
  }
  // A plain rename over an existing file: every write of a record.
  if (::renameat(d.get(), "b", d.get(), "a") != 0) out.missing.push_back(Why("rename over a file", errno));
  (void)make("b", "b");
  // RENAME_NOREPLACE must refuse the taken name and move to a free one.
  f.rename_noreplace = ::renameat2(d.get(), "a", d.get(), "b", RENAME_NOREPLACE) != 0 && errno == EEXIST &&
                       ::renameat2(d.get(), "a", d.get(), "c", RENAME_NOREPLACE) == 0 &&
                       ::renameat(d.get(), "c", d.get(), "a") == 0;
  f.rename_exchange = ::renameat2(d.get(), "a", d.get(), "b", RENAME_EXCHANGE) == 0;
  f.hard_links = ::linkat(d.get(), "a", d.get(), "l", 0) == 0 && ::unlinkat(d.get(), "l", 0) == 0;
  {
    struct open_how how {};
    how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = ::syscall(SYS_openat2, d.get(), "a", &how, sizeof(how));
    f.openat2 = fd >= 0;
    if (fd >= 0) ::close(static_cast<int>(fd));
  }
  {
    Fd fd(::openat(d.get(), ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, 0600));
    f.tmpfile = fd.get() >= 0;
  }
  {
    // flock, on a file and on a directory (RenameNoReplace's fallback locks one); a
    // second open file must then be refused.
    Fd file(::openat(d.get(), "a", O_RDWR | O_CLOEXEC));
    Fd again(::openat(d.get(), "a", O_RDWR | O_CLOEXEC));
    Fd dir_again(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    f.flock = file.get() >= 0 && again.get() >= 0 && dir_again.get() >= 0 && ::flock(file.get(), LOCK_EX | LOCK_NB) == 0 &&
              ::flock(again.get(), LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK &&
              ::flock(d.get(), LOCK_EX | LOCK_NB) == 0 && ::flock(dir_again.get(), LOCK_SH | LOCK_NB) != 0 &&
              ::flock(d.get(), LOCK_UN) == 0 && ::flock(file.get(), LOCK_UN) == 0;
    struct flock whole {};
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    struct flock second = whole;
    f.ofd_locks = file.get() >= 0 && again.get() >= 0 && ::fcntl(file.get(), F_OFD_SETLK, &whole) == 0 &&
                  ::fcntl(again.get(), F_OFD_SETLK, &second) != 0 && (errno == EAGAIN || errno == EACCES);
  }
  f.dir_fsync = ::fsync(d.get()) == 0;
  // Timestamps: sub-second on any of a few files written apart (one could fall on a
  // whole second by chance).
  f.fine_timestamps = false;
  for (int i = 0; i < 3 && !f.fine_timestamps; ++i) {
    const std::string name = "t" + std::to_string(i);
    if (make(name.c_str(), "t") != 0) break;
    struct stat st;
    if (::fstatat(d.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) break;
    f.fine_timestamps = st.st_mtim.tv_nsec != 0 || st.st_ctim.tv_nsec != 0;
    ::usleep(1000);
  }
  if (!f.flock && !f.ofd_locks) out.missing.push_back("locks: neither flock nor open file description locks work");
  if (!f.rename_noreplace && !f.hard_links && !f.flock) {
    out.missing.push_back("a rename that never replaces: no RENAME_NOREPLACE, no hard links and no flock");
  }
}

// The lines of ProbedChoices, by root.
struct Remembered {
  std::mutex mu;
  std::map<std::string, std::string> lines;
};
Remembered& RememberedChoices() {
  static Remembered* r = new Remembered;  // never destroyed: read until exit
  return *r;
}

// Removes the directory `dir` and the files in it (the probe makes no deeper ones).
void RemoveScratch(const std::string& dir) {
  const Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.get() >= 0) {
    for (const char* name : {"a", "b", "c", "l", "t0", "t1", "t2"}) (void)::unlinkat(d.get(), name, 0);
  }
  (void)::rmdir(dir.c_str());
}

}  // namespace

bool SeesWholeSecondTimestamps(const std::string& root) {
  const Fd d(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.get() < 0) return false;
  auto whole = [](const struct stat& st) { return st.st_mtim.tv_nsec == 0 && st.st_ctim.tv_nsec == 0; };
  struct stat st;
  if (::fstat(d.get(), &st) != 0 || !whole(st)) return false;
  DIR* dir = ::fdopendir(::dup(d.get()));
  if (dir == nullptr) return false;
  bool all_whole = true;
  int seen = 0;
  while (struct dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!whole(st)) {
      all_whole = false;
      break;
    }
    if (++seen >= 64) break;
  }
  ::closedir(dir);
  // The directory alone could fall on a whole second by chance (one in a billion).
  return all_whole && seen > 0;
}

void AdaptToFilesystem(const FsFeatures& features) {
  if (!features.fine_timestamps) WidenRacyWindow(1'000'000'000);
}

void AdaptWithoutProbing(const std::string& root) {
  if (!SeesWholeSecondTimestamps(root)) return;
  FsFeatures coarse;
  coarse.fine_timestamps = false;
  AdaptToFilesystem(coarse);
}

Result<FsFeatures> WithoutFeatures(FsFeatures features, const std::string& without) {
  size_t start = 0;
  while (start < without.size()) {
    size_t end = without.find(',', start);
    if (end == std::string::npos) end = without.size();
    const std::string name = without.substr(start, end - start);
    start = end + 1;
    if (name.empty()) continue;
    bool known = false;
    for (const Named& n : kFeatures) {
      if (name == "all" || name == n.name) {
        features.*n.flag = false;
        known = true;
      }
    }
    if (!known) return InvalidArgument("unknown filesystem feature '" + name + "' in FOLIO_FS_WITHOUT");
  }
  return features;
}

Result<FsProbe> ProbeFilesystem(const std::string& root) {
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) return Errno("open data directory", root, errno);
  const std::string root_path(real);
  ::free(real);
  const std::string dir = root_path + "/" + TempPathBeside("probe");
  if (::mkdir(dir.c_str(), 0700) != 0) return Errno("probe the filesystem of", root_path, errno);
  FsProbe out;
  out.type = FilesystemType(root_path);
  ProbeIn(dir, out);
  RemoveScratch(dir);
  auto remember = [&] {
    Remembered& r = RememberedChoices();
    std::lock_guard<std::mutex> lock(r.mu);
    r.lines[root] = DescribeChoices(out);
  };
  if (const char* without = std::getenv("FOLIO_FS_WITHOUT"); without != nullptr) {
    FOLIO_ASSIGN_OR_RETURN(out.features, WithoutFeatures(out.features, without));
    // Forced off, the fallbacks must still leave a way for each need.
    if (!out.features.flock && !out.features.ofd_locks) {
      out.missing.push_back("locks: neither flock nor open file description locks (FOLIO_FS_WITHOUT)");
    }
  }
  remember();
  return out;
}

std::string ProbedChoices(const std::string& root) {
  Remembered& r = RememberedChoices();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.lines.find(root);
  return it == r.lines.end() ? "" : it->second;
}

std::string DescribeChoices(const FsProbe& probe) {
  const FsFeatures& f = probe.features;
  std::string out = "filesystem " + (probe.type.empty() ? std::string("(unknown)") : probe.type) + ": ";
  if (f.rename_noreplace) {
    out += "new names by RENAME_NOREPLACE";
  } else if (f.hard_links) {
    out += "new names by link then unlink (files) and a flock-guarded rename (directories), no RENAME_NOREPLACE";
  } else {
    out += "new names by a flock-guarded rename, no RENAME_NOREPLACE nor hard links";
  }
  if (f.rename_exchange && f.fine_timestamps) {
    out += "; spare files swapped in by RENAME_EXCHANGE";
  } else {
    out += std::string("; no spare files (") + (f.rename_exchange ? "whole-second timestamps" : "no RENAME_EXCHANGE") + ")";
  }
  out += f.openat2 ? "; paths confined by openat2" : "; paths confined by a walk with O_NOFOLLOW (no openat2)";
  out += f.flock ? "; flock locks" : "; open file description locks (no flock)";
  out += f.dir_fsync ? "; directories fsync'ed" : "; syncfs for directories (no directory fsync)";
  if (!f.fine_timestamps) out += "; whole-second timestamps";
  if (!f.tmpfile) out += "; no O_TMPFILE (not needed)";
  return out;
}

Status RequireUsable(const FsProbe& probe, const std::string& root) {
  if (probe.missing.empty()) return OkStatus();
  std::string list;
  for (const std::string& m : probe.missing) list += (list.empty() ? "" : "; ") + m;
  return StorageError("the filesystem of '" + root + "' (" + (probe.type.empty() ? "unknown" : probe.type) +
                      ") lacks what Folio needs to keep its data safe: " + list +
                      ". Serve it from another filesystem (docs/DEPLOY.md lists those Folio runs on), or with --read-only.");
}

}  // namespace folio::storage
