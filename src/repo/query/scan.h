// A full scan of a repository through its public API, for building the query index:
// every folder (from the root, breadth first), item, relationship and version of every
// document (not working copies).
#pragma once

#include <atomic>
#include <functional>

#include "folio/fs.h"
#include "folio/repository.h"

namespace folio::query {

// Calls `visit` for each object. Children are read in pages; an object removed while the
// scan runs is skipped (the change feed brings the index in step afterwards). Stops when
// `stop` becomes true (kRuntime "stopped"), or at the first error of `visit`.
// Relationships are filed in no folder and the API lists them only per end object, so
// their ids come from the repository's relationships directory (storage/layout.h) read
// through `fs`, and each is read through the API.
// Errors: kStorage if a folder cannot be listed; what `visit` returns.
Status ScanRepository(Repository& repo, Fs& fs, const std::function<Status(const ObjectData&)>& visit,
                      const std::atomic<bool>& stop);

}  // namespace folio::query
