// Owner of "move an object to a new folder or name": the one place that stages a
// folder's, an item's or a document's files and index entry at a new path. Rename
// (updateProperties of cmis:name), move (moveObject) and a check-in with a new name
// all go through Relocation::Stage, so the limits of Rule P1 (storage/name_rules.h)
// and the ordering a re-applied change needs are stated and kept here only.
#pragma once

#include <string>

#include "folio/status.h"
#include "repo/lookup/location.h"
#include "storage/change_set.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::changes {

// Where an object goes: its parent folder (new or the same) and its name there.
struct Destination {
  std::string folder;     // repository-relative path of the parent ("" is the root folder)
  std::string folder_id;  // that folder's id (the index entry names it)
  std::string name;
};

// What becomes of a document's visible file F/N.
enum class VisibleFile {
  kMoved,     // renamed with the series directory (rename, move): the same inode
  kRestaged,  // removed at its old path; the caller stages it at the new path in the
              // same change (a check-in gives it another inode anyway, Rule V4)
};

// Uses: fs, layout, listings, staging.
class Relocation {
 public:
  explicit Relocation(Engine& engine) : engine_(engine) {}

  // The limits a relocation of `object` to `to` must keep, checked without staging
  // anything: the name is valid and no child of `to.folder` has it
  // (kNameConstraintViolation naming the name and folder); the object's path, and for
  // a folder every path below it, stays within Rule P1 (kConstraint); a folder does
  // not go into itself or below itself (kConstraint naming it). Reads the destination
  // folder (and, for a folder whose path grows, the tree below it). Errors: those, and
  // kStorage.
  Status Check(const lookup::Loc& object, const Destination& to);

  // Checks as Check does, and only then stages the relocation of `object` (a folder,
  // an item or a document; not the root folder, not a relationship) to `to`:
  // - a folder: its marker in the old parent removed, its directory renamed (guarded
  //   by the id of its folder.json), its index entry rewritten, its marker in the new
  //   parent staged;
  // - an item: the new parent's item directories made if missing, its directory
  //   renamed (guarded by its record's id), its index entry rewritten;
  // - a document: the new parent's document directories made if missing, its visible
  //   file renamed (guarded by its inode) or removed (`visible`), its series directory
  //   renamed (guarded by its series id), its index entry rewritten.
  // Stage it before anything else of the change that writes at the object's path, and
  // write everything after at the path it returns: applying the change again after a
  // crash (docs/STORAGE.md §8) then never writes into a directory renamed away.
  // Records no event: each caller's change records the event its operation names.
  // Returns the object's location at its new place (no cached record or stat).
  // Errors: Check's (then nothing is staged); kStorage (a stat of what it renames).
  Result<lookup::Loc> Stage(storage::ChangeSet& change, const lookup::Loc& object, const Destination& to,
                            VisibleFile visible = VisibleFile::kMoved);

 private:
  Engine& engine_;
};

}  // namespace folio::repo::changes
