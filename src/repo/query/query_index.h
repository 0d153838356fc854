// The query index of one repository: a SQLite database derived from the repository's
// files (schema.h), built from a scan (scan.h) and kept in step by the repository's
// change log (change_log_feed.h). It can be deleted at any time: the next query notices
// (the file is gone or another one) and rebuilds it; a damaged file is removed and
// rebuilt too.
//
// Keeping in step: before answering, a query applies the log's events after the token
// the index stored (each event's object is read again through the Repository API), in
// the same SQLite transaction that stores the new token; when the log's fingerprint has
// not changed since this object was last in step, it reads nothing. A build records the
// log's newest token before it scans and applies the events after it once the scan is
// done, so changes made during the scan are not lost. An index whose stored token the
// log no longer holds (retention dropped it, or the log is another one) is rebuilt.
// Since every write records its event in the same atomic change as its files, a query
// sees every change acknowledged before it started, by any process, and a crash at any
// instant leaves a token that is at most behind the files, never ahead of them.
//
// Damage: a build leaves out an object whose record it cannot read (and what is below
// it: scan.h), and keeps its path in meta ("left-out:<path>"). A query looks at those
// again, at most once per kLeftOutProbeEvery: once one reads (or is gone), the index
// is rebuilt, so it catches up with a record restored by hand (docs/STORAGE.md §10).
//
// Several processes may share the file: SQLite serialises their writes, and a build
// holds a lock file (query_indexes.h IndexLockFileOf) so that one process builds while the
// others wait for it.
//
// Thread-safety: every method may be called from any thread. Queries wait while a build
// runs (the first build of a large repository: see docs/API.md §12).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/repository.h"
#include "repo/query/bound_query.h"
#include "repo/query/change_event.h"
#include "repo/query/foreground.h"
#include "repo/query/hand_watcher.h"
#include "repo/query/sqlite.h"
#include "repo/query/sqlite_memory.h"

namespace folio::query {

struct IndexPaths {
  std::string label;         // for log lines: "demo/main"
  std::string db_path;       // absolute host path of the database file
  std::string db_fs_path;    // the same file as a path of `files` (to notice it deleted or replaced)
  std::string lock_fs_path;  // the build lock, a path of `files`
  // The Fs that holds the index's files; null: the repository's own (its metadata).
  Fs* files = nullptr;
};

struct QueryPage {
  uint64_t skip = 0;
  uint64_t max = 100;
  bool all_versions = false;  // searchAllVersions
  // nullopt: every object (a domain administrator, a domain without users). Else the
  // principals that stand for the caller (its user id, its groups, cmis:anyone): only
  // the objects whose ACL lets one of them read are matched, counted and paged.
  std::optional<std::vector<std::string>> readers;
  // What the query may hold in SQLite at once (sqlite_memory.h); a query that would
  // need more is stopped.
  uint64_t memory_limit = kQueryMemoryLimit;
};

struct QueryHit {
  std::string object_id;
  double score = 1;  // SCORE(): 1 without CONTAINS, else in [0, 1), higher is better
};

struct QueryHits {
  std::vector<QueryHit> hits;  // the page, in order
  uint64_t total = 0;          // every match (the caller may read)
  uint64_t memory_peak = 0;    // the most the query held in SQLite at once, in bytes
};

// How often a query looks again at the objects a build left out for damage.
inline constexpr std::chrono::milliseconds kLeftOutProbeEvery{1000};

// How long one query may run in SQLite before it is stopped.
inline constexpr std::chrono::seconds kQueryTimeLimit{30};

// Test-only: a build calls the hook in the middle of writing its database (the first
// object of the scan written, its transaction open), with the build's label and stop
// flag; a test holds the build there until it returns (it should return once `stop`
// is set: QueryIndex::Stop then waits for it). Null (the default): no call. Thread-safe.
using BuildHookForTest = std::function<void(const std::string& label, const std::atomic<bool>& stop)>;
void SetBuildHookForTest(BuildHookForTest hook);

class QueryIndex {
 public:
  using Logger = std::function<void(const std::string&)>;

  QueryIndex(Fs& fs, IndexPaths paths, std::shared_ptr<ChangeFeed> feed, Logger log = {});
  ~QueryIndex();
  QueryIndex(const QueryIndex&) = delete;
  QueryIndex& operator=(const QueryIndex&) = delete;

