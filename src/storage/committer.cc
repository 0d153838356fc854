// The commit path: staging, the commit log, group commit, apply, recovery and
// checkpoints; see committer.h and docs/STORAGE.md §8.
#include "storage/committer.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/id_seed.h"
#include "storage/ids.h"
#include "storage/journal.h"
#include "storage/look_once.h"
#include "storage/lookup_scope.h"
#include "storage/wait_hooks.h"

namespace folio::storage {

// A record committed (its lsn and place in the log are fixed) and waiting to be
// written and synced by the group-commit leader, then applied by its own thread.
struct Committer::Pending {
  uint64_t lsn = 0;
  uint64_t offset = 0;
  std::string frame;
  ChangeSet change;
  std::vector<std::string> paths;  // TouchedPaths(): conflicts for stagings meanwhile
  std::vector<std::string> made_dirs;  // MadeOnlyDirs(): no conflict for what is below them
  // Guarded by q_mu_. `batched`: taken into the leader's batch; `durable`: the batch's
  // write and sync are over (`status` holds their failure if any); `applying` and
  // `applied`: this record's files, by its own thread; `done`: set by the leader once
  // `status` is final.
  bool batched = false;
  bool durable = false;
  bool applying = false;
  bool applied = false;
  bool done = false;
  // The batch's write or sync failed and this record's frame was overwritten (and
  // synced) with a void record: it never takes effect. Set by the leader before `durable`.
  bool voided = false;
  // Earlier records still in flight (of this group or an earlier one) that touch the
  // same paths, or a directory above one of them: applied first, in log order. Guarded
  // by q_mu_ (set before `durable`); shared, as an earlier group may finish first.
  std::vector<std::shared_ptr<Pending>> after;
  Status status;  // written under q_mu_ or by the record's own apply; read once `done`
  // The record's own thread waits here (with q_mu_), and is woken only by what it waits
  // for: its group durable or finished, a record in `after` applied, the leader's place
  // free; as a group's leader, a record of its group applied, or the group before it
  // finished. (One condition variable for all would wake every waiting thread at every
  // step of every group.)
  std::condition_variable cv;
  Pending* leader = nullptr;  // the leader of its group, once batched (guarded by q_mu_)
};

// The staging in progress on this thread, so that reads made while staging can be
// checked against changes in flight. Stagings of different committers stack (a change
// of a domain's accounts staged while a repository's is); never two of one committer.
struct StagingContext {
  Committer* committer = nullptr;
  bool conflict = false;
  StagingContext* outer = nullptr;
};

namespace {

thread_local StagingContext* t_staging = nullptr;

// A link of `path` to a spilled upload (unique, never reused: no guard needed).
Action LinkAction(const std::string& path, const std::string& upload) {
  Action a;
  a.op = Action::Op::kLink;
  a.path = path;
  a.source = upload;
  return a;
}

bool IsUnder(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

}  // namespace

// Set per committer: the paths of records committed and not yet applied, and the
// parents of those paths (a listing of such a parent would miss or show a child early).
struct ConflictSet {
  std::mutex mu;
  std::multiset<std::string> paths;
  std::multiset<std::string> parents;
  // The paths among `paths` that their change only makes as directories (MakeDir, which
  // leaves one that is there as it is): what is below them is not renamed or removed.
  std::multiset<std::string> made_dirs;
  std::atomic<uint64_t> highest_lsn{0};  // of the records in `paths`

