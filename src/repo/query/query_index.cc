// The query index of one repository; see query_index.h.
#include "repo/query/query_index.h"

#include <malloc.h>

#include <cmath>

#include "repo/query/index_writer.h"
#include "repo/query/scan.h"
#include "repo/query/schema.h"
#include "repo/query/sql_plan.h"

namespace folio::query {
namespace {

constexpr size_t kEventsPerBatch = 1000;
constexpr size_t kObjectsPerTransaction = 2000;
constexpr auto kProgressEvery = std::chrono::seconds(5);
constexpr size_t kMaxIdleReaders = 4;
// A query that held this much in SQLite at its peak gives it back to the system when it
// ends (malloc_trim walks the heap: not after every small query).
constexpr uint64_t kTrimAfterPeak = uint64_t{8} << 20;
constexpr size_t kChangesPerOptimize = 10000;
// Threads reading the repository during a build: reading costs about six times what
// writing the index does (bench/RESULTS.md), and the writer is a thread of its own.
constexpr int kScanWorkers = 3;

// "64 MiB", or "300000 bytes" for a limit that is no whole number of MiB.
std::string Bytes(uint64_t n) {
  if (n % (uint64_t{1} << 20) == 0) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

std::string TokenKey(const ChangeFeed& feed) { return "token:" + feed.id(); }
constexpr char kLeftOutPrefix[] = "left-out:";

Status Stopped() { return RuntimeError("the query index is stopping"); }

std::mutex g_build_hook_mu;
BuildHookForTest g_build_hook;  // guarded by g_build_hook_mu

void CallBuildHook(const std::string& label, const std::atomic<bool>& stop) {
  BuildHookForTest hook;
  {
    std::lock_guard<std::mutex> lock(g_build_hook_mu);
    hook = g_build_hook;
  }
  if (hook) hook(label, stop);
}

}  // namespace

void SetBuildHookForTest(BuildHookForTest hook) {
  std::lock_guard<std::mutex> lock(g_build_hook_mu);
  g_build_hook = std::move(hook);
}

QueryIndex::QueryIndex(Fs& fs, IndexPaths paths, std::shared_ptr<ChangeFeed> feed, Logger log)
    : fs_(fs), paths_(std::move(paths)), log_(std::move(log)), feed_(std::move(feed)) {}

QueryIndex::~QueryIndex() { Stop(); }

void QueryIndex::Log(const std::string& message) const {
  if (log_) log_("query index of " + paths_.label + ": " + message);
}

void QueryIndex::Stop() {
  stop_ = true;
  std::lock_guard<std::mutex> lock(mu_);
  cv_.notify_all();
}

void QueryIndex::SetChangeFeed(std::shared_ptr<ChangeFeed> feed) {
  std::lock_guard<std::timed_mutex> w(write_mu_);
  std::lock_guard<std::mutex> lock(mu_);
  feed_ = std::move(feed);
  verified_ = false;
  in_step_at_.clear();
}

void QueryIndex::SetHandWatcher(std::unique_ptr<HandWatcher> watcher) {
  std::lock_guard<std::timed_mutex> w(write_mu_);
  watcher_ = std::move(watcher);
  watcher_started_ = false;
}

std::shared_ptr<ChangeFeed> QueryIndex::change_feed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return feed_;
}

Status QueryIndex::ReopenLocked() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    readers_.clear();
    ++generation_;
  }
  writer_.reset();
  verified_ = false;
  in_step_at_.clear();
  identity_.reset();
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Db> db, Db::Open(paths_.db_path));
  // An index of another schema version is dropped before the current tables are made.
  {
    FOLIO_ASSIGN_OR_RETURN(Stmt s, db->Prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'"));
    FOLIO_ASSIGN_OR_RETURN(bool row, s.Step());
    if (row && s.Int(0) == 1) {
      FOLIO_ASSIGN_OR_RETURN(Stmt v, db->Prepare("SELECT value FROM meta WHERE key = 'schema'"));
      FOLIO_ASSIGN_OR_RETURN(bool has, v.Step());
      if (!has || v.Int(0) != kSchemaVersion) {
        Log("schema version differs: the index is rebuilt");
        FOLIO_RETURN_IF_ERROR(db->Transaction(DropSchemaSql()));
      }
    }
  }
  FOLIO_RETURN_IF_ERROR(db->Transaction(CreateSchemaSql() + "INSERT OR IGNORE INTO meta(key, value) VALUES('schema', " +
                                        std::to_string(kSchemaVersion) + ");"));
  auto st = files().Stat(paths_.db_fs_path);
  if (st.ok()) identity_ = *st;
  writer_ = std::move(db);
  return OkStatus();
}

