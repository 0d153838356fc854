// TEMPORARY: the change feed an index follows until the repository's own change log
// exists (query_index.h SetChangeFeed is the hook for it). It has no events: writes reach
// the index through QueryIndex::NoteWritten instead, which only the process that wrote
// calls. Its id is new in every process, so that an index left by an earlier process
// (which may have missed changes made while no server ran, or in a crash) is rebuilt
// once when this one first uses it.
#pragma once

#include <string>

#include "repo/query/change_event.h"

namespace folio::query {

class InProcessFeed : public ChangeFeed {
 public:
  InProcessFeed();

  std::string id() const override { return id_; }
  Result<uint64_t> LatestToken() override { return uint64_t{0}; }
  Result<ChangeBatch> ReadChanges(uint64_t, size_t) override { return ChangeBatch{}; }

 private:
  const std::string id_;
};

}  // namespace folio::query