  bool Conflicts(const std::string& path, bool listing) {
    std::lock_guard<std::mutex> lock(mu);
    if (paths.empty()) return false;
    if (paths.count(path) > 0) return true;
    if (listing && parents.count(path) > 0) return true;
    // A directory renamed or removed above `path`. (Not one only made: every change that
    // adds an id index entry makes the index directory, which would otherwise order all
    // of them behind each other's reads of the index.)
    for (size_t slash = path.rfind('/'); slash != std::string::npos && slash > 0; slash = path.rfind('/', slash - 1)) {
      const std::string above = path.substr(0, slash);
      if (paths.count(above) > made_dirs.count(above)) return true;
    }
    return false;
  }
};

Committer::Committer(Fs& fs, RepoLayout layout, CommitterOptions options)
    : fs_(fs),
      layout_(std::move(layout)),
      options_(options),
      changes_(fs, layout_.ChangesDir(), options.change_log, options.on_events),
      conflicts_(std::make_unique<ConflictSet>()),
      spares_(layout_.SpareDir(), options.spares) {}

Committer::~Committer() {
  {
    std::lock_guard<std::mutex> lock(q_mu_);
    stopping_ = true;
  }
  q_cv_.notify_all();
  idle_cv_.notify_all();
  if (idle_thread_.joinable()) idle_thread_.join();
  if (!options_.read_only && log_) {
    // Leave the log empty at rest: readers and fsck then find nothing pending.
    std::unique_lock<std::mutex> lock(mu_);
    if (AcquireLocked().ok()) {
      if (tail_ > kLogHeaderBytes) (void)CheckpointLocked();
      ReleaseIfIdleLocked();
    }
  }
  RemoveTrash();
}

Status Committer::Open() {
  if (options_.read_only) return OkStatus();
  std::unique_lock<std::mutex> lock(mu_);
  Status s = AcquireLocked();
  if (IsUnwritable(s)) {
    // A read-only mount, or files this process may not write: a reader needs no lock
    // (docs/STORAGE.md §8); each write will say why it cannot be made.
    read_only_fs_ = true;
    file_lock_.reset();
    return OkStatus();
  }
  FOLIO_RETURN_IF_ERROR(s);
  ReleaseIfIdleLocked();
  return OkStatus();
}

Status Committer::RunBookkeeping(const std::function<Status(ChangeSet&)>& stage) {
  if (overlay_ == nullptr) return Run(stage);
  if (!options_.read_only && !read_only_fs_) {
    Status s = Run(stage);
    if (!IsUnwritable(s)) return s;
  }
  if (StagingHere() || LookupScope::Active()) return Reentered();
  std::unique_lock<std::mutex> lock(mu_);
  ChangeSet change;
  {
    StagingContext ctx{this, false, t_staging};
    t_staging = &ctx;
    Status staged = stage(change);
    t_staging = ctx.outer;
    FOLIO_RETURN_IF_ERROR(staged);
  }
  for (const Action& a : change.actions()) {
    if (a.op == Action::Op::kCopy) return PermissionDenied("a read-only repository copies no file");
  }
  // Held whole or not at all: the room is asked for before the first action.
  FOLIO_RETURN_IF_ERROR(OverlayFs::CheckRoom(OverlayFs::CostOf(change), layout_.base()));
  Status s = ApplyChangeSet(*overlay_, change, ApplyOptions{}, nullptr);
  changes_applied_.fetch_add(1, std::memory_order_release);
  LookOnce::ChangeApplied();
  return s;
}

bool Committer::IsUnwritable(const Status& s) {
  return s.Is(std::errc::read_only_file_system) || s.Is(std::errc::permission_denied) ||
         s.Is(std::errc::operation_not_permitted);
}

bool Committer::InStaging() { return t_staging != nullptr; }

bool Committer::CheckConflict(const std::string& path, bool listing) {
  for (StagingContext* c = t_staging; c != nullptr; c = c->outer) {
    if (c->committer->conflicts_->Conflicts(path, listing)) {
      c->conflict = true;
      return true;
    }
  }
  return false;
}

Status Committer::EnsureLogLocked() {
  if (log_) return OkStatus();
  if (!Exists(fs_, layout_.MetaDir())) {
    Status made = fs_.MakeDir(layout_.MetaDir());
    if (!made.ok() && !made.Is(std::errc::file_exists)) return made;
  }
  FOLIO_ASSIGN_OR_RETURN(log_, CommitLog::Open(fs_, layout_.LogFile()));
  return OkStatus();
}

Status Committer::AcquireLocked() {
  if (file_lock_) {
    if (!broken_) return OkStatus();
    // A record committed before was not fully applied (the disk failed): apply it now,
    // once nothing else is in flight.
    WaitApplied(next_lsn_ - 1);
    broken_ = false;
    Status s = RecoverLocked();
    if (!s.ok()) broken_ = true;
    return s;
  }
  if (options_.lock_held) {
    file_lock_ = std::make_unique<FileLock>();  // the caller's stands for it
  } else {
    FOLIO_ASSIGN_OR_RETURN(file_lock_, fs_.Lock(layout_.LockFile()));
  }
  Status s = RecoverLocked();
  if (!s.ok()) file_lock_.reset();
  return s;
}

void Committer::ReleaseIfIdleLocked() {
  std::optional<uint64_t> version;
  {
    std::lock_guard<std::mutex> h(header_mu_);
    if (log_) version = log_->last_version();
  }
  std::lock_guard<std::mutex> q(q_mu_);
  if (depth_ == 0 && queue_.empty() && !leader_active_ && file_lock_) {
    file_lock_.reset();
    released_version_ = broken_ ? std::nullopt : version;
  }
}

Status Committer::RecoverLocked() {
  FOLIO_RETURN_IF_ERROR(EnsureLogLocked());
  std::unique_lock<std::mutex> h(header_mu_);
  const uint64_t known_next_token = header_.next_token;
  FOLIO_ASSIGN_OR_RETURN(header_, log_->ReadHeader());
  const std::string boot = fs_.BootId();
  // Same boot: every record up to applied_lsn is in the files (the page cache is
  // shared). Another boot: none can be trusted to be; all of the epoch are re-applied.
  const bool same_boot = !boot.empty() && header_.boot_id == boot;
  // After a restart a power loss may have left a spare's name on a file that another
  // name holds now (a swap half made durable): no spare is trusted.
  if (!same_boot) spares_.DistrustFound();
  uint64_t offset = same_boot ? header_.applied_end : kLogHeaderBytes;
  uint64_t after = same_boot ? header_.applied_lsn : 0;
  FOLIO_ASSIGN_OR_RETURN(std::vector<LogRecord> records, log_->Scan(header_.epoch, offset, after));
  if (released_version_ && *released_version_ == header_.version && records.empty() && !broken_) {
    // Nobody wrote the header since this process let the lock go (every writer writes
    // it after applying, or leaves a record that Scan finds): what this process knew
    // then still holds, the next token included. A lock acquisition then costs a
    // header read and one scan, not the journal's and the change log's reads.
    header_.next_token = std::max(header_.next_token, known_next_token);
    header_.boot_id = boot;  // as below: the next header written carries this boot's id
    tail_ = offset;
    next_lsn_ = after + 1;
    applied_lsn_ = after;
    return OkStatus();
  }
  // A data directory written by an older Folio may hold records of the format-1 journal.
  FOLIO_RETURN_IF_ERROR(RecoverJournal(fs_, layout_.JournalDir()).status());
  // What re-applying these records writes again, across the records (see
  // ApplyOptions::replayed).
  std::set<std::string> replayed;
  for (LogRecord& r : records) {
    FOLIO_RETURN_IF_ERROR(ApplyRecord(r.change, &replayed));
    // An apply that was cut short may have left temp files beside its targets; only
    // the holder of the lock writes there, so they are garbage now.
    RemoveTempsBeside(r.change);
    header_.applied_lsn = r.lsn;
    header_.applied_end = r.end;
    for (const ChangeEvent& e : r.change.events()) header_.next_token = std::max(header_.next_token, e.token + 1);
    ++stats_.recovered;
  }
  if (!records.empty()) {
    offset = records.back().end;
    after = records.back().lsn;
  }
  header_.applied_lsn = after;
  header_.applied_end = offset;
  // The change log is the truth for tokens (a log emptied by a checkpoint says little).
  FOLIO_ASSIGN_OR_RETURN(uint64_t last_token, changes_.LastToken());
  header_.next_token = std::max(header_.next_token, last_token + 1);
  // Nothing applied, nothing to write (opening writes nothing: a read of the log only);
  // the next header written carries this boot's id.
  const bool rewrite = !records.empty();
  header_.boot_id = boot;
  tail_ = offset;
  if (!records.empty() || !trash_swept_) SweepTrashDir();
  next_lsn_ = after + 1;
  applied_lsn_ = after;
  if (!same_boot && !records.empty()) {
    // Records re-applied after a restart are in the page cache only: make them durable
    // now, so that the header's boot id can vouch for them again.
    h.unlock();
    return CheckpointLocked();
  }
  if (rewrite) FOLIO_RETURN_IF_ERROR(log_->WriteHeader(header_));
  return OkStatus();
}

Status Committer::ApplyRecord(const ChangeSet& change, std::set<std::string>* replayed) {
  FOLIO_RETURN_IF_ERROR(ApplyFiles(change, replayed));
  return changes_.Append(change.events());
}

Status Committer::ApplyFiles(const ChangeSet& change, std::set<std::string>* replayed) {
  std::vector<std::string> trashed;
  ApplyOptions options;
  options.trash_dir = layout_.TrashDir();
  options.on_json_written = options_.on_json_written;
  options.replayed = replayed;
  // Recovery writes new files: it runs before anything is known of the spares.
  if (replayed == nullptr) options.spares = &spares_;
  Status s = ApplyChangeSet(fs_, change, options, &trashed);
  changes_applied_.fetch_add(1, std::memory_order_release);
  LookOnce::ChangeApplied();
  FOLIO_RETURN_IF_ERROR(s);
  // Uploads linked into place are consumed: their own name goes after the next
  // checkpoint (until then a replay of the record links them again, harmlessly).
  AppendLinkedUploads(change, trashed);
  AddGarbage(trashed);
  return OkStatus();
}

void Committer::AppendLinkedUploads(const ChangeSet& change, std::vector<std::string>& out) const {
  const std::string uploads = layout_.UploadsDir();
  for (const Action& a : change.actions()) {
    if (a.op == Action::Op::kLink && IsUnder(a.source, uploads)) out.push_back(a.source);
  }
}

void Committer::RemoveTempsBeside(const ChangeSet& change) {
  std::set<std::string> dirs;
  for (const Action& a : change.actions()) dirs.insert(ParentPath(a.path));
  for (const std::string& dir : dirs) {
    auto entries = fs_.List(dir);
    if (!entries.ok()) continue;
    for (const DirEntry& e : *entries) {
      if (IsTempName(e.name)) (void)fs_.RemoveTree(JoinPath(dir, e.name));
    }
  }
}

Status Committer::PrepareLocked(ChangeSet& change) {
  bool uploads_written = false;
  const std::string uploads = layout_.UploadsDir();
  // A new upload file holding `fill`'s bytes, synced: what a large Put or Copy links.
  auto spill = [&](const std::function<Status(WritableFile&)>& fill) -> Result<std::string> {
    // Made durably: a record naming a file in it must not outlive the directory's own
    // name in .folio across a power loss (the record's link would find nothing).
    FOLIO_RETURN_IF_ERROR(EnsureDir(fs_, uploads));
    const std::string path = JoinPath(uploads, NewId('u'));
    FOLIO_ASSIGN_OR_RETURN(auto file, fs_.CreateNew(path));
    Status s = fill(*file);
    if (s.ok()) s = file->Sync();
    if (s.ok()) s = file->Close();
    if (!s.ok()) {
      (void)fs_.Remove(path);
      return s;
    }
    uploads_written = true;
    spilled_.push_back(path);
    return path;
  };
  for (Action& a : change.mutable_actions()) {
    if (a.op == Action::Op::kPut && a.stamp.empty() && a.bytes.size() > options_.inline_limit) {
      FOLIO_ASSIGN_OR_RETURN(std::string up, spill([&](WritableFile& f) { return f.Append(a.bytes); }));
      // A record keeps telling the apply what it is (ApplyOptions::on_json_written,
      // Action::written): a large one is just what readers must not parse again.
      std::shared_ptr<const Json> value = a.json ? std::move(a.value) : nullptr;
      if (a.json && value == nullptr) {
        if (auto parsed = ParseStoredJson(a.bytes, a.path); parsed.ok()) {
          value = std::make_shared<const Json>(std::move(*parsed));
        }
      }
      auto written = std::move(a.written);
      a = LinkAction(a.path, up);
      a.json = value != nullptr;
      a.value = std::move(value);
      a.written = std::move(written);
    } else if (a.op == Action::Op::kCopy) {
      FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(a.source));
      if (src->size() <= options_.inline_limit) {
        FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(fs_, a.source));
        Action put;
        put.op = Action::Op::kPut;
        put.path = a.path;
        put.bytes = std::move(bytes);
        a = std::move(put);
      } else {
        FOLIO_ASSIGN_OR_RETURN(std::string up, spill([&](WritableFile& f) { return f.AppendFrom(*src); }));
        a = LinkAction(a.path, up);
      }
    } else if (a.op == Action::Op::kLink && IsUnder(a.source, uploads)) {
      uploads_written = true;  // written (and synced) by the caller: its name must be durable
    }
  }
  // The record names upload files: their names must survive a power loss with it.
  if (uploads_written) FOLIO_RETURN_IF_ERROR(fs_.SyncDir(uploads));
  return OkStatus();
}

