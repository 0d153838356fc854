// The building blocks every change is staged from (docs/STORAGE.md §3-§8): new ids,
// the initial properties of an object, content (inline bytes or a linked upload), a
// document's visible file, the index, the checked-out markers, the change log's events.
#pragma once

#include <optional>
#include <string>

#include "folio/object.h"
#include "repo/lookup/location.h"
#include "repo/records.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::repo::changes {

class Staging {
 public:
  Staging(Fs& fs, const storage::RepoLayout& layout) : fs_(fs), layout_(layout) {}

  // A fresh id with `prefix` that no index entry holds (ids are random; an entry is
  // never overwritten by a new object whatever happens: a forked process, a restored
  // backup).
  std::string NewObjectId(char prefix);

  // Stages `content` as the file `target`: its bytes inline, or its upload linked (no
  // copy). Returns the content's description, its MIME type taken from the source, or
  // else from the file name or `doc_name`. Errors: kInvalidArgument for an upload that
  // is not in this repository's upload area; kStorage.
  Result<ContentInfo> StageContent(storage::ChangeSet& change, const std::string& target,
                                   const ContentSource& content, const std::string& doc_name);
  // Stages a document's visible file: a link to `source` (`guard` as ChangeSet::Link
  // says), or empty when `source` is "". `source` is the content file of the series'
  // latest version and nothing else (Rule V1, repo/versions/version_files.h). Then the series record, stamped with the
  // visible file's identity as applied (see SeriesRecord::file_size). `visible_new`:
  // the visible file is not expected to exist (a document being created).
  void StageVisibleAndSeries(storage::ChangeSet& change, const lookup::Loc& doc, const std::string& source,
                             storage::Guard guard, const SeriesRecord& series, bool visible_new = false);
  // The file `path` (content or a visible file, which a later change may make again as a
  // link) is removed, guarded by its present inode; nothing if it does not exist.
  Status StageRemoveFile(storage::ChangeSet& change, const std::string& path);
  // The directory `path` is made if it does not exist now (one that exists was made by
  // an earlier change, durable or re-applied before this one).
  Status StageDirIfMissing(storage::ChangeSet& change, const std::string& path);
  // The metadata directories of `folder` that documents (or items) need.
  Status StageFolderMeta(storage::ChangeSet& change, const std::string& folder, bool items);
  // A series directory and everything in it, its visible file and index entry go; the
  // checked-out marker too.
  Status StageSeriesRemoval(storage::ChangeSet& change, const lookup::Loc& doc);
  // The marker that lists a checked-out series (getCheckedOut without a scan).
  Status StageCheckedOutMarker(storage::ChangeSet& change, const std::string& series_id, bool present);

  // The marker that says object `object_id` (a document: its series id) is of custom
  // type `type_id` (docs/STORAGE.md §7), when that type keeps markers (its directory
  // exists: every type created since markers exist); nothing for a built-in type.
  // What deleteType reads instead of every record. Errors: kStorage.
  Status StageTypeUsage(storage::ChangeSet& change, const std::string& type_id, const std::string& object_id);

  const storage::RepoLayout& layout() const { return layout_; }
  Fs& fs() { return fs_; }

 private:
  Fs& fs_;
  const storage::RepoLayout& layout_;
};

// Stored properties of a new object: its type and who made it when.
Json NewObjectProperties(const std::string& type_id, const std::string& user, int64_t now_ms);
// Sets who changed `stored` and when.
void Touch(Json& stored, const std::string& user, int64_t now_ms);
// The change-log event of a change of type `type` ("created", ...) to an object.
storage::ChangeEvent Event(const char* type, const std::string& object_id, BaseType base,
                           const std::string& type_id);
// The "deleted" event of the object `object_id`, with the principals `acl` (the ACL it
// had) let read it: who may see its events after (docs/API.md §7.12).
storage::ChangeEvent DeletedEvent(const std::string& object_id, BaseType base, const std::string& type_id,
                                  const std::vector<Ace>& acl);
// The "deleted" events of a document that goes as a whole: one per version of `labels`
// and one for its working copy when `checked_out`, named by the ids their "created"
// events named (docs/STORAGE.md §8.6), each with the readers of `acl`.
std::vector<storage::ChangeEvent> DocumentDeletedEvents(const std::string& series_id,
                                                        const std::vector<std::string>& labels, bool checked_out,
                                                        const std::string& type_id, const std::vector<Ace>& acl);
// The type id stored in `properties` (or the base type's own when missing).
std::string StoredTypeId(const Json& properties, BaseType base);

}  // namespace folio::repo::changes
