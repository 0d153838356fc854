// The single repairs done under a repository's write lock. Each returns what it did,
// for Finding::repair ("" when there was nothing left to do, e.g. the file is gone).
#pragma once

#include <functional>
#include <string>

#include "folio/fs.h"
#include "fsck/facts.h"
#include "fsck/lost_found.h"
#include "storage/change_set.h"

namespace folio::fsck {

// Runs `stage` as one change of the repository's commit log, with the events it
// records, as the engine commits its own. Requires the repository's write lock held by
// the caller. Errors: those of `stage`; kStorage.
Status CommitUnderLock(Fs& fs, const storage::RepoLayout& layout,
                       const std::function<Status(storage::ChangeSet&)>& stage);

// Temp files, trash, old uploads, stale markers: not user content.
Result<std::string> RemovePath(Fs& fs, const std::string& path);
Result<std::string> MoveToLostFound(Fs& fs, LostFound& lost, const storage::RepoLayout& layout,
                                    const std::string& path);
// Sets content.length in the version or working copy record `record`.
Result<std::string> SetContentLength(Fs& fs, const std::string& record, uint64_t size);
// Sets checkedOut to null in `series_file`.
Result<std::string> ClearCheckOut(Fs& fs, const std::string& series_file);
// Gives the root folder a record with the id repository.json names (as Folio's own
// adoption does; the engine adopts the root only through a child).
Result<std::string> WriteRootFolder(Fs& fs, const RepoFacts& f);
Result<std::string> WriteMarker(Fs& fs, const storage::RepoLayout& layout, const std::string& path);
// Writes the folder marker `path` holding `id` (what stands there instead is removed).
Result<std::string> WriteFolderMarker(Fs& fs, const std::string& path, const std::string& id);
// Takes the user-visible file of the document at `object` as the content of its latest
// version, in one change of the commit log with its "updated" event (as the engine
// absorbs a hand edit), keeping a copy of the replaced content in lost+found. For
// edits the engine does not notice (the file's size and mtime match series.json).
// Requires the repository's write lock held by the caller.
Result<std::string> AbsorbVisibleFile(Fs& fs, LostFound& lost, const RepoFacts& f, const std::string& object);
// Writes the missing record `record` of version `label` of its document: the
// properties of the document's nearest readable record (or those of a document made by
// hand), the label and major flag from the label, the content as the content file is.
Result<std::string> RebuildVersionRecord(Fs& fs, const RepoFacts& f, const std::string& record,
                                         const std::string& label);
// repair_adopted.cc: adoption tables (docs/STORAGE.md §4.1), each in one change of the
// commit log staged as the engine stages it (repo/hand_edits/adopted_docs.h), under the write lock
// held by the caller. A document a repair drops from the repository's view gets a
// "deleted" event, unless another object of `f` holds its id (then nothing a client
// knows is gone).
// Removes the entry `name` from `table` (the table goes when left empty, and the
// folder's directory when left without tables).
Result<std::string> DropAdoptedEntry(Fs& fs, const RepoFacts& f, const std::string& table, const std::string& name);
// Removes the entry `name` from every table of `kept`'s folder but `kept`.
Result<std::string> DropAdoptedDuplicates(Fs& fs, const RepoFacts& f, const std::string& kept,
                                          const std::string& name);
// Records the deletion of every document of the tables in `dir` (a change per table),
// then removes `dir`. Errors: kStorage, also when `dir` holds a file that is not a
// readable table (adopted-table-unreadable moves those to lost+found first).
Result<std::string> ForgetAdoptedFolder(Fs& fs, const RepoFacts& f, const std::string& dir);
// Takes the file of the entry `name` of `table` as it is now (an edit by hand): the
// entry gets the file's identity and `modified` its modification time, with an
// "updated" event, as the engine takes in such an edit.
Result<std::string> AbsorbAdoptedFile(Fs& fs, const RepoFacts& f, const std::string& table, const std::string& name);

// Rewrites every index entry that differs from the tree and removes the others.
Status RebuildIndex(Fs& fs, const RepoFacts& f);

}  // namespace folio::fsck
