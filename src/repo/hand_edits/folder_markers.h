// Subfolder markers (docs/STORAGE.md §3, §9): a folder's parent keeps one small file per
// subfolder, `<parent>/.folio/folders/<name>`, holding the subfolder's id. A subfolder's
// own records live in its own `.folio`, which `rm -r` takes along; the marker is what
// stays behind, so a listing of the parent, even in a process started after the
// removal, knows that a folder was there and which one. Every change that makes a folder
// appear under a name writes its marker, every change that takes it away removes it, in
// the same atomic change.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::repo {
class Engine;
namespace changes {
class Staging;
}  // namespace changes
}  // namespace folio::repo

namespace folio::repo::hand_edits {

// The id the marker of the folder at `folder_path` (not the root) holds; nullopt when
// there is no marker, or it cannot be read or does not hold an id of Folio's form.
std::optional<std::string> ReadFolderMarker(Fs& fs, const storage::RepoLayout& layout,
                                            const std::string& folder_path);

// The names in the markers directory of the folder at `folder` (none when it does not
// exist or cannot be read: fsck's to tell).
std::set<std::string> ReadFolderMarkerNames(Fs& fs, const storage::RepoLayout& layout, const std::string& folder);

// Stages the marker of the folder at `folder_path` (not the root), holding `id`, with
// the directories it needs; it replaces a marker of that name. Staged last among a
// folder's files, so that a reader never finds a marker before its folder. Nothing when
// the parent's `.folio` or `.folio/folders`, or the marker itself, is something else
// than a directory or a file (damage, fsck's to tell: folder-marker-mismatch); the
// change goes on without it. Errors: kStorage.
Status StageFolderMarker(storage::ChangeSet& change, changes::Staging& staging, const std::string& folder_path,
                         const std::string& id);
// Stages the removal of the marker of the folder at `folder_path`, guarded by its
// present inode; nothing when there is none. With `only_id` not empty, only a marker
// holding that id goes (a folder made since under the old name keeps its own).
// Staged before the folder is renamed or removed. Errors: kStorage.
Status StageFolderMarkerRemoval(storage::ChangeSet& change, Fs& fs, const storage::RepoLayout& layout,
                                const std::string& folder_path, const std::string& only_id = "");

// What the Reconciler (repo/hand_edits/reconciler.h) makes of the markers of a folder whose listing,
// read afresh, found them to differ from its subfolders (Listings::List notes it).
// Uses: fs, layout, records, locator, vanished, committer, staging.
class FolderMarkers {
 public:
  explicit FolderMarkers(Engine& engine) : engine_(engine) {}

  // Compares the markers of `folder` (one directory read) with its subfolders
  // (`entries`, the folder's directory as just read):
  // - a marker whose folder is gone (removed or moved by hand, also while no Folio ran)
  //   has its id taken in (Vanished::Absorb: the deletion of every object of the tree
  //   recorded once, or the folder brought to its new place);
  // - a marker still without its folder after that, whose id resolves elsewhere or is
  //   not indexed any more, is stale: removed, in one change of its own;
  // - a subfolder with a record (its id indexed at this very place) but no marker, as
  //   in data written before markers existed, gets one: one change per 1,000.
  //   Only those subfolders' records are read. A subfolder whose id is indexed at
  //   another place (moved here by hand) is taken in by Vanished::Absorb instead.
  // The stale markers' removal and the new markers are bookkeeping that a listing does
  // not need: their failure (a full disk) is left for the next listing. Nothing at all
  // on a read-only repository (nothing is written, and nothing would be absorbed).
  // Requires: no staging or lookup runs on the calling thread. Errors: kStorage from
  // Vanished::Absorb.
  Status Reconcile(const std::string& folder, const std::vector<DirEntry>& entries);

 private:
  void RemoveStale(const std::string& folder, const std::set<std::string>& names,
                   const std::set<std::string>& dirs);
  Status AddMissing(const std::string& folder, const std::set<std::string>& names,
                    const std::set<std::string>& dirs);

  Engine& engine_;
};

}  // namespace folio::repo::hand_edits
