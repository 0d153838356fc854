// Files and directories a person adds or edits by hand (docs/STORAGE.md §9): they get
// a record and an id the first time the engine finds them, and the id stays. A folder's
// new files are adopted together, in one change, their content linked, never copied.
// A read-only repository adopts in memory only (Committer::RunBookkeeping): the ids it
// gives last as long as the process, and the data directory is left as it is.
//
// Each change here is a change of its own. Requires: called by the Reconciler
// (repo/hand_edits/reconciler.h) only, outside any staging and any lookup (the committer is not
// re-entrant, and refuses a change inside either).
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/repository.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/records.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::hand_edits {

// Stages the file `name` of `folder`, edited by hand (identity `st`), as the content of
// the latest version of `series`, whose record is `rec` (docs/STORAGE.md §9): the
// version's content linked to the file (unless `same_inode`: it is that file already,
// edited in place), the record given the file's length and modified by "system" at the
// file's mtime, the series stamped with the file, an "updated" event. The engine's
// absorption of an edit and fsck's repair of one both stage it so.
void StageHandEdit(storage::ChangeSet& change, const storage::RepoLayout& layout, const std::string& folder,
                   const std::string& name, const SeriesRecord& series, ObjectRecord rec, const FileStat& st,
                   bool same_inode);

// Uses: fs, layout, info, records, adopted, locator, committer, staging, vanished.
class Adopter {
 public:
  explicit Adopter(Engine& engine) : engine_(engine) {}

  // Gives the directory `folder`, made by hand, a folder record and an id, and its
  // marker in its parent. OK if it has one. A folder that was at that name before
  // (removed by hand, its marker left) has its removal taken in first
  // (Vanished::Absorb). Errors: kObjectNotFound
  // if it is not a directory; kStorage (in a read-only repository also when the memory
  // for adoptions is used up: cause not_enough_memory, logged once, docs/STORAGE.md §9).
  // The same for AdoptDocument and AbsorbHandEdit.
  Status AdoptFolder(const std::string& folder);
  // Gives the file `name` in `folder`, added by hand, a series with version 1.0 (and
  // every other file added by hand to that folder with it, up to a batch). OK if it has
  // one. Errors: kObjectNotFound if it is not a regular file; kStorage (a series
  // directory without series.json is damage, not a hand-added file).
  Status AdoptDocument(const std::string& folder, const std::string& name);
  // Takes an edit by hand of the visible file of `name` as the new content of its latest
  // version (no new version: updates never make one). The same bytes under a new time
  // stamp only update the recorded identity. Returns the series as it now is.
  Result<SeriesRecord> AbsorbHandEdit(const std::string& folder, const std::string& name);
  // Takes the removal by hand of the visible files of documents `names` in `folder`
  // (their series or adoption-table entries are still there) as their deletion
  // (docs/STORAGE.md §9): for each, in one change, a "deleted" event naming its series
  // id; its index entry and checked-out marker go, and its series directory (every
  // version, a working copy) moves to `.folio/lost+found/<time>/`, as fsck --repair
  // would move it; an adopted document's entry just goes (§4.1). Checked again inside
  // the change, so a file that is back, or a series a change in flight moved or
  // removed, is left alone and two processes record one event. Nothing on a read-only
  // repository (the document just stays out of sight). Errors: kStorage.
  Status AbsorbHandRemovals(const std::string& folder, const std::vector<std::string>& names);
  // Gives the adopted document `name` of `folder` (docs/STORAGE.md §4.1) the files of
  // an ordinary document, in a change of its own that records no event (but the
  // "updated" of an edit by hand not yet taken in): the first step of its first change.
  // OK if it has them already, or is no adopted document (any more). Errors: those of
  // Committer::Run (kPermissionDenied when read-only); kObjectNotFound if its file is
  // not a regular file; kStorage.
  Status Materialize(const std::string& folder, const std::string& name);
  // Takes an edit by hand of the file of the adopted document `name` of `folder` into
  // its entry (its identity, `modified`, an "updated" event; in memory when read-only).
  // Returns the document as its table now holds it; null if it is no adopted document
  // or its file is gone. Errors: kStorage (as AdoptFolder).
  Result<std::shared_ptr<const AdoptedDoc>> AbsorbAdoptedEdit(const std::string& folder, const std::string& name);
  // See Repository::SetMimeSniffer.
  void SetMimeSniffer(MimeSniffer sniffer);
  // The id of the folder at `folder`, adopting it (and the folders above it) first when
  // it is a directory made by hand. Errors: as AdoptFolder; those of
  // RecordReader::FolderId.
  Result<std::string> FolderIdAdopting(const std::string& folder);

 private:
  // Committer::RunBookkeeping, with the warning of a read-only process out of memory for
  // adoptions logged once.
  Status Bookkeep(const std::function<Status(storage::ChangeSet&)>& stage);
  // The table entry of a file (identity `st`, MIME type `mime_type`) of the folder
  // `folder_id`, adopted in `change` (which records its "created" event).
  AdoptedEntry NewEntry(storage::ChangeSet& change, const std::string& folder_id, const FileStat& st,
                        std::string mime_type);
  // The MIME type of each of `files` (names and identities) of `folder`: the extension's,
  // else the sniffer's verdict on the file's first bytes (the sniffing spread over up to
  // kMaxSniffThreads threads).
  std::vector<std::string> MimeTypesOf(const std::string& folder,
                                       const std::vector<std::pair<std::string, FileStat>>& files);
  // The sniffer's verdict on the file `visible`, else `by_name`.
  std::string Sniffed(const MimeSniffer& sniffer, const std::string& visible, std::string by_name);
  static constexpr size_t kMaxSniffThreads = 4;

  Engine& engine_;
  std::mutex sniffer_mu_;
  MimeSniffer sniffer_;
  std::atomic<bool> told_out_of_memory_{false};
};

// Files adopted in one change at most (a folder of 10,000 new files takes ten).
inline constexpr size_t kAdoptionBatch = 1000;

}  // namespace folio::repo::hand_edits
