// The object ids a client may know of documents whose records are gone (removed by hand
// with their folder): what the change log's "created" events named for their series,
// less what "deleted" events named since. A "deleted" event of such a document names
// these ids, as the log named them (docs/API.md §7.12).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "folio/status.h"
#include "storage/change_log_store.h"

namespace folio::repo::hand_edits {

// For each series id of `series_ids`, the ids ("<series>;<label>", "<series>;pwc") that
// a "created" event of the kept log named and no later "deleted" event did, in the
// order they were created. A series without one (its events dropped by retention) is
// left out. Reads the whole log kept, once, in batches. Memory: the ids of those series
// and one batch of events. Requires: no staging of the repository's committer in
// progress on this thread (the log is read as anyone reads it). Errors: kStorage.
Result<std::map<std::string, std::vector<std::string>>> LoggedObjects(storage::ChangeLogStore& log,
                                                                      const std::set<std::string>& series_ids);

}  // namespace folio::repo::hand_edits
