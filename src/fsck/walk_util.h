// Small helpers shared by the walks (walk_data.cc, walk_repo.cc).
#pragma once

#include <algorithm>
#include <vector>

#include "folio/fs.h"

namespace folio::fsck {

inline void SortByName(std::vector<DirEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
}

}  // namespace folio::fsck