void Committer::DropSpilledLocked() {
  for (const std::string& path : spilled_) (void)fs_.Remove(path);
  spilled_.clear();
}

Status Committer::Run(const std::function<Status(ChangeSet&)>& stage) {
  if (options_.read_only) return PermissionDenied("the repository is read-only");
  Status s = RunImpl(stage);
  if (!IsUnwritable(s)) return s;
  // Mounted read-only (or remounted so under us, as errors=remount-ro does), or files
  // this process may not write: reads go on, bookkeeping moves to memory, and each
  // write says why it cannot be made.
  read_only_fs_ = true;
  if (s.Is(std::errc::read_only_file_system)) {
    return StorageError("cannot change repository '" + layout_.base() + "': its filesystem is read-only (" +
                            s.message() + ")",
                        std::errc::read_only_file_system);
  }
  return StorageError("cannot change repository '" + layout_.base() + "': this process may not write its files (" +
                          s.message() + ")",
                      std::errc::permission_denied);
}

Status Committer::RunImpl(const std::function<Status(ChangeSet&)>& stage) {
  if (StagingHere() || LookupScope::Active()) return Reentered();
  std::unique_lock<std::mutex> lock(mu_);
  FOLIO_RETURN_IF_ERROR(AcquireLocked());
  ++depth_;
  Status result;
  SeededIdScope ids;  // every run of `stage` gets the same seeded ids
  for (;;) {
    ids.Rewind();
    ChangeSet change;
    StagingContext ctx{this, false, t_staging};
    t_staging = &ctx;
    Status staged = stage(change);
    t_staging = ctx.outer;
    if (ctx.conflict) {
      // A read met a change still in flight: wait until it is applied, stage again.
      ++stats_.restaged;
      WaitApplied(conflicts_->highest_lsn.load());
      continue;
    }
    result = !staged.ok() || change.empty() ? staged : CommitLocked(change, lock);
    break;
  }
  --depth_;
  if (depth_ == 0) ReleaseIfIdleLocked();
  return result;
}

