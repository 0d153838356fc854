// Small helpers shared by the walks (walk_data.cc, walk_repo.cc).
#pragma once

#include <algorithm>
#include <vector>

#include "folio/fs.h"

namespace folio::fsck {

// Absent, or a file where a directory was expected on the way.
inline bool IsMissing(const Status& s) {
  return s.Is(std::errc::no_such_file_or_directory) || s.Is(std::errc::not_a_directory);
}

inline void SortByName(std::vector<DirEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
}

}  // namespace folio::fsck
