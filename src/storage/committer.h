// How a change reaches the disk (docs/STORAGE.md §8): every change to a repository is
// staged in memory as a ChangeSet, written as one redo record to the commit log and made
// durable with one fdatasync (the commit point), then applied to the files without any
// further sync. Concurrent changes share that sync (group commit). A checkpoint, when
// the log fills or the repository falls idle, syncs the whole filesystem once and
// empties the log. After a crash the next writer re-applies the records that may not
// have reached the files: all of them after a restart of the machine (the page cache is
// gone), only those after the last one applied otherwise.
//
// Owns Rule C1 (docs/STORAGE.md §10): a change is one record, applied entirely or not
// at all, and a request answered with an error changed nothing (its record is voided).
// Owns Rule R1's bookkeeping: a read-only repository's adoptions stay in memory.
//
// Exclusion: changes to one repository are serialised while they are staged, across
// threads (a mutex) and processes (an flock on `.folio/lock`, held while this process
// has a change in flight). A change that is being logged or applied is invisible to
// the staging of the next one only if they touch different paths: a staging that reads
// a path of a change still in flight waits for it and is staged again.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "folio/fs.h"
#include "storage/change_log_store.h"
#include "storage/change_set.h"
#include "storage/commit_log.h"
#include "storage/layout.h"
#include "storage/overlay_fs.h"
#include "storage/spare_pool.h"

namespace folio::storage {

struct CommitterOptions {
  bool read_only = false;  // every change refused (kPermissionDenied)
  // The caller holds the repository's file lock (exclusive) for the committer's whole
  // life, and the committer takes none (fsck's repairs: a second flock of the same file
  // in one process would wait for ever). No other committer of this process may run.
  bool lock_held = false;
  // Put bytes larger than this are written to an upload file (synced) before the
  // record, which then links it: the log holds small content only.
  size_t inline_limit = 64 * 1024;
  // A checkpoint runs when the log holds this much, and when the repository has been
  // idle this long with records in the log.
  uint64_t checkpoint_bytes = 768 * 1024;
  std::chrono::milliseconds idle_checkpoint{1000};
  ChangeLogLimits change_log;
  // Told of the events each change appends to the change log (ChangeLogListener).
  ChangeLogListener on_events;
  // Told of every JSON record a change of this process put in place (see
  // ApplyOptions::on_json_written), on the thread that applies it.
  std::function<void(const std::string& path, const FileStat& st, std::shared_ptr<const Json> value)>
      on_json_written;
  // The inodes of replaced and removed records, kept for reuse (storage/spare_pool.h).
  SparePoolOptions spares;
  // Spares kept once the repository falls idle (the idle checkpoint removes the rest).
  size_t idle_spares = 256;
};

// What one process observed; for tests and benchmarks (syscall counts).
struct CommitterStats {
  uint64_t commits = 0;      // records written
  uint64_t log_syncs = 0;    // fdatasyncs of the log (< commits under group commit)
  uint64_t checkpoints = 0;
  uint64_t recovered = 0;    // records re-applied by recovery
  uint64_t restaged = 0;     // stagings run again after a conflict with a change in flight
  uint64_t spares_reused = 0;   // files written in a spare instead of a new inode
  uint64_t spares_retired = 0;  // replaced or removed records kept as spares
  uint64_t spares_made = 0;     // new files made as spares when none was ready
};

struct ConflictSet;
struct StagingContext;

class Committer {
 public:
  Committer(Fs& fs, RepoLayout layout, CommitterOptions options = {});
  // Stops the idle checkpointer and checkpoints (a writer), so that the log is empty
  // at rest.
  ~Committer();
  Committer(const Committer&) = delete;
  Committer& operator=(const Committer&) = delete;

  // For a writer: takes the lock once and completes what a dead process left. Errors:
  // kStorage.
  Status Open();

