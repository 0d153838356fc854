// A full scan of a repository through its public API, for building the query index:
// every folder (from the root), item, relationship and version of every document (not
// working copies), each document version with the text the full-text index takes from
// it (text_extract.h).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/repository.h"

namespace folio::query {

struct ScannedObject {
  ObjectData object;
  std::string text;  // documents: ExtractText of the version
};

// Calls `visit` for each object, always on the calling thread (so that it may write one
// database connection), while `workers` threads read the repository: listing folders,
// reading versions and extracting text cost far more than writing the index. An object
// removed while the scan runs is skipped (the change feed brings the index in step
// afterwards). Stops when `stop` becomes true (kRuntime "stopped"), or at the first error
// of `visit` or of a read.
// Relationships are filed in no folder and the API lists them only per end object, so
// their ids come from the repository's relationships directory (storage/layout.h) read
// through `fs`, and each is read through the API.
// An object whose record is damaged is left out, with what is below it (the rest is
// scanned); its path ("a/b") is added to `left_out` when given, so that the index can
// take it in once it is readable again (query_index.h).
// `pause` (when given) is called by the reading threads before each page of a folder
// and each relationship: background work waits there while requests are served
// (foreground.h).
// Errors: kStorage if a folder cannot be listed; what `visit` returns.
Status ScanRepository(Repository& repo, Fs& fs, const std::function<Status(ScannedObject&&)>& visit,
                      const std::atomic<bool>& stop, int workers = 2, std::vector<std::string>* left_out = nullptr,
                      const std::function<void()>& pause = {});

}  // namespace folio::query
