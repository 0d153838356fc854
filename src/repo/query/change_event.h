// The change events the query index consumes to stay in step with the repository: one
// per created, updated, deleted or re-secured object, in commit order, each with an
// increasing token (the repository's change log, docs/STORAGE.md §8.6). The index re-reads
// the object an event names through the public Repository API, so an event needs to say
// only *which* object changed, not how.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "folio/status.h"

namespace folio::query {

enum class ChangeType { kCreated, kUpdated, kDeleted, kSecurity };

struct ChangeEvent {
  uint64_t token = 0;   // increasing within one feed (see ChangeFeed::id)
  int64_t time_ms = 0;  // when the change was committed
  ChangeType type = ChangeType::kUpdated;
  std::string object_id;  // a folder, item, relationship, series, version or working copy id
  BaseType base = BaseType::kDocument;
};

// What ReadChanges answers.
struct ChangeBatch {
  std::vector<ChangeEvent> events;  // in token order, all > the token asked after
  // True when events after the token asked for are no longer kept (retention), or the
  // log is not the one the token came from: the reader must rebuild from a scan instead.
  bool gap = false;
};

// A source of change events: the repository's change log (change_log_feed.h), or a
// test's. Implementations must be thread-safe.
class ChangeFeed {
 public:
  virtual ~ChangeFeed() = default;
  // Names this log. A token stored by a reader is meaningful only with the same id: a
  // reader that finds another id rebuilds from a scan.
  virtual std::string id() const = 0;
  // A cheap fingerprint of the log as it is now: while it stays the same, no event was
  // added (a reader in step may skip ReadChanges). "" when the feed cannot tell: the
  // reader then always reads. Errors: kStorage.
  virtual Result<std::string> Fingerprint(Repository&) { return std::string(); }
  // The newest token (0 while the log is empty). Errors: kStorage.
  virtual Result<uint64_t> LatestToken(Repository& repo) = 0;
  // Up to `max` events with a token greater than `after_token`, oldest first; `gap` when
  // the log no longer holds the events after `after_token` (or never held that token:
  // another log). Errors: kStorage.
  virtual Result<ChangeBatch> ReadChanges(Repository& repo, uint64_t after_token, size_t max) = 0;
};

}  // namespace folio::query
