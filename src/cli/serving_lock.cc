// The serving mark; see serving_lock.h.
#include "cli/serving_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "folio/store.h"

namespace folio::cli {
namespace {

std::string MarkPath(const std::string& data_dir) { return data_dir + "/" + ServingMarkFile(false); }

// Opens what a lock is taken on: a file that must exist, or the directory itself.
int OpenExisting(const std::string& path, bool directory) {
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (directory ? O_DIRECTORY : 0));
}

// True if some process holds a lock on the file or directory (a probe: an
// exclusive lock taken and dropped at once, never waiting).
bool Held(const std::string& path, bool directory) {
  const int fd = OpenExisting(path, directory);
  if (fd < 0) return false;  // no file: no server ever marked it, or it was removed
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // drops the probe's lock, if it got one
  return held;
}

// Takes the shared lock on `fd`, open on `path`; closes it on failure.
Status LockShared(int fd, const std::string& path) {
  if (::flock(fd, LOCK_SH) != 0) {
    const int e = errno;
    ::close(fd);
    return StorageError("cannot lock '" + path + "': " + ::strerror(e));
  }
  return OkStatus();
}

}  // namespace

Result<std::unique_ptr<ServingMark>> ServingMark::Hold(const std::string& data_dir, bool read_only) {
  if (!read_only) {
    const std::string path = MarkPath(data_dir);
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      FOLIO_RETURN_IF_ERROR(LockShared(fd, path));
      return std::unique_ptr<ServingMark>(new ServingMark(fd));
    }
    // A directory this process cannot write (a read-only mount, files it does not own)
    // is served for reading: marked as a read-only server marks it.
    if (errno != EROFS && errno != EACCES && errno != EPERM) {
      return StorageError("cannot create '" + path + "': " + ::strerror(errno));
    }
  }
  // The data directory itself: it exists, and a lock needs no write access.
  const int fd = OpenExisting(data_dir, true);
  if (fd < 0) return StorageError("cannot open '" + data_dir + "': " + ::strerror(errno));
  FOLIO_RETURN_IF_ERROR(LockShared(fd, data_dir));
  return std::unique_ptr<ServingMark>(new ServingMark(fd));
}

ServingMark::~ServingMark() {
  if (fd_ >= 0) ::close(fd_);
}

Serving ServingNow(const std::string& data_dir) {
  if (Held(MarkPath(data_dir), false)) return Serving::kReadWrite;
  // A server of a version that marked --read-only with a file of its own.
  if (Held(data_dir + "/" + ServingMarkFile(true), false)) return Serving::kReadOnly;
  if (Held(data_dir, true)) return Serving::kReadOnly;
  return Serving::kNone;
}

Status CheckNotServed(const std::string& data_dir, bool writes, bool override_flag) {
  if (override_flag) return OkStatus();
  const Serving serving = ServingNow(data_dir);
  if (serving == Serving::kNone || (serving == Serving::kReadOnly && !writes)) return OkStatus();
  const std::string who = serving == Serving::kReadWrite ? "a folio serve" : "a folio serve --read-only";
  return Constraint("'" + data_dir + "' is served by " + who + " now: stop it first, or pass --while-serving to " +
                    (writes ? "write beside it (each change is atomic and "
                              "serialised with the server's; "
                              "its clients see the import arrive folder by folder)"
                            : "read beside it (documents changed meanwhile are "
                              "exported as they were when read)"));
}

}  // namespace folio::cli
