// Objects removed by hand with the folder that held them (docs/STORAGE.md §9): `rm -r`
// of a folder takes its records along (they live in its own `.folio`), so what is left
// of its objects is their id index entries. An entry that no longer resolves names an
// object a client may know that is gone: its deletion is recorded (a "deleted" event,
// the entry removed, in one change), once. A folder moved or renamed by hand (`mv a b`)
// took its records along too: it keeps its id (and so does everything in it), its
// index entry is brought to its new place with an "updated" event, as a move by Folio
// would log it. The folder's marker in its parent (repo/hand_edits/folder_markers.h) follows, in
// the same change: removed with a deleted folder, moved with a moved one.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/status.h"
#include "storage/change_set.h"
#include "storage/id_index.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::hand_edits {

// Uses: fs, layout, info, records, adopted, locator, adopter, committer, staging.
class Vanished {
 public:
  explicit Vanished(Engine& engine) : engine_(engine) {}

  // Called when the indexed id `id` was found not to resolve (its entry is there, its
  // record is not), or where its parent no longer is (a folder's marker without its
  // directory): unless it is StillVanished or Misplaced, does nothing. Else first finds
  // the folders moved by hand (a walk of the folder tree, one directory at a time;
  // Misplaced ones too) and brings their entries to their new place; then, if
  // `id` still does not resolve, reads the whole id index, one shard directory at a
  // time, and records the deletion of every object that does not resolve, and of every
  // document in the adoption tables (docs/STORAGE.md §4.1) of each such folder (whose
  // table directory then goes), in changes of at most kAdoptionBatch objects, `id` last
  // (so that an interrupted sweep is resumed the next time `id` is looked up); a
  // folder's adopted documents come before it (its tables shrink change by change, the
  // folder's entry goes with the last), so a sweep cut short leaves the rest findable.
  // A folder whose tables cannot be read is not taken for removed (nor its documents).
  // Every object is checked again inside its change, under the repository's lock: two
  // processes record one event per object, and a restart none. Memory: one directory
  // listing per level of the walk, one shard and one batch of the index, one folder's
  // adopted documents. Nothing on a read-only repository. When this process is already
  // sweeping (another thread), returns at once. Requires: called by the Reconciler or
  // the Adopter (repo/hand_edits/reconciler.h), outside any staging and any lookup.
  // Errors: kStorage. Thread-safe.
  Status Absorb(const std::string& id);

  // True when `id` has an index entry and does not resolve: its record is missing where
  // the entry says, or holds another id (never the root folder; never for a record that
  // cannot be read, which is damage, not a removal). Thread-safe.
  bool StillVanished(const std::string& id);
  // True when the folder `id` is found where its index entry's path says, but the
  // folder holding that place is not the entry's parent: moved by hand to the path its
  // entry last recorded (a hint, docs/STORAGE.md §6), so that a lookup finds it, though
  // its parent is another folder now. Absorb takes it in as a move. Thread-safe.
  bool Misplaced(const std::string& id);

 private:
  // Where the indexed folder of `entry` is as far as its parent knows (its parent's
  // present place and the entry's name): where its marker is. nullopt when the parent
  // does not resolve (gone too).
  std::optional<std::string> IndexedPlace(const storage::IndexEntry& entry);
  // Brings the entries of folders moved by hand below `folder` (id `folder_id`) to
  // their new place.
  Status FindMoved(const std::string& folder, const std::string& folder_id, int depth);
  Status Reidentify(const std::string& path, const std::string& id, const std::string& parent_id);
  // One object of a vanished tree: an indexed one, or an adopted document (no index
  // entry) of a vanished folder.
  struct Gone {
    std::string id;         // object id; an adopted document's series id
    std::string folder_id;  // an adopted document: the folder whose table holds it
    std::string name;       // an adopted document: its name in that folder
  };
  // Records the deletion of those of `batch` that are still gone, in one change (a
  // folder only once its adoption tables hold no other document).
  Status Forget(const std::vector<Gone>& batch);
  // Stages the deletion of the adopted documents of `batch` still in their vanished
  // folders' tables; `left` gets, by folder, the names of the entries it does not take.
  Status StageAdoptedGone(storage::ChangeSet& change, const std::vector<Gone>& batch,
                          std::map<std::string, std::set<std::string>>& left);
  // The base type of `id` when StillVanished(id); nullopt otherwise.
  std::optional<BaseType> VanishedBase(const std::string& id);
  // The type of the vanished object `id`: its marker in `.folio/typed/` (docs/STORAGE.md
  // §7), else its base type.
  std::string TypeOf(const std::string& id, BaseType base, const std::vector<std::string>& typed_dirs);

  Engine& engine_;
  std::atomic<bool> sweeping_{false};  // one sweep per process at a time, never waited for
};

}  // namespace folio::repo::hand_edits