void QueryIndex::RemoveFilesLocked() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    readers_.clear();
    ++generation_;
  }
  writer_.reset();
  identity_.reset();
  verified_ = false;
  in_step_at_.clear();
  for (const char* suffix : {"", "-wal", "-shm"}) (void)files().Remove(paths_.db_fs_path + suffix);
}

Result<QueryIndex::State> QueryIndex::CheckLocked(std::shared_ptr<ChangeFeed>& feed) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    feed = feed_;
  }
  auto st = files().Stat(paths_.db_fs_path);
  const bool same = writer_ && st.ok() && identity_ && SameInode(*st, *identity_);
  if (!same) {
    if (writer_) Log("the index file was removed or replaced: it is opened again");
    FOLIO_RETURN_IF_ERROR(ReopenLocked());
  }
  FOLIO_ASSIGN_OR_RETURN(auto schema, ReadMeta(*writer_, "schema"));
  FOLIO_ASSIGN_OR_RETURN(auto complete, ReadMeta(*writer_, "complete"));
  if (!schema || *schema != kSchemaVersion || !complete || *complete != 1) return State::kNeedsBuild;
  if (!verified_) {
    FOLIO_ASSIGN_OR_RETURN(auto token, ReadMeta(*writer_, TokenKey(*feed)));
    if (!token) return State::kNeedsBuild;
    verified_ = true;
  }
  return State::kReady;
}

Result<bool> QueryIndex::CatchUpLocked(Repository& repo, ChangeFeed& feed) {
  // Taken before reading: an event appended meanwhile changes it, so it is never
  // skipped by the next call.
  FOLIO_ASSIGN_OR_RETURN(std::string fingerprint, feed.Fingerprint(repo));
  if (!fingerprint.empty() && fingerprint == in_step_at_) return true;
  // What the index reads of changed objects is for it alone (after a first scan, every
  // document it adopted): none is kept for requests (Repository::ReadOnce).
  const Repository::ReadOnce read_once;
  IndexWriter w(*writer_, repo);
  const std::string key = TokenKey(feed);
  for (;;) {
    if (stop_) return Stopped();
    // The token is read in the transaction that advances it: another process catching
    // up on the same file waits, then starts where this one ended.
    FOLIO_RETURN_IF_ERROR(w.Begin());
    bool gap = false;
    auto step = [&]() -> Result<size_t> {
      FOLIO_ASSIGN_OR_RETURN(auto stored, w.GetMeta(key));
      uint64_t token = stored ? static_cast<uint64_t>(*stored) : 0;
      FOLIO_ASSIGN_OR_RETURN(ChangeBatch batch, feed.ReadChanges(repo, token, kEventsPerBatch));
      gap = batch.gap;
      for (const ChangeEvent& e : batch.events) {
        FOLIO_RETURN_IF_ERROR(w.Apply(e));
        token = e.token;
      }
      if (!batch.events.empty()) FOLIO_RETURN_IF_ERROR(w.SetMeta(key, static_cast<int64_t>(token)));
      return batch.events.size();
    };
    auto applied = step();
    if (!applied.ok() || gap) {
      w.Rollback();
      if (!applied.ok()) return applied.status();
      return false;
    }
    FOLIO_RETURN_IF_ERROR(w.Commit());
    if (*applied == 0) break;
    CountChangesLocked(*applied);
  }
  in_step_at_ = fingerprint;
  return true;
}

