// Bounding a memo whose entries hold their sources weakly (a decoding or a built object
// kept only while the parsed records it came from are alive): entries whose sources are
// gone are swept when the memo has doubled since the last sweep (amortised O(1) per
// insert), and the memo is emptied if it is still at its cap.
#pragma once

#include <algorithm>
#include <cstddef>

namespace folio::repo::lookup {

inline constexpr size_t kFirstMemoSweep = 64;

// Call before inserting into `memo` (a map), under the memo's lock. `dead(entry)` says
// whether an entry's sources are gone. `sweep_at` is the caller's state, initially
// kFirstMemoSweep.
template <class Map, class Dead>
void SweepMemo(Map& memo, size_t& sweep_at, size_t cap, Dead dead) {
  if (memo.size() < sweep_at) return;
  std::erase_if(memo, [&](const auto& entry) { return dead(entry.second); });
  if (memo.size() >= cap) memo.clear();
  sweep_at = std::max(kFirstMemoSweep, 2 * memo.size());
}

}  // namespace folio::repo::lookup
