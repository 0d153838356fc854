// Finding objects: an id through the id index (docs/STORAGE.md §6), a path through the
// tree, each verified against the object's own record. A lookup never writes (Rule R1,
// docs/STORAGE.md §10: it runs under a storage::LookupScope, where the Committer refuses
// every change): what it finds made, edited, moved or removed by hand it records
// (repo/hand_edits/seen_edits.h) and answers as if that were not reconciled yet; the repository's
// facade has it reconciled (repo/hand_edits/reconciler.h) and reads again.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "folio/fs.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::lookup {

// Uses: fs, layout, info, records, adopted. A lookup never commits: it is not given the
// committer, only `wait_for_writers` (storage::Committer::WaitForWriters).
class Locator {
 public:
  // Keeps up to `max_known_paths` document paths known to be files
  // (RepositoryCaches::known_paths).
  Locator(Engine& engine, std::function<void()> wait_for_writers,
          size_t max_known_paths = RepositoryCaches{}.known_paths)
      : engine_(engine), wait_for_writers_(std::move(wait_for_writers)), max_known_paths_(max_known_paths) {}

  // The object an id names: a folder, item or relationship id, a series id (the latest
  // version), "{series};{label}" or "{series};pwc". An id whose index entry is there but
  // whose object is not (removed or moved by hand with its folder) is recorded (a
  // kVanished sighting) and answered kObjectNotFound. Errors: kObjectNotFound naming the
  // id; kStorage; the failure of that sighting's reconciliation earlier in the request.
  Result<Target> ResolveId(const std::string& id);
  // The object at a repository-relative, percent-decoded path ("" is the root folder).
  // Errors: kObjectNotFound naming the path (also for symlinks, special files and
  // reserved names on the way); kStorage. A file or folder added by hand is recorded
  // (to adopt) and answered kObjectNotFound; a document whose file, or a folder above
  // the path, is gone is recorded (its removal) as well.
  Result<Target> ResolvePath(const std::string& path);
  // The location an indexed id names, verified. kObjectNotFound if none.
  Result<Loc> Locate(const std::string& base_id);
  // As ResolveId for a folder. kInvalidArgument if `id` is not a folder.
  Result<Loc> LocateFolder(const std::string& id);
  // As ResolveId, for a change of the object: an adopted document (docs/STORAGE.md
  // §4.1) is to get the files of an ordinary one first (Adopter::Materialize, its own
  // change), once `may_change` (when given) has allowed the change on the document as
  // found: a write refused for its permission writes nothing at all. That is recorded
  // (a kMaterialize sighting) and answered ReconcileFirst (repo/hand_edits/seen_edits.h): the
  // write's facade reconciles it and runs the write again. (The caller checks again on
  // what this returns: `may_change` is asked for adopted documents only.)
  // Errors: as ResolveId; those of `may_change`; ReconcileFirst; the failure of
  // Materialize earlier in the request.
  Result<Target> ResolveIdToChange(const std::string& id,
                                   const std::function<Status(const Target&)>& may_change = {});
  // The target an object built before describes (its id and path), verified against
  // its record: how a write resolves the object a request already resolved, without the
  // index. Falls back to ResolveId when the object moved meanwhile.
  Result<Target> Relocate(const ObjectData& object);
  // The id of the folder that was at `folder_path`, now gone (removed or moved by hand),
  // when it is known: from its marker in its parent (repo/hand_edits/folder_markers.h), else (data
  // written before markers) from its record, which went with the folder, if this
  // process read it (the record cache). nullopt when unknown.
  std::optional<std::string> GoneFolderId(const std::string& folder_path);
  // The id of the folder at `folder_path`. A directory made by hand (no record yet) is
  // recorded (to adopt) and answered kObjectNotFound (as the missing record, kStorage
  // with cause no_such_file_or_directory, where nothing records it). Errors: those of
  // RecordReader::FolderId.
  Result<std::string> FolderIdAt(const std::string& folder_path);
  // The document `name` in `folder` with its series record attached; its working copy
  // if it has no version yet. A file added by hand is recorded (to adopt) and answered
  // kObjectNotFound; a series directory without series.json is damage (kStorage).
  // For kListing (the child of a listing, which only builds it): an adopted document's
  // `record` is null rather than the series.json its entry stands for (its `adopted`
  // entry is all a build needs; making the JSON was a fifth of a listing's time), and
  // a folder without a docs directory, looked at once per LookOnce scope, spares each
  // child the failing look for its series.json (a folder of adopted documents has none).
  enum class For { kRead, kListing };
  Result<Target> DocumentTarget(const std::string& folder, const std::string& name, For use = For::kRead);
  // Forgets the document paths known to be files (see Repository::DropCaches).
  void DropCaches();

 private:
  Result<Loc> LocateAt(const std::string& base_id, int depth);
  // True if the record at `loc` carries its id; keeps the record in `loc.record`. A
  // record there that cannot be read (damage, not an absence) sets `*damage` when given.
  bool Verify(Loc& loc, Status* damage = nullptr);
  // `loc` is the adopted document `doc`: its id, the series.json it stands for (unless
  // not `with_record`), `doc`.
  static void SetAdopted(Loc& loc, const std::shared_ptr<const hand_edits::AdoptedDoc>& doc,
                         bool with_record = true);
  // The adopted document `series_id` (not indexed), found through its folder's tables.
  Result<Loc> LocateAdopted(const std::string& series_id, int depth);
  // ResolvePath's notice of a gone folder above `path` (see ResolvePath).
  Status SeeGoneAncestor(const std::string& path);
  // Records the removal or move by hand of the folder that was at `folder_path`.
  Status SeeGoneFolder(const std::string& folder_path);
  std::optional<Target> KnownDocumentAt(const std::string& visible, const std::string& parent,
                                        const std::string& name);
  void RememberDocumentAt(const std::string& visible, const FileStat& st);

  Engine& engine_;
  const std::function<void()> wait_for_writers_;
  // Visible document paths a confined Stat found to be regular files, with their
  // identity (see KnownDocumentAt).
  const size_t max_known_paths_;
  std::mutex known_mu_;
  std::unordered_map<std::string, FileStat> known_paths_;
};

}  // namespace folio::repo::lookup