  // Runs `stage`, which reads the repository and fills a change set, with the other
  // writers excluded; then commits what it staged (nothing if empty) and returns once it
  // is durable and applied. `stage` may run more than once (after a conflict with a
  // change in flight) and must only read and fill its change set. Not re-entrant: a
  // `stage` never calls Run or RunBookkeeping of this committer, and no lookup does
  // (storage/lookup_scope.h): both are refused with kRuntime (and an assertion in a
  // debug build); reconciling hand edits is done before, by the repository's facade.
  // Errors: those of `stage` (nothing is written);
  // kPermissionDenied when read-only; kStorage when the disk fails: then the change is
  // not made (its record in the log is voided, docs/STORAGE.md §8.3; a failed apply or
  // change-log append after the commit point is tried once more, and answered by that),
  // except on a disk that keeps failing, where a record that reached the log may be
  // completed by the next writer or by fsck --repair; kStorage with cause
  // read_only_file_system and a message naming the repository on a read-only mount,
  // with cause permission_denied and one saying so where this process may not write.
  Status Run(const std::function<Status(ChangeSet&)>& stage);

  // Bookkeeping that a reader needs done (adopting files made by hand, docs/STORAGE.md
  // §9): as Run for a writable repository; for a read-only one (the option, or a
  // filesystem Open found read-only) the change is applied to `overlay` only (see
  // set_overlay): this process sees it, nothing is written, no event is recorded.
  // Errors: those of `stage`; kStorage; kStorage with cause not_enough_memory when the
  // overlays of the process would hold more than their limit (OverlayFs::CheckRoom).
  Status RunBookkeeping(const std::function<Status(ChangeSet&)>& stage);
  // Requires: `overlay` (an OverlayFs above this committer's Fs) outlives the committer.
  void set_overlay(OverlayFs* overlay) { overlay_ = overlay; }

  // Waits until no change of this process is in flight and no other process holds the
  // write lock: for a reader that found a file gone in the middle of a change, before
  // it reads again.
  void WaitForWriters();

  // Syncs every applied change and empties the log; then removes what those changes
  // made garbage (trashed trees, consumed uploads). Errors: kStorage.
  Status Checkpoint();

  ChangeLogStore& change_log() { return changes_; }
  // The token the next change event will get (the newest is one less).
  Result<uint64_t> NextToken();
  CommitterStats stats() const;
  // Changes this process has applied to the files (or, read-only, to the overlay) so
  // far, counted once each is applied (or failed to be): a reader that saw the same
  // count before and after reading saw no change of this process applied meanwhile.
  uint64_t changes_applied() const { return changes_applied_.load(std::memory_order_acquire); }
  bool read_only() const { return options_.read_only; }
  // True once a change failed because the filesystem is read-only (EROFS) or this
  // process may not write the files (EACCES, EPERM), at Open or later: reads are
  // served, every write fails with kStorage naming that cause (and is tried: the
  // filesystem may be remounted writable), bookkeeping stays in memory.
  bool on_read_only_fs() const { return read_only_fs_; }
  // True for the errors that put a committer in that state.
  static bool IsUnwritable(const Status& s);

  // Called by ConflictCheckingFs for every read: true (and the staging on this thread
  // is marked to run again) when the staging running on this thread reads `path` while
  // a committed change that writes it, or renames or removes a directory above it (or,
  // `listing`, a child of it), is not yet applied. (A directory a change only makes is
  // no conflict for what is below it.) Cheap when no staging runs on this thread.
  static bool CheckConflict(const std::string& path, bool listing);
  // True on a thread that runs a staging (the `stage` of Run or RunBookkeeping): its
  // reads are to go to the filesystem, where CheckConflict sees them, not to a cache
  // validated by a stat alone.
  static bool InStaging();

 private:
  struct Pending;