Result<bool> QueryIndex::DrainHandChangesLocked(Repository& repo) {
  const Repository::ReadOnce read_once;  // the files found are read for the index: as in CatchUpLocked
  if (!watcher_) return true;
  if (!watcher_started_) {
    watcher_started_ = true;
    watcher_->Start();
  }
  // New and edited files are adopted here: their events reach the log, then the index.
  HandWatcher::Found found = watcher_->Drain(repo);
  if (found.overflow) return false;
  if (found.removed.empty() || !writer_) return true;  // no index yet: its build scans
  // A name gone from a folder: what the index files there is looked at again (gone, or
  // moved by hand: the object the files no longer show is dropped).
  IndexWriter w(*writer_, repo);
  FOLIO_RETURN_IF_ERROR(w.Begin());
  Status s = OkStatus();
  for (const auto& [folder_path, name] : found.removed) {
    std::string folder_id = repo.info().root_folder_id;
    if (!folder_path.empty()) {
      auto folder = repo.GetObjectByPathShared(folder_path);
      if (!folder.ok()) continue;  // gone too: its own removal is seen in its parent
      folder_id = (*folder)->id;
    }
    auto ids = w.IdsFiledAs(folder_id, name);
    if (!ids.ok()) {
      s = ids.status();
      break;
    }
    for (const std::string& id : *ids) {
      ChangeEvent e;
      e.object_id = id;
      s = w.Apply(e);
      if (!s.ok()) break;
    }
    if (!s.ok()) break;
  }
  if (s.ok()) s = w.Commit();
  if (!s.ok()) {
    w.Rollback();
    return s;
  }
  return true;
}

void QueryIndex::CountChangesLocked(size_t n) {
  changes_since_optimize_ += n;
  if (changes_since_optimize_ < kChangesPerOptimize || !writer_) return;
  changes_since_optimize_ = 0;
  (void)writer_->Exec("PRAGMA optimize");
}

class QueryIndex::Waiting {
 public:
  // Counts only when `counts` (a request's wait, not the background's own).
  Waiting(std::atomic<int>& waiting, bool counts) : waiting_(counts ? &waiting : nullptr) {
    if (waiting_ != nullptr) waiting_->fetch_add(1);
  }
  ~Waiting() {
    if (waiting_ != nullptr) waiting_->fetch_sub(1);
  }
  Waiting(const Waiting&) = delete;
  Waiting& operator=(const Waiting&) = delete;

 private:
  std::atomic<int>* waiting_;
};

Status QueryIndex::Prepare(Repository& repo, const Foreground* yield_to) {
  bool force = false;  // the feed lost events the index needs: its state cannot be trusted
  for (int attempt = 0; attempt < 3; ++attempt) {
    Waiting waiting(waiting_, yield_to == nullptr);
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return !building_ || stop_; });
    }
    if (stop_) return Stopped();
    {
      std::lock_guard<std::timed_mutex> w(write_mu_);
      std::shared_ptr<ChangeFeed> feed;
      auto state = CheckLocked(feed);
      if (!state.ok()) {
        if (!IsCorruption(state.status())) return state.status();
        Log("the index file is damaged (" + state.status().message() + "): it is rebuilt");
        RemoveFilesLocked();
        continue;
      }
      auto watched = DrainHandChangesLocked(repo);
      if (!watched.ok()) {
        if (!IsCorruption(watched.status())) return watched.status();
        RemoveFilesLocked();
        continue;
      }
      if (!*watched) {
        Log("the watcher of files changed by hand lost events: the index is rebuilt");
        force = true;
      }
      if (*state == State::kReady && !force) {
        auto in_step = CatchUpLocked(repo, *feed);
        if (in_step.ok() && *in_step) {
          FOLIO_ASSIGN_OR_RETURN(bool changed, LeftOutChangedLocked(repo));
          if (!changed) return OkStatus();
          force = true;
          continue;
        }
        if (!in_step.ok()) {
          if (!IsCorruption(in_step.status())) return in_step.status();
          RemoveFilesLocked();
          continue;
        }
        Log("the change feed no longer holds the events after the index's token: it is rebuilt");
        force = true;
      }
    }
    FOLIO_RETURN_IF_ERROR(Build(repo, force, yield_to));
    force = false;
  }
  return StorageError("query index of " + paths_.label + " could not be made ready");
}