bool Committer::StagingHere() const {
  for (StagingContext* c = t_staging; c != nullptr; c = c->outer) {
    if (c->committer == this) return true;
  }
  return false;
}

Status Committer::Reentered() const {
  // A bug, never a state: a lookup reconciles nothing (docs/STORAGE.md §10, Rule R1),
  // and a change is never begun inside another's staging.
  if (LookupScope::Active()) {
    assert(!LookupScope::Asserts() && "a change begun inside a lookup");
    return RuntimeError("a change of repository '" + layout_.base() + "' was begun inside a lookup, which never writes");
  }
  return RuntimeError("a change of repository '" + layout_.base() +
                      "' was begun inside the staging of another on the same thread");
}

// Orders the record (lsn, place in the log), hands it to the group-commit leader, and
// waits until it is durable and applied. The staging mutex is let go while waiting, so
// the next change can be staged and share the sync.
Status Committer::CommitLocked(ChangeSet& change, std::unique_lock<std::mutex>& lock) {
  spilled_.clear();
  Status prepared = PrepareLocked(change);
  if (prepared.Is(std::errc::no_space_on_device)) {
    DropSpilledLocked();
    // A full disk may hold garbage that only waits for a checkpoint (a deleted
    // document's files): free it and try once more.
    if (FreeGarbage()) prepared = PrepareLocked(change);
  }
  if (!prepared.ok()) {
    DropSpilledLocked();  // written for a record that will not be
    return prepared;
  }
  spilled_.clear();  // the record owns them now: applying it consumes them
  const int64_t now = NowMs();
  {
    std::lock_guard<std::mutex> h(header_mu_);
    for (ChangeEvent& e : change.mutable_events()) {
      e.token = header_.next_token++;
      if (e.time_ms == 0) e.time_ms = now;
    }
  }
  if (!idle_thread_.joinable()) idle_thread_ = std::thread([this] { IdleLoop(); });
  auto p = std::make_shared<Pending>();
  p->lsn = next_lsn_;
  p->frame = RecordFrame(header_.epoch, p->lsn, change);
  if (tail_ + p->frame.size() > kLogInitialBytes && tail_ > kLogHeaderBytes) {
    // The log is full: apply everything in flight, checkpoint, start again at the top.
    WaitApplied(next_lsn_ - 1);
    FOLIO_RETURN_IF_ERROR(CheckpointLocked());
    p->lsn = next_lsn_;
    p->frame = RecordFrame(header_.epoch, p->lsn, change);
  }
  ++next_lsn_;
  p->offset = tail_;
  tail_ += p->frame.size();
  p->paths = change.TouchedPaths();
  p->made_dirs = change.MadeOnlyDirs();
  p->change = std::move(change);
  {
    std::lock_guard<std::mutex> c(conflicts_->mu);
    for (const std::string& path : p->paths) {
      conflicts_->paths.insert(path);
      conflicts_->parents.insert(ParentPath(path));
    }
    conflicts_->made_dirs.insert(p->made_dirs.begin(), p->made_dirs.end());
    conflicts_->highest_lsn = p->lsn;
  }
  {
    std::lock_guard<std::mutex> q(q_mu_);
    queue_.push_back(p);
  }
  lock.unlock();
  Status s;
  {
    // This thread now waits for the flush (its own as the group's leader, or another's)
    // and the group's apply: the server may start another worker meanwhile, so that
    // other connections' changes are staged and join the next group.
    const ScopedWait waiting;
    s = WaitDone(p);
  }
  lock.lock();
  return s;
}