  Status RunImpl(const std::function<Status(ChangeSet&)>& stage);
  // True on a thread that runs a staging (the `stage` of Run or RunBookkeeping) of this
  // committer.
  bool StagingHere() const;
  // kRuntime: a change begun inside a staging of this committer, or inside a lookup.
  Status Reentered() const;
  Status AcquireLocked();        // requires mu_
  void ReleaseIfIdleLocked();    // requires mu_
  Status RecoverLocked();        // requires mu_ and the file lock
  Status PrepareLocked(ChangeSet& change);
  void DropSpilledLocked();  // requires mu_
  void RemoveTempsBeside(const ChangeSet& change);
  // Appends to `out` the upload files `change` links into place (uploads/).
  void AppendLinkedUploads(const ChangeSet& change, std::vector<std::string>& out) const;
  Status CommitLocked(ChangeSet& change, std::unique_lock<std::mutex>& lock);
  Status WaitDone(const std::shared_ptr<Pending>& p);
  // The leader's steps: which records of the batch must wait for which (same paths);
  // the write and sync of the batch (the commit point); after every record is applied,
  // their events, the log header, the conflict set.
  void OrderBatch(const std::vector<std::shared_ptr<Pending>>& batch);
  Status WriteBatch(const std::vector<std::shared_ptr<Pending>>& batch);
  // After the batch's write or sync failed: overwrites its frames with void records
  // and syncs, marking each record `voided`; when that fails too, leaves them (the
  // next recovery may then apply them). Requires the leader's place.
  void VoidBatch(const std::vector<std::shared_ptr<Pending>>& batch);
  void FinishBatch(const std::vector<std::shared_ptr<Pending>>& batch, const Status& written);
  // Applies `p`'s files on the calling thread (its own), once the records it must
  // follow are applied. Requires q_mu_ held by `q`; lets it go while applying.
  void ApplyOwn(Pending& p, std::unique_lock<std::mutex>& q);
  // Lets the leader's place go and wakes a record that may take it. Requires q_mu_.
  void ReleaseLeaderLocked();
  void WaitApplied(uint64_t lsn);
  // A record's files and its events (recovery: one record at a time, in order).
  // `replayed`: recovery's (ApplyOptions::replayed), null otherwise.
  Status ApplyRecord(const ChangeSet& change, std::set<std::string>* replayed = nullptr);
  // A record's files only; the batch path appends the events of a batch in order.
  Status ApplyFiles(const ChangeSet& change, std::set<std::string>* replayed = nullptr);
  Status CheckpointLocked();     // requires mu_, the file lock, nothing in flight
  Status EnsureLogLocked();
  // Removes the garbage a checkpoint has made safe to remove.
  void RemoveTrash();
  // On a full disk: syncs what is applied (so every queued garbage is safe to remove)
  // and removes all of it. False when there was none (nothing would change). Requires
  // this process to hold the file lock; staging may run meanwhile (garbage is never
  // read).
  bool FreeGarbage();
  // Syncs the filesystem; the garbage queued before it is then durable garbage.
  Status SyncApplied();
  // Queues what earlier processes left in trash/ for removal (lock held).
  void SweepTrashDir();
  // Queues `paths` for removal once a checkpoint has made their changes durable.
  void AddGarbage(const std::vector<std::string>& paths);
  void IdleLoop();

  Fs& fs_;
  RepoLayout layout_;
  CommitterOptions options_;
  ChangeLogStore changes_;
  std::unique_ptr<ConflictSet> conflicts_;
  SparePool spares_;
  OverlayFs* overlay_ = nullptr;
  std::atomic<bool> read_only_fs_{false};

  std::mutex mu_;  // staging; the log's tail; lsn assignment (never re-entered)
  int depth_ = 0;  // Run calls in progress (all threads); guarded by mu_
  std::unique_ptr<FileLock> file_lock_;
  std::unique_ptr<CommitLog> log_;
  uint64_t tail_ = kLogHeaderBytes;  // where the next record goes; guarded by mu_
  uint64_t next_lsn_ = 1;            // guarded by mu_
  // The log header's version when this process last let the file lock go: if it is
  // unchanged at the next acquisition, no other process wrote meanwhile. Guarded by mu_.
  std::optional<uint64_t> released_version_;
  std::vector<std::string> spilled_; // uploads PrepareLocked wrote for the record in hand