Result<bool> QueryIndex::LeftOutChangedLocked(Repository& repo) {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_left_out_probe_) return false;
  next_left_out_probe_ = now + kLeftOutProbeEvery;
  IndexWriter w(*writer_, repo);
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> keys, w.MetaKeys(kLeftOutPrefix));
  const Repository::ReadOnce read_once;  // read for the index alone
  for (const std::string& key : keys) {
    const std::string path = key.substr(sizeof kLeftOutPrefix - 1);
    // Read as the build's scan reads it: the object, then its versions or children.
    auto o = path.empty() ? repo.GetObject(repo.info().root_folder_id) : repo.GetObjectByPath(path);
    Status s = o.status();
    if (o.ok() && o->base == BaseType::kDocument) s = repo.GetAllVersions(o->id).status();
    if (o.ok() && o->base == BaseType::kFolder) s = repo.GetChildren(o->id, 0, 1).status();
    if (s.ok() || s.kind() == ErrorKind::kObjectNotFound) {
      Log("'/" + path + "', left out of the last build (damaged), " + (s.ok() ? "reads" : "is gone") +
          " now: the index is rebuilt");
      return true;
    }
  }
  return false;
}

Status QueryIndex::Rebuild(Repository& repo) { return Build(repo, /*force=*/true); }

Status QueryIndex::Build(Repository& repo, bool force, const Foreground* yield_to) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (building_) {  // another thread builds: wait for it
      Waiting waiting(waiting_, yield_to == nullptr);
      cv_.wait(lock, [&] { return !building_ || stop_; });
      return stop_ ? Stopped() : OkStatus();
    }
    building_ = true;
  }
  Status result = OkStatus();
  {
    std::lock_guard<std::timed_mutex> w(write_mu_);
    // Another process may be building: wait for it, then look again.
    auto file_lock = files().Lock(paths_.lock_fs_path);
    if (!file_lock.ok()) {
      result = file_lock.status();
    } else {
      std::shared_ptr<ChangeFeed> feed;
      auto state = CheckLocked(feed);
      if (!state.ok() && IsCorruption(state.status())) {
        RemoveFilesLocked();
        state = CheckLocked(feed);
      }
      if (!state.ok()) {
        result = state.status();
      } else if (force || *state == State::kNeedsBuild) {
        result = BuildLocked(repo, *feed, yield_to);
        if (!result.ok() && IsCorruption(result)) {
          RemoveFilesLocked();
          result = ReopenLocked();
          if (result.ok()) result = BuildLocked(repo, *feed, yield_to);
        }
      }
    }
    std::lock_guard<std::mutex> lock(mu_);
    building_ = false;
    cv_.notify_all();
  }
  return result;
}

