// Listed and archived version labels; see version_list.h.
#include "repo/versions/version_list.h"

#include <algorithm>
#include <optional>

#include "repo/versions/version_label.h"
#include "storage/json_file.h"

namespace folio::repo::versions {
namespace {

// The newest major label among `labels`; "" if none.
std::string NewestMajor(const std::vector<std::string>& labels) {
  for (auto it = labels.rbegin(); it != labels.rend(); ++it) {
    auto v = VersionLabel::Parse(*it);
    if (v && v->IsMajor()) return *it;
  }
  return "";
}

// Describes `labels` (not empty) as archive `number`.
VersionArchive Describe(uint64_t number, const std::vector<std::string>& labels) {
  VersionArchive a;
  a.number = number;
  a.first = labels.front();
  a.last = labels.back();
  a.count = labels.size();
  a.latest_major = NewestMajor(labels);
  return a;
}

}  // namespace

size_t VersionCount(const SeriesRecord& s) {
  size_t n = s.versions.size();
  for (const VersionArchive& a : s.archived) n += a.count;
  return n;
}

std::string LatestLabel(const SeriesRecord& s) { return s.versions.empty() ? "" : s.versions.back(); }

std::string LatestMajorLabel(const SeriesRecord& s) {
  std::string major = NewestMajor(s.versions);
  for (auto it = s.archived.rbegin(); major.empty() && it != s.archived.rend(); ++it) major = it->latest_major;
  return major;
}

const VersionArchive* ArchiveHolding(const SeriesRecord& s, std::string_view label) {
  if (s.archived.empty()) return nullptr;
  const std::optional<VersionLabel> v = VersionLabel::Parse(label);
  if (!v) return nullptr;
  for (const VersionArchive& a : s.archived) {
    const std::optional<VersionLabel> first = VersionLabel::Parse(a.first);
    const std::optional<VersionLabel> last = VersionLabel::Parse(a.last);
    if (first && last && *first <= *v && *v <= *last) return &a;
  }
  return nullptr;
}

Result<std::vector<std::string>> VersionList::ReadArchive(const std::string& folder, const std::string& name,
                                                          const SeriesRecord& s, const VersionArchive& a) {
  const std::string path = layout_.VersionArchive(folder, name, a.number);
  FOLIO_ASSIGN_OR_RETURN(Json j, storage::ReadJsonFile(fs_, path));
  return VersionArchiveFromJson(j, path, s.series_id, a);
}

Result<bool> VersionList::Lists(const std::string& folder, const std::string& name, const SeriesRecord& s,
                                const std::string& label) {
  if (std::find(s.versions.begin(), s.versions.end(), label) != s.versions.end()) return true;
  const VersionArchive* a = ArchiveHolding(s, label);
  if (a == nullptr) return false;
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels, ReadArchive(folder, name, s, *a));
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

Result<std::vector<std::string>> VersionList::AllLabels(const std::string& folder, const std::string& name,
                                                        const SeriesRecord& s) {
  std::vector<std::string> all;
  all.reserve(VersionCount(s));
  for (const VersionArchive& a : s.archived) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels, ReadArchive(folder, name, s, a));
    all.insert(all.end(), std::make_move_iterator(labels.begin()), std::make_move_iterator(labels.end()));
  }
  all.insert(all.end(), s.versions.begin(), s.versions.end());
  return all;
}

void VersionList::ArchiveOldest(storage::ChangeSet& change, const std::string& folder, const std::string& name,
                                SeriesRecord& s) {
  if (max_ == 0 || s.versions.size() <= max_) return;
  // All but the newest half of the limit (the latest always stays listed). A list an
  // earlier Folio let grow past the limit goes into one archive at once.
  const size_t n = s.versions.size() - std::max<size_t>(max_ / 2, 1);
  std::vector<std::string> oldest(s.versions.begin(), s.versions.begin() + static_cast<std::ptrdiff_t>(n));
  const uint64_t number = s.archived.empty() ? 1 : s.archived.back().number + 1;
  change.PutJson(layout_.VersionArchive(folder, name, number), VersionArchiveToJson(s.series_id, oldest));
  s.archived.push_back(Describe(number, oldest));
  s.versions.erase(s.versions.begin(), s.versions.begin() + static_cast<std::ptrdiff_t>(n));
}

Result<bool> VersionList::RemoveLabel(storage::ChangeSet& change, const std::string& folder, const std::string& name,
                                      SeriesRecord& s, const std::string& label, const std::string& staged_name) {
  const std::string& staged = staged_name.empty() ? name : staged_name;
  if (auto it = std::find(s.versions.begin(), s.versions.end(), label); it != s.versions.end()) {
    s.versions.erase(it);
    if (s.versions.empty() && !s.archived.empty()) {
      // The newest archive comes back into series.json.
      const VersionArchive newest = s.archived.back();
      FOLIO_ASSIGN_OR_RETURN(s.versions, ReadArchive(folder, name, s, newest));
      change.Remove(layout_.VersionArchive(folder, staged, newest.number));
      s.archived.pop_back();
    }
    return true;
  }
  const VersionArchive* holding = ArchiveHolding(s, label);
  if (holding == nullptr) return false;
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> labels, ReadArchive(folder, name, s, *holding));
  auto it = std::find(labels.begin(), labels.end(), label);
  if (it == labels.end()) return false;
  labels.erase(it);
  const std::string path = layout_.VersionArchive(folder, staged, holding->number);
  auto at = s.archived.begin() + (holding - s.archived.data());
  if (labels.empty()) {
    change.Remove(path);
    s.archived.erase(at);
  } else {
    change.PutJson(path, VersionArchiveToJson(s.series_id, labels));
    *at = Describe(holding->number, labels);
  }
  return true;
}

}  // namespace folio::repo::versions