  // Makes the index ready to answer for `repo`: opens it, builds it when it is missing,
  // incomplete, damaged, of another schema version or behind what the feed still holds
  // (waiting for a build another thread or process is doing), and applies the feed's
  // new events.
  // Errors: kStorage when the database cannot be written or the repository read;
  // kRuntime "stopped" after Stop().
  // `yield_to`: given by background work (QueryIndexes), whose build then pauses between
  // the scan's pages while requests are served (Foreground::Pause), except while a
  // request waits for this index. Requests pass none: they never pause.
  Status Prepare(Repository& repo, const Foreground* yield_to = nullptr);

  // Prepare, then the matches of `query`: the total and the page asked for.
  // The memory SQLite allocated for the query is freed when it ends, and given back to
  // the system when it was much.
  // Errors: as Prepare; kConstraint when the query runs longer than kQueryTimeLimit, or
  // needs more than page.memory_limit bytes at once (nothing is answered then).
  Result<QueryHits> Run(Repository& repo, const BoundQuery& query, const QueryPage& page);

  // Rebuilds the index from a scan whatever its state (fsck --repair).
  Status Rebuild(Repository& repo);

  // Files changed by hand (hand_watcher.h): watched from the next Prepare on (before
  // any build), drained before each query. A server sets one; fsck does not.
  void SetHandWatcher(std::unique_ptr<HandWatcher> watcher);

  // The feed the index follows (tests give their own). Setting another feed makes the
  // next Prepare check the stored token against it.
  void SetChangeFeed(std::shared_ptr<ChangeFeed> feed);
  std::shared_ptr<ChangeFeed> change_feed() const;

  // A build in progress stops; later calls fail with kRuntime "stopped".
  void Stop();

  // Rows in the index and whether it is complete (tests, fsck). Errors: kStorage.
  struct Summary {
    uint64_t objects = 0;
    bool complete = false;
  };
  Result<Summary> Summarize(Repository& repo);

 private:
  enum class State { kReady, kNeedsBuild };
  // All *Locked methods require write_mu_.
  Result<State> CheckLocked(std::shared_ptr<ChangeFeed>& feed);
  Status ReopenLocked();
  void RemoveFilesLocked();
  // Applies new events; false when the feed has a gap (a rebuild is needed).
  Result<bool> CatchUpLocked(Repository& repo, ChangeFeed& feed);
  // Reads what the hand watcher saw; false when it lost events (a rebuild is needed).
  Result<bool> DrainHandChangesLocked(Repository& repo);
  // True when an object the last build left out for damage reads now, or is gone: a
  // rebuild takes it in. Looks at most once per kLeftOutProbeEvery.
  Result<bool> LeftOutChangedLocked(Repository& repo);
  // Counts `n` changes applied; after many, lets SQLite refresh its statistics (the
  // repository may have grown tenfold since the build measured it).
  void CountChangesLocked(size_t n);
  Status Build(Repository& repo, bool force, const Foreground* yield_to = nullptr);
  Status BuildLocked(Repository& repo, ChangeFeed& feed, const Foreground* yield_to);
  // Counts the caller, a request, among those waiting for this index while it lives
  // (a background build does not pause then).
  class Waiting;
  Result<std::unique_ptr<Db>> AcquireReader(uint64_t& generation);
  void ReleaseReader(std::unique_ptr<Db> db, uint64_t generation);
  Result<QueryHits> RunOnce(const BoundQuery& query, const QueryPage& page);
  Result<Summary> SummarizeOnce(Repository& repo);
  void Log(const std::string& message) const;

  // The Fs of the index's own files (IndexPaths::files, else fs_).
  Fs& files() const { return paths_.files != nullptr ? *paths_.files : fs_; }

  Fs& fs_;
  const IndexPaths paths_;
  const Logger log_;
  std::atomic<bool> stop_{false};

  std::timed_mutex write_mu_;  // the writer connection and the file's identity; taken before mu_
  std::unique_ptr<Db> writer_;
  std::optional<FileStat> identity_;
  bool verified_ = false;  // the open file was checked against the feed's token
  // The feed's fingerprint when this object was last in step with it ("": unknown).
  std::string in_step_at_;
  std::unique_ptr<HandWatcher> watcher_;
  bool watcher_started_ = false;
  size_t changes_since_optimize_ = 0;
  std::chrono::steady_clock::time_point next_left_out_probe_{};

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<ChangeFeed> feed_;
  bool building_ = false;
  std::atomic<int> waiting_{0};  // requests waiting for the index (Waiting)
  uint64_t generation_ = 0;                   // bumped whenever the file is reopened
  std::vector<std::unique_ptr<Db>> readers_;  // idle readers of generation_
};

}  // namespace folio::query
