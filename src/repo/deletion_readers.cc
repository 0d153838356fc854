// Deletions by object id, from the change log; see deletion_readers.h.
#include "repo/deletion_readers.h"

#include <algorithm>

namespace folio::repo {
namespace {
constexpr size_t kBatch = 4096;  // events read at once
}  // namespace

Status DeletionReaders::CatchUp() {
  FOLIO_ASSIGN_OR_RETURN(uint64_t last, log_.LastToken());
  if (last < read_to_) {
    // Not the log this was built from (replaced by another copy): start again.
    by_id_.clear();
    read_to_ = 0;
  }
  if (last == read_to_) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(uint64_t first, log_.FirstToken());
  if (first > read_to_ + 1 && !by_id_.empty()) {
    // Events were dropped by retention: so are their deletions.
    for (auto it = by_id_.begin(); it != by_id_.end();) {
      auto& list = it->second;
      list.erase(std::remove_if(list.begin(), list.end(), [&](const Deletion& d) { return d.token < first; }),
                 list.end());
      it = list.empty() ? by_id_.erase(it) : std::next(it);
    }
  }
  while (read_to_ < last) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<storage::ChangeEvent> events, log_.Read(read_to_ + 1, kBatch));
    if (events.empty()) break;
    for (storage::ChangeEvent& e : events) {
      if (e.type == "deleted") by_id_[e.object_id].push_back({e.token, std::move(e.readers)});
    }
    read_to_ = events.back().token;
  }
  return OkStatus();
}

Result<std::optional<std::vector<std::string>>> DeletionReaders::After(const std::string& object_id, uint64_t token) {
  std::lock_guard<std::mutex> lock(mu_);
  FOLIO_RETURN_IF_ERROR(CatchUp());
  auto it = by_id_.find(object_id);
  if (it == by_id_.end()) return std::optional<std::vector<std::string>>();
  for (const Deletion& d : it->second) {
    if (d.token >= token) return std::optional<std::vector<std::string>>(d.readers);
  }
  return std::optional<std::vector<std::string>>();
}

}  // namespace folio::repo
