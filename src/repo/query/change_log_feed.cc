// The repository's change log as the query index's feed; see change_log_feed.h.
#include "repo/query/change_log_feed.h"

#include <algorithm>

#include "folio/cmis_ids.h"
#include "storage/layout.h"

namespace folio::query {
namespace {

ChangeType TypeOf(const std::string& type) {
  if (type == "created") return ChangeType::kCreated;
  if (type == "deleted") return ChangeType::kDeleted;
  if (type == "security") return ChangeType::kSecurity;
  return ChangeType::kUpdated;
}

BaseType BaseOf(const std::string& base_type_id) {
  if (base_type_id == cmis::kFolder) return BaseType::kFolder;
  if (base_type_id == cmis::kItem) return BaseType::kItem;
  if (base_type_id == cmis::kRelationship) return BaseType::kRelationship;
  return BaseType::kDocument;
}

}  // namespace

Result<std::string> ChangeLogFeed::Fingerprint(Repository&) {
  auto entries = fs_.List(changes_dir_);
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return std::string("empty");
    return entries.status();
  }
  // Segments are named after their first token, zero-padded: the greatest name is the
  // newest.
  std::string newest;
  for (const DirEntry& e : *entries) {
    if (e.type == FileType::kFile && storage::ChangeLogSegmentFirst(e.name)) newest = std::max(newest, e.name);
  }
  if (newest.empty()) return std::string("empty");
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(changes_dir_ + "/" + newest));
  return newest + ":" + std::to_string(st.size) + ":" + std::to_string(st.mtime_ns) + ":" + std::to_string(st.inode);
}

Result<uint64_t> ChangeLogFeed::LatestToken(Repository& repo) { return repo.LatestChangeToken(); }

Result<ChangeBatch> ChangeLogFeed::ReadChanges(Repository& repo, uint64_t after_token, size_t max) {
  ChangeBatch out;
  // From the token itself (0 has no event: from 1), to see that the log still holds it.
  const uint64_t from = after_token == 0 ? 1 : after_token;
  auto page = repo.ReadChanges(from, max + 1);
  if (!page.ok()) {
    if (page.status().kind() != ErrorKind::kConstraint) return page.status();
    out.gap = true;  // older than the oldest event kept
    return out;
  }
  auto& events = page->events;
  size_t i = 0;
  if (after_token != 0) {
    if (events.empty() || events.front().token != after_token) {
      out.gap = true;  // the log does not hold the token: not the log the index followed
      return out;
    }
    i = 1;
  } else if (!events.empty() && events.front().token != 1) {
    out.gap = true;  // events before the first kept were dropped
    return out;
  }
  for (; i < events.size() && out.events.size() < max; ++i) {
    ChangeEventInfo& e = events[i];
    ChangeEvent c;
    c.token = e.token;
    c.time_ms = e.time_ms;
    c.type = TypeOf(e.type);
    c.object_id = std::move(e.object_id);
    c.base = BaseOf(e.base_type_id);
    out.events.push_back(std::move(c));
  }
  return out;
}

}  // namespace folio::query