Status QueryIndex::BuildLocked(Repository& repo, ChangeFeed& feed, const Foreground* yield_to) {
  const auto started = std::chrono::steady_clock::now();
  Log("building");
  in_step_at_.clear();
  FOLIO_ASSIGN_OR_RETURN(uint64_t from_token, feed.LatestToken(repo));
  Db& db = *writer_;
  IndexWriter w(db, repo);
  FOLIO_RETURN_IF_ERROR(db.Transaction(DropSchemaSql() + CreateSchemaSql(/*with_indexes=*/false)));
  FOLIO_RETURN_IF_ERROR(w.Begin());
  FOLIO_RETURN_IF_ERROR(w.SetMeta("schema", kSchemaVersion));
  FOLIO_RETURN_IF_ERROR(w.SetMeta("complete", 0));
  FOLIO_RETURN_IF_ERROR(w.Commit());
  // SQLite's own page cache (2 MB) while building: one of 8 MB took the server's peak
  // from 29 to 43 MB for 100,000 documents and did not make the build faster
  // (bench/RESULTS.md).
  uint64_t count = 0;
  std::vector<std::string> left_out;
  auto last_log = started;
  w.SetBulk(true);
  FOLIO_RETURN_IF_ERROR(w.Begin());
  std::function<void()> pause;
  if (yield_to != nullptr) {
    pause = [this, yield_to] { yield_to->Pause(stop_, [this] { return waiting_.load() > 0; }); };
  }
  Status s = ScanRepository(
      repo, fs_,
      [&](ScannedObject&& o) -> Status {
        FOLIO_RETURN_IF_ERROR(w.Put(o.object, &o.text));
        if (++count == 1) CallBuildHook(paths_.label, stop_);
        if (count % kObjectsPerTransaction == 0) {
          FOLIO_RETURN_IF_ERROR(w.Commit());
          FOLIO_RETURN_IF_ERROR(w.Begin());
          const auto now = std::chrono::steady_clock::now();
          if (now - last_log >= kProgressEvery) {
            last_log = now;
            Log("building: " + std::to_string(count) + " objects so far");
          }
        }
        return OkStatus();
      },
      stop_, kScanWorkers, &left_out, pause);
  if (s.ok()) s = w.Commit();
  if (!s.ok()) {
    w.Rollback();
    (void)db.Exec("PRAGMA shrink_memory");
    Log("build failed after " + std::to_string(count) + " objects: " + s.message());
    return s;
  }
  w.SetBulk(false);
  FOLIO_RETURN_IF_ERROR(db.Transaction(CreateIndexesSql()));
  // The changes made while the scan ran.
  FOLIO_RETURN_IF_ERROR(w.Begin());
  FOLIO_RETURN_IF_ERROR(w.SetMeta(TokenKey(feed), static_cast<int64_t>(from_token)));
  FOLIO_RETURN_IF_ERROR(w.Commit());
  FOLIO_ASSIGN_OR_RETURN(bool in_step, CatchUpLocked(repo, feed));
  if (!in_step) return StorageError("the change feed lost events while the index was built; try again");
  FOLIO_RETURN_IF_ERROR(w.Begin());
  FOLIO_RETURN_IF_ERROR(w.ClearMeta(kLeftOutPrefix));
  for (const std::string& path : left_out) FOLIO_RETURN_IF_ERROR(w.SetMeta(kLeftOutPrefix + path, 1));
  FOLIO_RETURN_IF_ERROR(w.SetMeta("complete", 1));
  FOLIO_RETURN_IF_ERROR(w.Commit());
  if (!left_out.empty()) {
    Log(std::to_string(left_out.size()) + " damaged object(s) left out, first '/" + left_out.front() +
        "': taken in once readable again");
  }
  next_left_out_probe_ = std::chrono::steady_clock::now() + kLeftOutProbeEvery;
  // Statistics let SQLite pick the most selective index: a name range rather than the
  // type, which most rows share. A whole ANALYZE (no sampling: sampled statistics make
  // the type look selective) takes about half a second per 100,000 objects.
  (void)db.Exec("PRAGMA analysis_limit = 0; ANALYZE; PRAGMA shrink_memory");
  // The scan read every object once: let go of what the repository kept of those reads
  // (a request reads again what it needs), then give what that freed back to the
  // system rather than keep it in the heap of a server that may not read that much
  // again (glibc). Kept, the last reads pinned pages all over the heap: 21-23 MB resident
  // after a first scan of 10,000 hand-added files, 11-15 MB without them (bench/RESULTS.md).
  repo.DropCaches();
  ::malloc_trim(0);
  verified_ = true;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  Log("built: " + std::to_string(count) + " objects in " + std::to_string(ms) + " ms");
  return OkStatus();
}

Result<std::unique_ptr<Db>> QueryIndex::AcquireReader(uint64_t& generation) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    generation = generation_;
    if (!readers_.empty()) {
      auto db = std::move(readers_.back());
      readers_.pop_back();
      return db;
    }
  }
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Db> db, Db::Open(paths_.db_path));
  // Readers' pages are mostly the indexes' upper levels: a small cache each keeps the
  // server's memory bounded whatever the number of threads.
  (void)db->Exec("PRAGMA cache_size = -1000");
  return db;
}

void QueryIndex::ReleaseReader(std::unique_ptr<Db> db, uint64_t generation) {
  db->ClearDeadline();
  std::lock_guard<std::mutex> lock(mu_);
  if (generation == generation_ && readers_.size() < kMaxIdleReaders) readers_.push_back(std::move(db));
}

