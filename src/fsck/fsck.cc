// RunFsck: check the whole data directory; with repair, repair it and check again,
// reporting what was repaired and what is left. See folio/fsck.h.
#include "folio/fsck.h"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>
#include <thread>

#include "fsck/checks.h"
#include "fsck/repair.h"
#include "storage/fs_probe.h"
#include "storage/layout.h"

namespace folio {
namespace {

using fsck::Problems;

bool AllNotes(const Problems& problems) {
  for (const fsck::Problem& p : problems) {
    if (p.finding.severity != Severity::kNote) return false;
  }
  return true;
}

// Work a live writer completes by itself, soon: committed records not yet checkpointed,
// trash and consumed uploads removed after the next checkpoint.
bool OnlyPendingWork(const Problems& problems) {
  for (const fsck::Problem& p : problems) {
    if (p.finding.severity == Severity::kNote) continue;
    const std::string& id = p.finding.id;
    if (id != fsck::kLogPending.id && id != fsck::kTrashLeftover.id && id != fsck::kUploadLeftover.id) return false;
  }
  return true;
}

// The process that made the temp or trash entry `path` (".folio-tmp-<pid>-..."), when it
// still runs on this machine: its trash is removed after its next checkpoint.
std::optional<long> LiveOwner(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  if (!storage::IsTempName(name)) return std::nullopt;
  char* end = nullptr;
  const long pid = std::strtol(name.c_str() + storage::kTempPrefix.size(), &end, 10);
  if (pid <= 0 || end == nullptr || *end != '-') return std::nullopt;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return std::nullopt;
  return pid;
}

// One repository's problems, told apart from changes in flight. The first walk takes no
// lock (a healthy store costs one walk and never stalls a writer). Anything it finds is
// checked again with the repository's lock held shared, briefly: no change of any
// process is then half applied. What only a live writer's next checkpoint clears
// (log-pending, trash, uploads) is looked at again after its idle interval; what is
// still there is reported.
Problems CheckOneRepository(Fs& fs, const std::string& base) {
  Problems found = fsck::CheckRepository(fs, fsck::WalkRepository(fs, base), /*compare_bytes=*/true);
  if (AllNotes(found)) return found;
  const storage::RepoLayout layout(base);
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    auto lock = fs.Lock(layout.LockFile(), LockMode::kShared);
    if (!lock.ok()) return found;  // a read-only filesystem: nobody writes there
    found = fsck::CheckRepository(fs, fsck::WalkRepository(fs, base), /*compare_bytes=*/true);
    if (AllNotes(found) || !OnlyPendingWork(found)) return found;
  }
  // A writer that never falls idle checkpoints only when its log fills: the trash it
  // queued is its own work in progress, not damage.
  for (fsck::Problem& p : found) {
    if (p.finding.id != fsck::kTrashLeftover.id) continue;
    if (auto pid = LiveOwner(p.finding.path)) {
      p.finding.severity = Severity::kNote;
      p.finding.message += " (queued by running process " + std::to_string(*pid) +
                           ", which removes it after its next checkpoint)";
      p.action = {};
    }
  }
  return found;
}

Result<Problems> CheckAll(Fs& fs) {
  FOLIO_ASSIGN_OR_RETURN(fsck::DataFacts data, fsck::WalkData(fs));
  Problems out = fsck::CheckData(data);
  fsck::Append(out, fsck::CheckAccounts(fs, data));
  for (const std::string& base : data.repositories) fsck::Append(out, CheckOneRepository(fs, base));
  return out;
}

// The repaired findings that are gone, those gone as a side effect of other repairs,
// then everything still found (with why its repair failed, if it did).
FsckReport Merge(const Problems& before, const fsck::RepairLog& log, const Problems& after) {
  std::set<std::string> remaining, reported;
  for (const fsck::Problem& p : after) remaining.insert(fsck::FindingKey(p.finding));
  FsckReport report;
  for (Finding& f : log.done()) {
    const std::string key = fsck::FindingKey(f);
    if (remaining.count(key) || !reported.insert(key).second) continue;
    report.findings.push_back(std::move(f));
  }
  for (const fsck::Problem& p : before) {
    const std::string key = fsck::FindingKey(p.finding);
    if (remaining.count(key) || !reported.insert(key).second) continue;
    Finding f = p.finding;
    f.repair = "resolved by the other repairs";
    report.findings.push_back(std::move(f));
  }
  for (const fsck::Problem& p : after) {
    Finding f = p.finding;
    const std::string why = log.failure(f);
    if (!why.empty()) f.message += " (repair failed: " + why + ")";
    report.findings.push_back(std::move(f));
  }
  return report;
}

}  // namespace

Result<FsckReport> RunFsck(Fs& fs, const FsckOptions& options) {
  FOLIO_ASSIGN_OR_RETURN(Problems before, CheckAll(fs));
  if (!options.repair) {
    FsckReport report;
    for (fsck::Problem& p : before) report.findings.push_back(std::move(p.finding));
    return report;
  }
  fsck::RepairLog log;
  fsck::LostFound lost(fs, fsck::LostFoundStamp());
  fsck::RepairData(fs, lost, log);
  FOLIO_ASSIGN_OR_RETURN(fsck::DataFacts data, fsck::WalkData(fs));
  for (const std::string& base : data.repositories) fsck::RepairRepository(fs, base, lost, log);
  FOLIO_ASSIGN_OR_RETURN(Problems after, CheckAll(fs));
  return Merge(before, log, after);
}

size_t FsckReport::problems() const {
  size_t n = 0;
  for (const Finding& f : findings) {
    if (f.severity != Severity::kNote && f.repair.empty()) ++n;
  }
  return n;
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

Result<FsckReport> RunFsck(const std::string& dir, const FsckOptions& options) {
  auto opened = OpenPosixFs(dir);
  if (!opened.ok()) {
    if (opened.status().Is(std::errc::no_such_file_or_directory)) {
      return ObjectNotFound("data directory '" + dir + "' does not exist");
    }
    return StorageError("cannot open data directory '" + dir + "': " + opened.status().message());
  }
  if (options.repair) {
    // Repairs write as a server does: with the fallbacks the filesystem needs.
    FOLIO_ASSIGN_OR_RETURN(storage::FsProbe probe, storage::ProbeFilesystem(dir));
    FOLIO_RETURN_IF_ERROR(storage::RequireUsable(probe, (*opened)->Describe("")));
    storage::AdaptToFilesystem(probe.features);
    opened = OpenPosixFs(dir, PosixFsOptions{}, probe.features);
    if (!opened.ok()) return opened.status();
  } else {
    storage::AdaptWithoutProbing(dir);
  }
  return RunFsck(**opened, options);
}

}  // namespace folio
