// Ids the change log named for documents; see logged_objects.h.
#include "repo/hand_edits/logged_objects.h"

#include <algorithm>

namespace folio::repo::hand_edits {
namespace {
constexpr size_t kBatch = 4096;  // events read at once
}  // namespace

Result<std::map<std::string, std::vector<std::string>>> LoggedObjects(storage::ChangeLogStore& log,
                                                                      const std::set<std::string>& series_ids) {
  std::map<std::string, std::vector<std::string>> out;
  if (series_ids.empty()) return out;
  FOLIO_ASSIGN_OR_RETURN(uint64_t first, log.FirstToken());
  FOLIO_ASSIGN_OR_RETURN(uint64_t last, log.LastToken());
  for (uint64_t from = std::max<uint64_t>(first, 1); last != 0 && from <= last;) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<storage::ChangeEvent> events, log.Read(from, kBatch));
    if (events.empty()) break;
    for (storage::ChangeEvent& e : events) {
      const std::string series = e.object_id.substr(0, e.object_id.find(';'));
      if (series.size() == e.object_id.size() || !series_ids.count(series)) continue;
      std::vector<std::string>& ids = out[series];
      if (e.type == "created") {
        if (std::find(ids.begin(), ids.end(), e.object_id) == ids.end()) ids.push_back(std::move(e.object_id));
      } else if (e.type == "deleted") {
        ids.erase(std::remove(ids.begin(), ids.end(), e.object_id), ids.end());
      }
    }
    from = events.back().token + 1;
  }
  for (auto it = out.begin(); it != out.end();) it = it->second.empty() ? out.erase(it) : std::next(it);
  return out;
}

}  // namespace folio::repo::hand_edits