// Group commit: the first waiter to find no leader becomes it and writes every queued
// record with one write and one fdatasync. Then each record is applied by its own
// waiting thread, in parallel with the others of the batch (a record that touches a
// path of an earlier one, or a directory above it, waits for that one first). The
// leader waits until all are applied, records their events in log order, advances the
// log header and wakes everyone.
Status Committer::WaitDone(const std::shared_ptr<Pending>& p) {
  std::unique_lock<std::mutex> q(q_mu_);
  while (!p->done) {
    if (p->durable && !p->applying) {
      ApplyOwn(*p, q);
      continue;
    }
    if (leader_active_ || p->batched) {
      p->cv.wait(q);
      continue;
    }
    leader_active_ = true;
    // The group: every record not yet in one (earlier groups may still be applying).
    std::vector<std::shared_ptr<Pending>> batch;
    for (const auto& b : queue_) {
      if (!b->batched) batch.push_back(b);
    }
    for (const auto& b : batch) {
      b->batched = true;
      b->leader = p.get();
    }
    OrderBatch(batch);
    q.unlock();
    const Status written = WriteBatch(batch);
    q.lock();
    for (const auto& b : batch) {
      b->durable = true;
      if (!written.ok()) {
        b->status = written;
        b->applying = b->applied = true;  // never applied: recovery completes the log
      }
      if (b != p) b->cv.notify_one();  // durable: its thread applies it
    }
    // The next group may be written and synced while this one is applied.
    ReleaseLeaderLocked();
    if (!p->applying) ApplyOwn(*p, q);
    // Groups finish in log order: every record of this one applied, and every earlier
    // group finished (then this group's first record is the oldest in the queue).
    p->cv.wait(q, [&] {
      return queue_.front() == batch.front() &&
             std::all_of(batch.begin(), batch.end(), [](const auto& b) { return b->applied; });
    });
    q.unlock();
    FinishBatch(batch, written);
    q.lock();
    // Under q_mu_, which the waiters hold while they look: a waiter woken early (or by
    // another leader) must not see `done` before its status is written (ThreadSanitizer
    // found `done` set without the lock).
    for (const auto& b : batch) b->done = true;
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
    for (const auto& b : batch) {
      if (b != p) b->cv.notify_one();
    }
    // The next group's leader may be waiting for this one to finish.
    if (!queue_.empty() && queue_.front()->leader != nullptr) queue_.front()->leader->cv.notify_one();
    q_cv_.notify_all();  // WaitApplied, WaitForWriters (no system call when none waits)
  }
  return p->status;
}

