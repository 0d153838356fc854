// RunFsck: check the whole data directory; with repair, repair it and check again,
// reporting what was repaired and what is left. See folio/fsck.h.
#include "folio/fsck.h"

#include <set>

#include "fsck/checks.h"
#include "fsck/repair.h"

namespace folio {
namespace {

using fsck::Problems;

Result<Problems> CheckAll(Fs& fs) {
  FOLIO_ASSIGN_OR_RETURN(fsck::DataFacts data, fsck::WalkData(fs));
  Problems out = fsck::CheckData(data);
  for (const std::string& base : data.repositories) {
    fsck::Append(out, fsck::CheckRepository(fs, fsck::WalkRepository(fs, base), /*compare_bytes=*/true));
  }
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
  fsck::RepairData(fs, log);
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
  return RunFsck(**opened, options);
}

}  // namespace folio
