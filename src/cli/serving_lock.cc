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

std::string LockPath(const std::string& data_dir, bool read_only) {
  return data_dir + "/" + ServingMarkFile(read_only);
}

// True if some process holds a lock on the file (a probe: an exclusive lock
// taken and dropped at once, never waiting).
bool Held(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;  // no file: no server ever marked it, or it was removed
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // drops the probe's lock, if it got one
  return held;
}

}  // namespace

Result<std::unique_ptr<ServingMark>> ServingMark::Hold(const std::string& data_dir, bool read_only) {
  const std::string path = LockPath(data_dir, read_only);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0 && (errno == EROFS || errno == EACCES)) {
    // A read-only filesystem (or directory): a lock needs no write access to an existing
    // file; without one there is nothing to mark, and nothing can import there either.
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return std::unique_ptr<ServingMark>(new ServingMark(-1));
  }
  if (fd < 0) return StorageError("cannot create '" + path + "': " + ::strerror(errno));
  if (::flock(fd, LOCK_SH) != 0) {
    const int e = errno;
    ::close(fd);
    return StorageError("cannot lock '" + path + "': " + ::strerror(e));
  }
  return std::unique_ptr<ServingMark>(new ServingMark(fd));
}

ServingMark::~ServingMark() {
  if (fd_ >= 0) ::close(fd_);
}

Serving ServingNow(const std::string& data_dir) {
  if (Held(LockPath(data_dir, false))) return Serving::kReadWrite;
  if (Held(LockPath(data_dir, true))) return Serving::kReadOnly;
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
