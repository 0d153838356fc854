// The change log of a repository on disk (`.folio/changes/`, docs/STORAGE.md §8): every
// create, update, delete and ACL change as one JSON line, in token order, in segment
// files named after their first token. Written only by the Committer while it applies a
// commit-log record (so an event and its change are one atomic change), read by
// anyone.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "storage/change_set.h"

namespace folio::storage {

struct ChangeLogLimits {
  uint64_t max_events = 100000;  // older events are dropped past this many
  // Events per segment file, at most; also at most a quarter of max_events (retention
  // drops whole segments, so the log holds up to 1.25 x max_events).
  uint64_t segment_events = 4096;
};

// Told of the events an Append stored (never one stored before), in token order, on the
// appending thread while the log's lock is held: it must be quick, must not block and
// must not call the log.
using ChangeLogListener = std::function<void(const std::vector<ChangeEvent>& events)>;

class ChangeLogStore {
 public:
  ChangeLogStore(Fs& fs, std::string dir, ChangeLogLimits limits = {}, ChangeLogListener listener = {});

  // Appends the events whose token is greater than the last one stored, in order
  // (applying a record again appends nothing twice); drops the oldest segments past
  // the limit. Requires: the caller holds the repository's write lock. Errors: kStorage.
  Status Append(const std::vector<ChangeEvent>& events);
  // The newest token stored (0 for an empty log). Reads the disk (another process may
  // have appended).
  Result<uint64_t> LastToken();
  // The oldest token still kept (0 for an empty log).
  Result<uint64_t> FirstToken();
  // Up to `max` events with token >= `from`, in order. Errors: kStorage.
  Result<std::vector<ChangeEvent>> Read(uint64_t from, size_t max);
  // True once events have been dropped by the limit (CMIS changesIncomplete).
  Result<bool> Truncated();

 private:
  struct Segment {
    uint64_t first = 0;
    std::string name;
  };
  Result<std::vector<Segment>> Segments();
  // Up to `max` events of `s` with token >= `from`, in order. Starts at the segment's
  // read mark when it holds (below), else at the start; reads no further than needed.
  Result<std::vector<ChangeEvent>> ReadSegment(const Segment& s, uint64_t from, size_t max);
  // The last whole event of `s`, reading its end only.
  Result<std::optional<ChangeEvent>> LastEvent(const Segment& s);
  Status DropOldSegments();  // requires mu_

  // The last segment as this process last wrote it, trusted while its size is the
  // same (another process appending changes it): Append then reads nothing.
  struct Tail {
    std::string name;
    uint64_t size = 0;
    uint64_t count = 0;
    uint64_t last = 0;
  };

  // Where a read of a segment can start, so that a reader catching up (the query index,
  // contentChanges, the event stream) reads each line once instead of the whole segment
  // each time: `offset` ends the line `last_line` (its newline included), an event of
  // token `last_token`. It holds for any read from a token above `last_token` while the
  // segment is the same file (inode), at least `offset` bytes long, and holds
  // `last_line` just before `offset`: a segment's tokens increase line by line (Append),
  // so every event before that line is older still. Nothing is trusted otherwise: the
  // read starts at the beginning.
  struct ReadMark {
    uint64_t inode = 0;
    uint64_t device = 0;
    uint64_t offset = 0;
    uint64_t last_token = 0;
    std::string last_line;
  };

  Fs& fs_;
  std::string dir_;
  ChangeLogLimits limits_;
  ChangeLogListener listener_;
  std::mutex mu_;
  std::optional<Tail> tail_;
  std::mutex marks_mu_;
  std::map<std::string, ReadMark> marks_;  // by segment name; guarded by marks_mu_
};

}  // namespace folio::storage
