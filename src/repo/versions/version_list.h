// The labels of a document's version series (docs/STORAGE.md §4). series.json lists the
// newest of them; once it lists more than the limit (EngineOptions::version_list_max,
// 1,000 by default), a check-in moves all but the newest 500 into an archive file
// "versions-<n>.json" of the series directory, which series.json then describes (first
// and last label, count, newest major). A request reads and writes a bounded record
// whatever the length of the history; only listing all versions, or an operation on an
// archived version, reads an archive.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "folio/fs.h"
#include "repo/records.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::repo::versions {

inline constexpr size_t kDefaultVersionListMax = 1000;  // as StoreOptions::version_list_max

// How many versions the series has (archived and listed).
size_t VersionCount(const SeriesRecord& s);
// The latest version's label; "" when the series has none.
std::string LatestLabel(const SeriesRecord& s);
// The newest major version's label (archived or listed); "" when there is none.
std::string LatestMajorLabel(const SeriesRecord& s);
// The archive whose range of labels holds `label`; nullptr if none (the label is then
// the series' only if series.json lists it).
const VersionArchive* ArchiveHolding(const SeriesRecord& s, std::string_view label);

// Reading the labels, and staging changes to them. `folder`/`name`: where the series is.
class VersionList {
 public:
  // `max`: how many labels series.json lists at most (0: no limit).
  VersionList(Fs& fs, const storage::RepoLayout& layout, size_t max = kDefaultVersionListMax)
      : fs_(fs), layout_(layout), max_(max) {}

  // The labels archive `a` holds, read from disk, not through the record cache: listing
  // a long history would otherwise push everything else out of it, and an archive is
  // read only for an operation on an old version. Errors: kStorage (missing,
  // unreadable, or not what series.json says it holds).
  Result<std::vector<std::string>> ReadArchive(const std::string& folder, const std::string& name,
                                               const SeriesRecord& s, const VersionArchive& a);
  // Whether the series has a version `label` (reads the archive whose range holds it).
  Result<bool> Lists(const std::string& folder, const std::string& name, const SeriesRecord& s,
                     const std::string& label);
  // Every label, oldest first.
  Result<std::vector<std::string>> AllLabels(const std::string& folder, const std::string& name,
                                             const SeriesRecord& s);

  // Staging (the series is then put by the caller, after these files):
  //
  // After a label was appended to s.versions: if they are more than the limit, all but
  // the newest half of the limit go into a new archive file, put in `change` at the series `folder`/`name` (the
  // series' place once the change is applied).
  void ArchiveOldest(storage::ChangeSet& change, const std::string& folder, const std::string& name,
                     SeriesRecord& s);
  // Takes `label` out of the series: out of s.versions, or out of its archive (the
  // archive rewritten, or removed once empty). When s.versions is left empty while
  // archives remain, the newest archive's labels move back into it (the file removed),
  // so that s.versions.back() stays the latest. Returns false when the series has no
  // such version (nothing staged). Archives are read under `name` and staged under
  // `staged_name` (the series' name once the change is applied; "" for `name`).
  Result<bool> RemoveLabel(storage::ChangeSet& change, const std::string& folder, const std::string& name,
                           SeriesRecord& s, const std::string& label, const std::string& staged_name = "");

 private:
  Fs& fs_;
  const storage::RepoLayout& layout_;
  const size_t max_;
};

}  // namespace folio::repo::versions