void Committer::ReleaseLeaderLocked() {
  leader_active_ = false;
  // The oldest record queued meanwhile leads the next group, which takes every record
  // queued by then. (A record queued later looks for itself when it starts waiting.)
  for (const auto& b : queue_) {
    if (!b->batched) {
      b->cv.notify_one();
      break;
    }
  }
  q_cv_.notify_all();  // a full-disk retry waiting for the leader's place
}

namespace {

// True when applying `a` and `b` in either order could differ: a common path, or one
// under the other (a directory made, renamed or removed above the other's file).
bool Overlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a) {
    for (const std::string& y : b) {
      if (x == y || IsUnder(x, y) || IsUnder(y, x)) return true;
    }
  }
  return false;
}

}  // namespace

void Committer::OrderBatch(const std::vector<std::shared_ptr<Pending>>& batch) {
  // Requires q_mu_. Every record before `batch` in the queue is of an earlier group.
  for (const auto& b : batch) {
    b->after.clear();
    for (const auto& earlier : queue_) {
      if (earlier == b) break;
      if (!earlier->applied && Overlap(b->paths, earlier->paths)) b->after.push_back(earlier);
    }
  }
}

Status Committer::WriteBatch(const std::vector<std::shared_ptr<Pending>>& batch) {
  // The records of a batch lie one after the other in the log.
  std::string frames;
  for (const auto& b : batch) frames += b->frame;
  Status s = log_->Write(batch.front()->offset, frames);
  if (s.ok()) s = log_->Sync();  // COMMIT POINT of every record in the batch
  if (s.ok()) {
    ++stats_.log_syncs;
    stats_.commits += batch.size();
  } else {
    VoidBatch(batch);
  }
  return s;
}

void Committer::VoidBatch(const std::vector<std::shared_ptr<Pending>>& batch) {
  // The frames may have reached the disk (a failed fdatasync says nothing of which
  // pages did), and a recovery would apply them: the requests were answered with the
  // error. Same lsns and lengths, so that the records after them still follow.
  uint64_t epoch;
  {
    std::lock_guard<std::mutex> h(header_mu_);
    epoch = header_.epoch;
  }
  std::string voids;
  for (const auto& b : batch) {
    std::string frame = VoidFrame(epoch, b->lsn, b->frame.size());
    if (frame.empty()) return;  // never: a record frame is longer than an empty one
    voids += frame;
  }
  Status s = log_->Write(batch.front()->offset, voids);
  if (s.ok()) s = log_->Sync();
  if (!s.ok()) return;  // a disk that keeps failing: recovery may complete them
  std::vector<std::string> unused;  // upload files only these records would have linked
  for (const auto& b : batch) {
    b->voided = true;
    AppendLinkedUploads(b->change, unused);
  }
  AddGarbage(unused);
}

void Committer::ApplyOwn(Pending& p, std::unique_lock<std::mutex>& q) {
  p.applying = true;
  p.cv.wait(q, [&] { return std::all_of(p.after.begin(), p.after.end(), [](const auto& a) { return a->applied; }); });
  q.unlock();
  // Applying reads through this committer's Fs; a thread whose change was begun inside
  // another committer's staging must not have that staging's conflict checks see this
  // record's own paths.
  StagingContext* staging = t_staging;
  t_staging = nullptr;
  Status s = ApplyFiles(p.change);
  t_staging = staging;
  q.lock();
  p.status = s;
  p.applied = true;
  // Who may wait for this record: its group's leader, the records that follow it.
  if (p.leader != nullptr && p.leader != &p) p.leader->cv.notify_one();
  for (const auto& b : queue_) {
    if (b->applying && !b->applied &&
        std::any_of(b->after.begin(), b->after.end(), [&](const auto& a) { return a.get() == &p; })) {
      b->cv.notify_one();
    }
  }
  q_cv_.notify_all();  // a full-disk retry waiting for every record applied
}

