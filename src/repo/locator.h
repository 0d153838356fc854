// Finding objects: an id through the id index (docs/STORAGE.md §6), a path through the
// tree, each verified against the object's own record. Objects made by hand on disk are
// adopted (given a record and an id) the first time they are found.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "folio/fs.h"
#include "folio/repository.h"
#include "repo/location.h"
#include "repo/record_reader.h"
#include "storage/layout.h"

namespace folio::storage {
class Committer;
}

namespace folio::repo {

class AdoptedDocs;

class Adopter;
class Vanished;

class Locator {
 public:
  Locator(Fs& fs, const storage::RepoLayout& layout, const RepositoryInfo& info, RecordReader& records,
          AdoptedDocs& adopted, storage::Committer& committer, size_t max_known_paths = RepositoryCaches{}.known_paths)
      : fs_(fs),
        layout_(layout),
        info_(info),
        records_(records),
        adopted_(adopted),
        committer_(committer),
        max_known_paths_(max_known_paths) {}
  void set_adopter(Adopter* adopter) { adopter_ = adopter; }
  void set_vanished(Vanished* vanished) { vanished_ = vanished; }

  // The object an id names: a folder, item or relationship id, a series id (the latest
  // version), "{series};{label}" or "{series};pwc". An id whose index entry is there but
  // whose object is not (removed or moved by hand with its folder) has that taken in
  // first (Vanished::Absorb). Errors: kObjectNotFound naming the id; kStorage.
  Result<Target> ResolveId(const std::string& id);
  // The object at a repository-relative, percent-decoded path ("" is the root folder).
  // Errors: kObjectNotFound naming the path (also for symlinks, special files and
  // reserved names on the way); kStorage. A path below a folder that is gone has the
  // folder's removal taken in first (see AbsorbGoneFolder).
  Result<Target> ResolvePath(const std::string& path);
  // The location an indexed id names, verified. kObjectNotFound if none.
  Result<Loc> Locate(const std::string& base_id);
  // As ResolveId for a folder. kInvalidArgument if `id` is not a folder.
  Result<Loc> LocateFolder(const std::string& id);
  // As ResolveId, for a change of the object: an adopted document (docs/STORAGE.md
  // §4.1) is given the files of an ordinary one first (Adopter::Materialize, its own
  // change), once `may_change` (when given) has allowed the change on the document as
  // found: a write refused for its permission writes nothing at all. (The caller checks
  // again on what this returns: `may_change` is asked for adopted documents only.)
  // Errors: as ResolveId; those of `may_change`; those of Materialize.
  Result<Target> ResolveIdToChange(const std::string& id,
                                   const std::function<Status(const Target&)>& may_change = {});
  // The target an object built before describes (its id and path), verified against
  // its record: how a write resolves the object a request already resolved, without the
  // index. Falls back to ResolveId when the object moved meanwhile.
  Result<Target> Relocate(const ObjectData& object);
  // Has the removal (or move) by hand of the folder that was at `folder_path` taken in
  // (Vanished::Absorb), when its id is known: from its marker in its parent
  // (repo/folder_markers.h), else (data written before markers) from its record, which
  // went with the folder, if this process read it (the record cache). Moved or deleted
  // by Folio, the id resolves and nothing is done. Errors: kStorage.
  Status AbsorbGoneFolder(const std::string& folder_path);
  // The id of the folder at `folder_path`, adopting a directory made by hand.
  Result<std::string> FolderIdAt(const std::string& folder_path);
  // The document `name` in `folder` with its series record attached (a file added by
  // hand is adopted first); its working copy if it has no version yet.
  Result<Target> DocumentTarget(const std::string& folder, const std::string& name);
  // Forgets the document paths known to be files (see Repository::DropCaches).
  void DropCaches();

 private:
  Result<Loc> LocateAt(const std::string& base_id, int depth);
  // True if the record at `loc` carries its id; keeps the record in `loc.record`. A
  // record there that cannot be read (damage, not an absence) sets `*damage` when given.
  bool Verify(Loc& loc, Status* damage = nullptr);
  // `loc` is the adopted document `doc`: its id, the series.json it stands for, `doc`.
  static void SetAdopted(Loc& loc, const std::shared_ptr<const AdoptedDoc>& doc);
  // The adopted document `series_id` (not indexed), found through its folder's tables.
  Result<Loc> LocateAdopted(const std::string& series_id, int depth);
  // ResolvePath's notice of a gone folder above `path` (see ResolvePath).
  Status AbsorbGoneAncestor(const std::string& path);
  std::optional<Target> KnownDocumentAt(const std::string& visible, const std::string& parent,
                                        const std::string& name);
  void RememberDocumentAt(const std::string& visible, const FileStat& st);

  Fs& fs_;
  const storage::RepoLayout& layout_;
  const RepositoryInfo& info_;
  RecordReader& records_;
  AdoptedDocs& adopted_;
  storage::Committer& committer_;
  Adopter* adopter_ = nullptr;
  Vanished* vanished_ = nullptr;
  // Visible document paths a confined Stat found to be regular files, with their
  // identity (see KnownDocumentAt).
  const size_t max_known_paths_;
  std::mutex known_mu_;
  std::unordered_map<std::string, FileStat> known_paths_;
};

}  // namespace folio::repo