  std::mutex header_mu_;  // header_ and log_'s header slots
  LogHeader header_;

  std::mutex q_mu_;  // queue_, leader_active_, stopping_
  std::condition_variable q_cv_;
  // The idle checkpointer's own: woken only to stop (a wait on q_cv_ would wake it at
  // every step of every group commit, for nothing).
  std::condition_variable idle_cv_;
  std::deque<std::shared_ptr<Pending>> queue_;
  bool leader_active_ = false;
  bool stopping_ = false;
  std::atomic<uint64_t> applied_lsn_{0};
  std::atomic<uint64_t> changes_applied_{0};
  std::atomic<bool> broken_{false};  // a record was committed but not fully applied
  std::atomic<int64_t> last_commit_ns_{0};

  std::mutex sync_mu_;   // one SyncApplied at a time
  std::mutex trash_mu_;
  // Directories renamed into trash/ and upload files linked into place. Removing one
  // before the change that made it garbage is durable could lose data on a filesystem
  // that reorders metadata: a power loss could keep the removal and drop the rename or
  // link. So they wait in `garbage_pending_` until a checkpoint has synced everything.
  std::vector<std::string> garbage_pending_;
  std::vector<std::string> garbage_durable_;
  bool trash_swept_ = false;        // trash/ left by an earlier process was emptied

  struct AtomicStats {
    std::atomic<uint64_t> commits{0}, log_syncs{0}, checkpoints{0}, recovered{0}, restaged{0};
  } stats_;

  std::thread idle_thread_;
};

// The Fs the engine reads and stages through: reads go to `reads` (an OverlayFs above
// the disk: what a read-only repository adopted in memory, then the disk) and are
// checked with Committer::CheckConflict while a staging runs on the calling thread;
// every changing call goes to `writes` (the disk itself).
class ConflictCheckingFs : public Fs {
 public:
  ConflictCheckingFs(Fs& reads, Fs& writes) : reads_(reads), writes_(writes) {}
  explicit ConflictCheckingFs(Fs& inner) : ConflictCheckingFs(inner, inner) {}

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& p) override;
  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& p) override;
  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& p) override { return writes_.CreateNew(p); }
  Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& p) override {
    return writes_.OpenToRewrite(p);
  }
  Status Rename(const std::string& a, const std::string& b) override { return writes_.Rename(a, b); }
  Status Exchange(const std::string& a, const std::string& b) override { return writes_.Exchange(a, b); }
  Status RenameNoReplace(const std::string& a, const std::string& b) override {
    return writes_.RenameNoReplace(a, b);
  }
  Status SyncDir(const std::string& d) override { return writes_.SyncDir(d); }
  Result<std::vector<DirEntry>> List(const std::string& d) override;
  Status MakeDir(const std::string& p) override { return writes_.MakeDir(p); }
  Status Remove(const std::string& p) override { return writes_.Remove(p); }
  Status RemoveTree(const std::string& p) override { return writes_.RemoveTree(p); }
  Result<FileStat> Stat(const std::string& p) override;
  Result<FileStat> IdentityStat(const std::string& p) override;
  Result<std::unique_ptr<FileLock>> Lock(const std::string& p, LockMode m) override { return writes_.Lock(p, m); }
  Status Link(const std::string& a, const std::string& b) override { return writes_.Link(a, b); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& p) override {
    return writes_.OpenRandomAccess(p);
  }
  Status SyncAll() override { return writes_.SyncAll(); }
  std::string BootId() override { return writes_.BootId(); }
  std::string Describe(const std::string& p) const override { return writes_.Describe(p); }

 private:
  Fs& reads_;
  Fs& writes_;
};

}  // namespace folio::storage