void Committer::FinishBatch(const std::vector<std::shared_ptr<Pending>>& batch, const Status& written) {
  if (written.ok()) {
    // A committed record whose apply failed is applied again at once, as recovery
    // would apply it, alone (no later group is written or applied meanwhile: its temp
    // files sit beside ours): after a transient error the request is then done, as
    // its answer says. On a full disk, the garbage of earlier changes (a deleted
    // document's files) may make room first.
    const auto retry = [&](const Pending& b) { return !b.status.ok() && !IsUnwritable(b.status); };
    if (!broken_ && std::any_of(batch.begin(), batch.end(), [&](const auto& b) { return retry(*b); })) {
      std::unique_lock<std::mutex> q(q_mu_);
      q_cv_.wait(q, [&] { return !leader_active_; });
      leader_active_ = true;
      q_cv_.wait(q, [&] {
        return std::all_of(queue_.begin(), queue_.end(), [](const auto& b) { return !b->durable || b->applied; });
      });
      q.unlock();
      std::optional<bool> freed;
      for (const auto& b : batch) {
        if (!retry(*b) || broken_) continue;
        if (b->status.Is(std::errc::no_space_on_device)) {
          if (!freed) freed = FreeGarbage();
          if (!*freed) continue;  // nothing freed: it would fail the same way
        }
        RemoveTempsBeside(b->change);
        b->status = ApplyFiles(b->change);
      }
      q.lock();
      ReleaseLeaderLocked();
    }
    // The events of the applied records, in log order, in one append.
    std::vector<ChangeEvent> events;
    for (const auto& b : batch) {
      if (!b->status.ok()) continue;
      events.insert(events.end(), b->change.events().begin(), b->change.events().end());
    }
    // Tried again once, as the files were (Append skips the events it holds already).
    Status logged = changes_.Append(events);
    if (!logged.ok() && !IsUnwritable(logged) && (!logged.Is(std::errc::no_space_on_device) || FreeGarbage())) {
      logged = changes_.Append(events);
    }
    for (const auto& b : batch) {
      if (b->status.ok() && !b->change.events().empty()) b->status = logged;
    }
  }
  for (const auto& b : batch) {
    if ((b->status.ok() || b->voided) && !broken_) {
      // Applied, or void in the log: recovery need not look at it again.
      std::lock_guard<std::mutex> h(header_mu_);
      header_.applied_lsn = b->lsn;
      header_.applied_end = b->offset + b->frame.size();
    } else {
      // Committed but not fully applied (or not written): recovery applies it again
      // (and the records after it) before the next change or checkpoint.
      broken_ = true;
    }
  }
  if (!broken_) {
    std::lock_guard<std::mutex> h(header_mu_);
    (void)log_->WriteHeader(header_);
  }
  {
    std::lock_guard<std::mutex> c(conflicts_->mu);
    for (const auto& b : batch) {
      for (const std::string& path : b->paths) {
        conflicts_->paths.erase(conflicts_->paths.find(path));
        conflicts_->parents.erase(conflicts_->parents.find(ParentPath(path)));
      }
      for (const std::string& dir : b->made_dirs) conflicts_->made_dirs.erase(conflicts_->made_dirs.find(dir));
    }
  }
  applied_lsn_.store(batch.back()->lsn);
  last_commit_ns_.store(std::chrono::steady_clock::now().time_since_epoch().count());
}

void Committer::WaitApplied(uint64_t lsn) {
  std::unique_lock<std::mutex> q(q_mu_);
  q_cv_.wait(q, [&] { return applied_lsn_.load() >= lsn || (queue_.empty() && !leader_active_); });
}

void Committer::WaitForWriters() {
  // A staging on this thread holds the locks itself: what it reads is consistent.
  for (StagingContext* c = t_staging; c != nullptr; c = c->outer) {
    if (c->committer == this) return;
  }
  {
    std::unique_lock<std::mutex> q(q_mu_);
    q_cv_.wait(q, [&] { return queue_.empty() && !leader_active_; });
  }
  {
    // Staging in this process.
    std::lock_guard<std::mutex> lock(mu_);
  }
  // Another process's change: its lock, briefly shared (a read-only filesystem has
  // no lock file and no writer).
  auto shared = fs_.Lock(layout_.LockFile(), LockMode::kShared);
  (void)shared;
}

Status Committer::Checkpoint() {
  if (options_.read_only) return OkStatus();
  std::unique_lock<std::mutex> lock(mu_);
  FOLIO_RETURN_IF_ERROR(AcquireLocked());
  WaitApplied(next_lsn_ - 1);
  Status s = CheckpointLocked();
  ReleaseIfIdleLocked();
  lock.unlock();
  if (s.ok()) RemoveTrash();
  return s;
}

Status Committer::CheckpointLocked() {
  if (broken_) {
    // Something was committed but not applied: apply it first (from the header on).
    broken_ = false;
    FOLIO_RETURN_IF_ERROR(RecoverLocked());
  }
  // Every applied change becomes durable; then the log can start over.
  FOLIO_RETURN_IF_ERROR(SyncApplied());
  {
    std::lock_guard<std::mutex> h(header_mu_);
    header_.epoch += 1;
    header_.applied_lsn = 0;
    header_.applied_end = kLogHeaderBytes;
    header_.boot_id = fs_.BootId();
    FOLIO_RETURN_IF_ERROR(log_->WriteHeader(header_));
  }
  FOLIO_RETURN_IF_ERROR(log_->Sync());
  tail_ = kLogHeaderBytes;
  next_lsn_ = 1;
  applied_lsn_ = 0;
  ++stats_.checkpoints;
  return OkStatus();
}

void Committer::AddGarbage(const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  std::lock_guard<std::mutex> lock(trash_mu_);
  garbage_pending_.insert(garbage_pending_.end(), paths.begin(), paths.end());
}

Status Committer::SyncApplied() {
  std::lock_guard<std::mutex> sync(sync_mu_);
  std::vector<std::string> garbage;
  {
    std::lock_guard<std::mutex> lock(trash_mu_);
    garbage = garbage_pending_;  // what was applied before the sync
  }
  FOLIO_RETURN_IF_ERROR(fs_.SyncAll());
  std::lock_guard<std::mutex> lock(trash_mu_);
  // Only appended to meanwhile (sync_mu_ keeps out another SyncApplied).
  garbage_pending_.erase(garbage_pending_.begin(), garbage_pending_.begin() + garbage.size());
  garbage_durable_.insert(garbage_durable_.end(), garbage.begin(), garbage.end());
  return OkStatus();
}

