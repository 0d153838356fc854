// fsck --repair: the order of the repairs and the locks they hold; see repair.h.
#include "fsck/repair.h"

#include <set>

#include "fsck/checks.h"
#include "fsck/repair_actions.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/committer.h"
#include "storage/journal.h"

namespace folio::fsck {
namespace {

using Kind = Action::Kind;

bool HasAction(const Problems& problems, std::initializer_list<Kind> kinds) {
  for (const Problem& p : problems) {
    for (Kind k : kinds) {
      if (p.action.kind == k) return true;
    }
  }
  return false;
}

const char* IndexRepairText(const Finding& f) {
  if (f.id == kIndexEntryMissing.id) return "wrote the entry";
  if (f.id == kIndexEntryDangling.id) return "removed the entry";
  return "rewrote the entry from the tree";
}

Result<std::string> Execute(Fs& fs, const RepoFacts& facts, const Action& a, LostFound& lost) {
  switch (a.kind) {
    case Kind::kRemove: return RemovePath(fs, a.path);
    case Kind::kMoveToLostFound: return MoveToLostFound(fs, lost, facts.layout, a.path);
    case Kind::kAbsorb: return AbsorbVisibleFile(fs, lost, facts, a.object);
    case Kind::kSetContentLength: return SetContentLength(fs, a.path, a.size);
    case Kind::kClearCheckOut: return ClearCheckOut(fs, a.path);
    case Kind::kWriteRootFolder: return WriteRootFolder(fs, facts);
    case Kind::kWriteMarker: return WriteMarker(fs, facts.layout, a.path);
    case Kind::kWriteFolderMarker: return WriteFolderMarker(fs, a.path, a.object);
    case Kind::kRebuildVersionRecord: return RebuildVersionRecord(fs, facts, a.path, a.object);
    case Kind::kRemoveMarker: return RemovePath(fs, a.path);
    case Kind::kDropAdoptedEntry: return DropAdoptedEntry(fs, facts, a.path, a.object);
    case Kind::kDropAdoptedDuplicates: return DropAdoptedDuplicates(fs, facts, a.path, a.object);
    case Kind::kForgetAdoptedFolder: return ForgetAdoptedFolder(fs, facts, a.path);
    case Kind::kAbsorbAdopted: return AbsorbAdoptedFile(fs, facts, a.path, a.object);
    default: return std::string();
  }
}

// Walks and checks the repository afresh, then carries out the actions of `kinds`.
// Returns true if anything was done.
bool Step(Fs& fs, const std::string& base, bool compare_bytes, const std::set<Kind>& kinds, LostFound& lost,
          RepairLog& log) {
  const RepoFacts facts = WalkRepository(fs, base);
  const Problems problems = CheckRepository(fs, facts, compare_bytes);
  bool progress = false, rebuild = false;
  for (const Problem& p : problems) {
    if (!kinds.count(p.action.kind)) continue;
    if (p.action.kind == Kind::kRebuildIndex) {
      rebuild = true;
      continue;
    }
    auto done = Execute(fs, facts, p.action, lost);
    if (!done.ok()) {
      log.Failed(p, done.status());
    } else if (!done->empty()) {
      log.Done(p, *done);
      progress = true;
    }
  }
  if (rebuild) {
    const Status s = RebuildIndex(fs, facts);
    for (const Problem& p : problems) {
      if (p.action.kind != Kind::kRebuildIndex) continue;
      if (s.ok()) {
        log.Done(p, IndexRepairText(p.finding));
      } else {
        log.Failed(p, s);
      }
    }
    progress = progress || s.ok();
  }
  return progress;
}

// Sets unreadable journal records aside and completes the others, under the lock.
// Returns false if the journal could not be completed.
bool RepairJournal(Fs& fs, const storage::RepoLayout& layout, const Problems& problems, LostFound& lost,
                   RepairLog& log) {
  auto lock = fs.Lock(layout.LockFile());
  if (!lock.ok()) return false;
  const std::unique_ptr<FileLock> held = std::move(*lock);
  for (const Problem& p : problems) {
    if (p.finding.id != kJournalPending.id || p.action.kind != Kind::kMoveToLostFound) continue;
    auto moved = MoveToLostFound(fs, lost, layout, p.action.path);
    if (!moved.ok()) {
      log.Failed(p, moved.status());
      return false;
    }
    log.Done(p, *moved + " (it cannot be completed)");
  }
  auto recovered = storage::RecoverJournal(fs, layout.JournalDir());
  for (const Problem& p : problems) {
    if (p.action.kind != Kind::kCompleteJournal) continue;
    if (recovered.ok()) {
      log.Done(p, "completed the change");
    } else {
      log.Failed(p, recovered.status());
    }
  }
  return recovered.ok();
}

// Applies the commit log's pending records and empties the log, as the next writer
// would (an unreadable log is set aside first, and a new one made).
bool RepairCommitLog(Fs& fs, const storage::RepoLayout& layout, const Problems& problems, LostFound& lost,
                     RepairLog& log) {
  for (const Problem& p : problems) {
    if (p.finding.id != kLogUnreadable.id) continue;
    auto lock = fs.Lock(layout.LockFile());
    if (!lock.ok()) return false;
    auto moved = MoveToLostFound(fs, lost, layout, p.action.path);
    if (!moved.ok()) {
      log.Failed(p, moved.status());
      return false;
    }
    log.Done(p, *moved);
  }
  Status s;
  {
    storage::Committer committer(fs, layout);
    s = committer.Open();
    if (s.ok()) s = committer.Checkpoint();
  }
  for (const Problem& p : problems) {
    if (p.finding.id != kLogPending.id) continue;
    if (s.ok()) {
      log.Done(p, "applied the pending changes");
    } else {
      log.Failed(p, s);
    }
  }
  return s.ok();
}

// Everything but adoption, under the repository's write lock, each step on a fresh walk:
// what is set aside and corrected in place, or (`derived`) what is derived from it.
bool RepairUnderLock(Fs& fs, const std::string& base, LostFound& lost, RepairLog& log, bool compare_bytes,
                     bool derived) {
  const storage::RepoLayout layout(base);
  auto lock = fs.Lock(layout.LockFile());
  if (!lock.ok()) return false;
  const std::unique_ptr<FileLock> held = std::move(*lock);
  if (!storage::RecoverJournal(fs, layout.JournalDir()).ok()) return false;
  bool progress = false;
  if (derived) {
    // 3. What is derived from the records: markers and the id index. After the engine
    //    has recorded the deletion of what is gone (ForgetThroughEngine): a folder marker
    //    naming a folder removed by hand goes only then.
    return Step(fs, base, false,
                {Kind::kWriteMarker, Kind::kRemoveMarker, Kind::kWriteFolderMarker, Kind::kRebuildIndex}, lost, log);
  }
  // 1. What goes (temp files, trash, old uploads), what is set aside, hand edits the
  //    engine did not take, and adoption table entries that do not stand.
  progress |= Step(fs, base, compare_bytes,
                   {Kind::kRemove, Kind::kMoveToLostFound, Kind::kAbsorb, Kind::kDropAdoptedEntry,
                    Kind::kDropAdoptedDuplicates, Kind::kForgetAdoptedFolder, Kind::kAbsorbAdopted},
                   lost, log);
  // 2. Records corrected in place.
  progress |= Step(fs, base, false,
                   {Kind::kSetContentLength, Kind::kClearCheckOut, Kind::kWriteRootFolder, Kind::kRebuildVersionRecord},
                   lost, log);
  return progress;
}

}  // namespace

std::string FindingKey(const Finding& f) { return f.id + "\n" + f.path; }

void RepairLog::Done(const Problem& p, std::string what) {
  const std::string key = FindingKey(p.finding);
  if (!done_.count(key)) order_.push_back(key);
  Finding f = p.finding;
  f.repair = std::move(what);
  done_[key] = std::move(f);
  failed_.erase(key);
}

void RepairLog::Failed(const Problem& p, const Status& why) { failed_[FindingKey(p.finding)] = why.message(); }

std::vector<Finding> RepairLog::done() const {
  std::vector<Finding> out;
  for (const std::string& key : order_) out.push_back(done_.at(key));
  return out;
}

std::string RepairLog::failure(const Finding& f) const {
  auto it = failed_.find(FindingKey(f));
  return it == failed_.end() ? "" : it->second;
}

void RepairData(Fs& fs, LostFound& lost, RepairLog& log) {
  auto facts = WalkData(fs);
  if (!facts.ok()) return;
  Problems problems = CheckData(*facts);
  Append(problems, CheckAccounts(fs, *facts));
  if (!HasAction(problems, {Kind::kRemove, Kind::kWriteDataMeta, Kind::kCompleteJournal, Kind::kCompleteLog,
                            Kind::kMoveToLostFound})) {
    return;
  }
  if (HasAction(problems, {Kind::kWriteDataMeta})) (void)storage::EnsureDir(fs, storage::ServerMetaDir());
  // The lock of domain and repository creation and deletion, whose leftovers these are.
  auto lock = fs.Lock(storage::ServerLockFile());
  if (!lock.ok()) return;
  const std::unique_ptr<FileLock> held = std::move(*lock);
  // Unreadable journal records of a domain first: recovery refuses the domain's journal
  // while one is there.
  for (const Problem& p : problems) {
    if (p.finding.id != kDomainJournalPending.id || p.action.kind != Kind::kMoveToLostFound) continue;
    const std::string domain = storage::ParentPath(storage::ParentPath(storage::ParentPath(p.action.path)));
    auto domain_lock = fs.Lock(storage::DomainLockFile(domain));
    auto moved = domain_lock.ok() ? MoveToLostFound(fs, lost, storage::DomainCommitLayout(domain), p.action.path)
                                  : Result<std::string>(domain_lock.status());
    if (moved.ok()) {
      log.Done(p, *moved + " (it cannot be completed)");
    } else {
      log.Failed(p, moved.status());
    }
  }
  for (const Problem& p : problems) {
    if (p.action.kind == Kind::kRemove) {
      auto done = RemovePath(fs, p.action.path);
      if (!done.ok()) log.Failed(p, done.status());
      if (done.ok() && !done->empty()) log.Done(p, *done);
    } else if (p.action.kind == Kind::kCompleteJournal) {
      // A domain's users and groups: completed under the domain's lock, as Folio does.
      const std::string journal = storage::ParentPath(p.action.path);
      const std::string domain = storage::ParentPath(storage::ParentPath(journal));
      auto domain_lock = fs.Lock(storage::DomainLockFile(domain));
      Status s = domain_lock.ok() ? storage::RecoverJournal(fs, journal).status() : domain_lock.status();
      if (s.ok()) {
        log.Done(p, "completed the change");
      } else {
        log.Failed(p, s);
      }
    } else if (p.action.kind == Kind::kCompleteLog) {
      // A domain's users and groups: applied and checkpointed as its next writer would.
      const std::string domain = storage::ParentPath(storage::ParentPath(p.action.path));
      Status s;
      {
        storage::Committer committer(fs, storage::DomainCommitLayout(domain));
        s = committer.Open();
        if (s.ok()) s = committer.Checkpoint();
      }
      if (s.ok()) {
        log.Done(p, "applied the pending changes");
      } else {
        log.Failed(p, s);
      }
    } else if (p.action.kind == Kind::kWriteDataMeta) {
      const storage::Json meta{{"format", 1}, {"created", storage::FormatIsoMs(storage::NowMs())}};
      Status s = storage::WriteJsonAtomically(fs, p.finding.path, meta);
      if (s.ok()) {
        log.Done(p, "wrote it");
      } else {
        log.Failed(p, s);
      }
    }
  }
}

void RepairRepository(Fs& fs, const std::string& base, LostFound& lost, RepairLog& log) {
  const storage::RepoLayout layout(base);
  for (int round = 0; round < 4; ++round) {
    const RepoFacts facts = WalkRepository(fs, base);
    // A repository Folio cannot open is left as it is, for a person to look at.
    if (!CheckRepositoryMeta(facts).empty()) return;
    const Problems problems = CheckRepository(fs, facts, /*compare_bytes=*/true);
    bool any = false, journal = false, commit_log = false;
    for (const Problem& p : problems) {
      if (p.action.kind == Kind::kNone || p.action.kind == Kind::kRebuildQueryIndex) continue;
      any = true;
      if (p.finding.id == kJournalPending.id) journal = true;
      if (p.finding.id == kLogPending.id || p.finding.id == kLogUnreadable.id) commit_log = true;
    }
    // The query index is derived from everything else: rebuilt last, from repaired files.
    if (!any) {
      RebuildQueryIndex(fs, base, problems, log);
      return;
    }
    if (commit_log) {
      // Every other repair assumes the files hold every committed change.
      if (!RepairCommitLog(fs, layout, problems, lost, log)) return;
      continue;
    }
    if (journal) {
      // The engine (adoption) opens the repository only with a completed journal, and
      // every later repair assumes one. A journal that cannot be completed stops here.
      if (!RepairJournal(fs, layout, problems, lost, log)) return;
      continue;
    }
    bool progress = false;
    const bool engine = HasAction(problems, {Kind::kAdopt, Kind::kAbsorb});
    if (engine) progress = RepairThroughEngine(fs, base, problems, log);
    progress = RepairUnderLock(fs, base, lost, log, /*compare_bytes=*/engine, /*derived=*/false) || progress;
    // Objects gone (removed by hand, or set aside just now) that a client may know:
    // their deletion is logged before their index entries go.
    progress = ForgetThroughEngine(fs, base, CheckRepository(fs, WalkRepository(fs, base), false), log) || progress;
    progress = RepairUnderLock(fs, base, lost, log, false, /*derived=*/true) || progress;
    if (!progress) return;
  }
}

}  // namespace folio::fsck
