// Whether a `folio serve` holds a data directory. The engine's per-repository
// lock is taken only while a change is written, so it cannot tell; instead
// every server holds a shared flock on .folio/serving (.folio/serving-read-only
// when --read-only) for its whole life, which a tool probes without blocking.
// The lock dies with the process, so a killed server never leaves a stale mark.
#pragma once

#include <memory>
#include <string>

#include "folio/status.h"

namespace folio::cli {

// Held by a server for its life; released when destroyed (or the process ends).
class ServingMark {
 public:
  // Takes the shared lock on `data_dir`'s serving lock file (created if missing; on a
  // read-only filesystem an existing one is locked, and a missing one is no mark at
  // all). Errors: kStorage naming the file when it cannot be created or locked.
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
