// Whether a `folio serve` holds a data directory. The engine's per-repository
// lock is taken only while a change is written, so it cannot tell; instead
// every server holds a shared flock for its whole life, which a tool probes
// without blocking: a read-write server on .folio/serving (which it creates), a
// --read-only one, or one that cannot write the directory, on the data directory
// itself (which exists: reads never write, docs/STORAGE.md §8.8). The lock dies
// with the process, so a killed server never leaves a stale mark.
#pragma once

#include <memory>
#include <string>

#include "folio/status.h"

namespace folio::cli {

// Held by a server for its life; released when destroyed (or the process ends).
class ServingMark {
 public:
  // Takes the shared lock: on `data_dir`'s .folio/serving (created if missing) for a
  // server that writes, on `data_dir` itself for a `read_only` one and for one that
  // may not create the file (EROFS, EACCES, EPERM). Creates nothing for those.
  // Errors: kStorage naming the file or directory when it cannot be opened or locked.
  static Result<std::unique_ptr<ServingMark>> Hold(const std::string& data_dir, bool read_only);
  ~ServingMark();
  ServingMark(const ServingMark&) = delete;
  ServingMark& operator=(const ServingMark&) = delete;

 private:
  explicit ServingMark(int fd) : fd_(fd) {}
  int fd_;
};

enum class Serving { kNone, kReadOnly, kReadWrite };

// Which servers hold `data_dir` now: kReadWrite if any read-write server does,
// else kReadOnly if a --read-only one does. Never blocks, never creates a file.
Serving ServingNow(const std::string& data_dir);

// OK if a tool that `writes` (import) or only reads (export) may work on
// `data_dir` now; `override_flag` (--while-serving) allows it anyway. A writer
// is refused by any server; a reader only by a read-write one (a read-only
// server changes nothing under it). Errors: kConstraint naming the directory,
// the kind of server and the way out.
Status CheckNotServed(const std::string& data_dir, bool writes, bool override_flag);

}  // namespace folio::cli