Result<QueryHits> QueryIndex::RunOnce(const BoundQuery& query, const QueryPage& page) {
  const SqlPlan plan =
      PlanQuery(query, page.all_versions, page.skip, page.max, page.readers ? &*page.readers : nullptr);
  uint64_t generation = 0;
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Db> db, AcquireReader(generation));
  db->SetDeadline(std::chrono::steady_clock::now() + kQueryTimeLimit);
  MemoryBudget budget(page.memory_limit);
  auto run = [&]() -> Result<QueryHits> {
    QueryHits out;
    // One read transaction: the count and the page see the same state.
    FOLIO_RETURN_IF_ERROR(db->Exec("BEGIN"));
    FOLIO_ASSIGN_OR_RETURN(Stmt count, db->Prepare(plan.count_sql));
    for (size_t i = 0; i < plan.count_params.size(); ++i) count.Bind(static_cast<int>(i + 1), plan.count_params[i]);
    FOLIO_ASSIGN_OR_RETURN(bool row, count.Step());
    out.total = row ? static_cast<uint64_t>(count.Int(0)) : 0;
    FOLIO_ASSIGN_OR_RETURN(Stmt rows, db->Prepare(plan.page_sql));
    for (size_t i = 0; i < plan.page_params.size(); ++i) rows.Bind(static_cast<int>(i + 1), plan.page_params[i]);
    for (;;) {
      FOLIO_ASSIGN_OR_RETURN(bool more, rows.Step());
      if (!more) break;
      // bm25 negated: 0 for no relevance, growing with it; mapped into [0, 1).
      const double x = std::max(0.0, rows.Real(1));
      const bool constant = plan.page_sql.find("bm25") == std::string::npos;
      out.hits.push_back(QueryHit{rows.Text(0), constant ? 1.0 : x / (1.0 + x)});
    }
    FOLIO_RETURN_IF_ERROR(db->Exec("COMMIT"));
    return out;
  };
  auto result = run();
  // Much memory freed goes back to the system rather than stay in the heap (glibc
  // keeps it), so that what a query held is released when it ends.
  const bool trim = budget.peak() >= kTrimAfterPeak;
  if (!result.ok()) {
    (void)db->Exec("ROLLBACK");
    if (budget.exceeded()) {
      db.reset();  // the connection is dropped: nothing of the query stays
      ::malloc_trim(0);
      return Constraint("the query needs more than " + Bytes(page.memory_limit) +
                        " of memory and was stopped: narrow it down (fewer terms or predicates)");
    }
    if (result.status().Is(kIndexTimedOut)) {
      ReleaseReader(std::move(db), generation);
      return Constraint("the query ran longer than " + std::to_string(kQueryTimeLimit.count()) +
                        " s and was stopped: narrow it down");
    }
    return result.status();  // the connection is dropped
  }
  ReleaseReader(std::move(db), generation);
  if (trim) ::malloc_trim(0);
  result->memory_peak = budget.peak();
  return result;
}

Result<QueryHits> QueryIndex::Run(Repository& repo, const BoundQuery& query, const QueryPage& page) {
  FOLIO_RETURN_IF_ERROR(Prepare(repo));
  auto hits = RunOnce(query, page);
  if (hits.ok() || !IsCorruption(hits.status())) return hits;
  {
    std::lock_guard<std::timed_mutex> w(write_mu_);
    Log("the index file is damaged (" + hits.status().message() + "): it is rebuilt");
    RemoveFilesLocked();
  }
  FOLIO_RETURN_IF_ERROR(Prepare(repo));
  return RunOnce(query, page);
}

Result<QueryIndex::Summary> QueryIndex::Summarize(Repository& repo) {
  auto summary = SummarizeOnce(repo);
  if (summary.ok() || !IsCorruption(summary.status())) return summary;
  {
    std::lock_guard<std::timed_mutex> w(write_mu_);
    RemoveFilesLocked();
  }
  return SummarizeOnce(repo);
}

Result<QueryIndex::Summary> QueryIndex::SummarizeOnce(Repository& repo) {
  FOLIO_RETURN_IF_ERROR(Prepare(repo));
  std::lock_guard<std::timed_mutex> w(write_mu_);
  if (!writer_) return StorageError("query index of " + paths_.label + " is not open");
  Summary out;
  FOLIO_ASSIGN_OR_RETURN(Stmt s, writer_->Prepare("SELECT count(*) FROM objects"));
  FOLIO_ASSIGN_OR_RETURN(bool row, s.Step());
  out.objects = row ? static_cast<uint64_t>(s.Int(0)) : 0;
  FOLIO_ASSIGN_OR_RETURN(auto complete, ReadMeta(*writer_, "complete"));
  out.complete = complete && *complete == 1;
  return out;
}

}  // namespace folio::query
