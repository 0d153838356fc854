// TEMPORARY: a change feed kept in memory by one process, fed by the api layer after
// each successful write it serves (src/api/ops/query_ops.cc, NoteQueryChanges), until
// the repository's own change log exists and query_index.h reads that instead (its
// ChangeFeed hook). It knows neither changes made by other processes nor files edited
// by hand, and forgets everything at exit: its id is new in every process, so an index
// left by an earlier process is rebuilt once when this one first uses it.
#pragma once

#include <deque>
#include <mutex>
#include <string>

#include "repo/query/change_event.h"

namespace folio::query {

class InProcessFeed : public ChangeFeed {
 public:
  // Keeps the newest `capacity` events; a reader further behind sees a gap.
  explicit InProcessFeed(size_t capacity = 100000);

  // Records that `object_id` changed now; returns its token.
  uint64_t Append(ChangeType type, const std::string& object_id, BaseType base);

  std::string id() const override { return id_; }
  Result<uint64_t> LatestToken() override;
  Result<ChangeBatch> ReadChanges(uint64_t after_token, size_t max) override;

 private:
  const std::string id_;
  const size_t capacity_;
  std::mutex mu_;
  std::deque<ChangeEvent> events_;  // tokens consecutive, newest last
  uint64_t latest_ = 0;
};

}  // namespace folio::query
