// Who could read a deleted object: the readers its "deleted" event recorded (the
// principals its ACL let read it then, docs/STORAGE.md §8.6), found by object id, so that
// a caller who could read it sees every event of it (docs/API.md §7.12).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "folio/status.h"
#include "storage/change_log_store.h"

namespace folio::repo {

class DeletionReaders {
 public:
  // Requires: `log` outlives this.
  explicit DeletionReaders(storage::ChangeLogStore& log) : log_(log) {}

  // The readers of the first "deleted" event of `object_id` with a token >= `token`;
  // nullopt when the log holds none (the object was not deleted since). Reads only the
  // events appended since the last call (each event is read once per process; the map
  // holds the deletions of the events kept). Thread-safe. Errors: kStorage.
  Result<std::optional<std::vector<std::string>>> After(const std::string& object_id, uint64_t token);

 private:
  struct Deletion {
    uint64_t token = 0;
    std::vector<std::string> readers;
  };
  Status CatchUp();  // requires mu_

  storage::ChangeLogStore& log_;
  std::mutex mu_;
  uint64_t read_to_ = 0;  // the newest token taken in
  std::unordered_map<std::string, std::vector<Deletion>> by_id_;  // each in token order
};

}  // namespace folio::repo
