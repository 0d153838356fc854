// The id index: one small JSON file per indexed id (folders, document series, items,
// relationships) under R/.folio/index/<last two characters>/<id>.json, so a lookup by
// id reads one file and never scans the tree. An entry records the object's kind, its
// parent folder id, its name and its repository-relative path. The path is a hint,
// always verified against the object's own sidecar (which holds its id); after a
// folder move, descendants' paths are stale and are resolved through their parents.
#pragma once

#include <optional>
#include <string>

#include "folio/fs.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::storage {

struct IndexEntry {
  std::string kind;    // "folder", "document", "item", "relationship"
  std::string parent;  // parent folder id; "" for the root folder and relationships
  std::string name;
  std::string path;    // repository-relative path ("" for the root folder)
};

Json IndexEntryToJson(const IndexEntry& e);
Result<IndexEntry> IndexEntryFromJson(const Json& j, const std::string& what);

// Errors: kObjectNotFound if `id` has no entry; kStorage if it cannot be read.
Result<IndexEntry> ReadIndexEntry(Fs& fs, const RepoLayout& layout, const std::string& id);
// At commit of `change`, `id` maps to `entry` (its shard directory made if missing).
void StageIndexEntry(ChangeSet& change, const RepoLayout& layout, const std::string& id, const IndexEntry& entry);
// At commit of `change`, `id` has no entry.
void StageIndexRemoval(ChangeSet& change, const RepoLayout& layout, const std::string& id);

}  // namespace folio::storage
