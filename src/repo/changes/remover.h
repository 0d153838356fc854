// Deleting objects: one object (a document with all its versions, or one version), and a
// folder with everything below it, each in one change.
#pragma once

#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::storage {
class ChangeSet;
}

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::changes {

// Uses: fs, layout, committer, locator, listings, records, versions, adopted, staging,
// versioning, relocation, builder.
class Remover {
 public:
  explicit Remover(Engine& engine) : engine_(engine) {}

  // Deletes an object. A document: all its versions (all_versions, or a target without
  // a label) or only that version (the one before becomes the latest). A working copy:
  // as CancelCheckOut. Errors: kConstraint for a non-empty folder or the root folder;
  // kVersioning for the version a working copy is based on; kObjectNotFound; `check`'s
  // error (WriteCheck, folio/repository.h: the object is its kObject).
  Status Delete(const std::string& id, bool all_versions, const WriteCheck& check);
  // Deletes a folder and everything below it at once, the documents adopted in its
  // folders (docs/STORAGE.md §4.1) too: a "deleted" event each (series id, as for any
  // document), each checked as a kBelow, and the folders' adoption tables removed.
  // Returns the ids that could not be deleted (none: the change is atomic). Errors:
  // kConstraint for the root folder; kInvalidArgument if `folder_id` is not a folder;
  // `check`'s first error (the folder is its kObject, every object below it a kBelow):
  // then nothing is deleted; kStorage naming an adoption table of the tree that cannot
  // be read (its documents' deletions could not be recorded).
  Result<std::vector<std::string>> DeleteTree(const std::string& folder_id, const WriteCheck& check);

 private:
  struct Collected;
  // Gathers `folder` and everything below it into `out`, asking `check` (when given)
  // about each object below the top one.
  Status Collect(const std::string& folder, bool top, const WriteCheck& check, Collected& out);
  // Stages the removal of the folder at `loc` and of what `c` holds (the tree below it,
  // the adoption tables of its folders), with their events.
  Status StageTreeRemoval(storage::ChangeSet& change, const lookup::Loc& loc, Collected& c);

  Engine& engine_;
};

}  // namespace folio::repo::changes