bool Committer::FreeGarbage() {
  // Spares first: they are garbage at any time (storage/spare_pool.h).
  const bool had_spares = spares_.size() > 0;
  if (had_spares) spares_.Clear(fs_);
  {
    std::lock_guard<std::mutex> lock(trash_mu_);
    if (garbage_pending_.empty() && garbage_durable_.empty()) return had_spares;
  }
  // Pending garbage may go once the changes that made it are durable: sync them now
  // rather than wait for the next checkpoint (the log itself stays as it is).
  if (!SyncApplied().ok()) return false;
  RemoveTrash();
  return true;
}

void Committer::RemoveTrash() {
  std::vector<std::string> garbage;
  {
    std::lock_guard<std::mutex> lock(trash_mu_);
    garbage.swap(garbage_durable_);
  }
  for (const std::string& g : garbage) (void)fs_.RemoveTree(g);
}

void Committer::SweepTrashDir() {
  // Everything in trash/ belongs to records already applied (only the lock's holder
  // renames into it, and it holds the lock now): a process that stopped before its
  // idle sweep left it behind.
  trash_swept_ = true;
  auto entries = fs_.List(layout_.TrashDir());
  if (!entries.ok()) return;
  std::vector<std::string> paths;
  for (const DirEntry& e : *entries) paths.push_back(JoinPath(layout_.TrashDir(), e.name));
  if (tail_ > kLogHeaderBytes) {
    AddGarbage(paths);  // their records may not be durable yet: after the next checkpoint
  } else {
    std::lock_guard<std::mutex> lock(trash_mu_);
    garbage_durable_.insert(garbage_durable_.end(), paths.begin(), paths.end());
  }
}

Result<uint64_t> Committer::NextToken() {
  // The change log on disk is what every process sees.
  FOLIO_ASSIGN_OR_RETURN(uint64_t last, changes_.LastToken());
  return last + 1;
}

CommitterStats Committer::stats() const {
  CommitterStats out;
  out.commits = stats_.commits;
  out.log_syncs = stats_.log_syncs;
  out.checkpoints = stats_.checkpoints;
  out.recovered = stats_.recovered;
  out.restaged = stats_.restaged;
  out.spares_reused = spares_.reused();
  out.spares_retired = spares_.retired();
  out.spares_made = spares_.made();
  return out;
}

// Checkpoints a repository that has fallen idle with records in its log (so the log is
// empty at rest and the dirty files reach the disk in the background), and removes
// trashed trees.
void Committer::IdleLoop() {
  std::unique_lock<std::mutex> q(q_mu_);
  while (!stopping_) {
    idle_cv_.wait_for(q, options_.idle_checkpoint);
    if (stopping_) break;
    // A change in flight is not idle (the first one has no commit time yet: counted as
    // idle, it was checkpointed in the middle, its garbage removed early). One being
    // staged holds mu_, which the checkpoint below only tries to take.
    if (!queue_.empty() || leader_active_) continue;
    q.unlock();
    const auto idle_for = std::chrono::steady_clock::now().time_since_epoch().count() - last_commit_ns_.load();
    if (idle_for >= std::chrono::duration_cast<std::chrono::nanoseconds>(options_.idle_checkpoint).count()) {
      std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
      if (lock.owns_lock() && tail_ > kLogHeaderBytes && AcquireLocked().ok()) {
        WaitApplied(next_lsn_ - 1);
        (void)CheckpointLocked();
        spares_.Trim(fs_, options_.idle_spares);
        ReleaseIfIdleLocked();
      }
    }
    RemoveTrash();
    q.lock();
  }
}

Result<std::unique_ptr<ReadableFile>> ConflictCheckingFs::Open(const std::string& p) {
  Committer::CheckConflict(p, false);
  return reads_.Open(p);
}
Result<std::unique_ptr<Directory>> ConflictCheckingFs::OpenDirectory(const std::string& p) {
  Committer::CheckConflict(p, true);
  return reads_.OpenDirectory(p);
}
Result<std::vector<DirEntry>> ConflictCheckingFs::List(const std::string& d) {
  Committer::CheckConflict(d, true);
  LookOnce* once = Committer::InStaging() ? nullptr : LookOnce::Current();
  if (once == nullptr) return reads_.List(d);
  return once->List(this, d, [&] { return reads_.List(d); });
}
Result<FileStat> ConflictCheckingFs::Stat(const std::string& p) {
  Committer::CheckConflict(p, false);
  LookOnce* once = Committer::InStaging() ? nullptr : LookOnce::Current();
  if (once == nullptr) return reads_.Stat(p);
  return once->Stat(this, p, false, [&] { return reads_.Stat(p); });
}
Result<FileStat> ConflictCheckingFs::IdentityStat(const std::string& p) {
  Committer::CheckConflict(p, false);
  LookOnce* once = Committer::InStaging() ? nullptr : LookOnce::Current();
  if (once == nullptr) return reads_.IdentityStat(p);
  return once->Stat(this, p, true, [&] { return reads_.IdentityStat(p); });
}

}  // namespace folio::storage
