// A folder's children. The sorted list of names is cached per folder and validated on
// every use by the directory's inode and mtime (and those of its items directory), so a
// page from a folder of 100,000 documents costs about what one from 1,000 does.
// A listing never writes (Rule R1, docs/STORAGE.md §10: it runs under a
// storage::LookupScope): what it finds made or removed by hand it records
// (repo/hand_edits/seen_edits.h), before any child is built.
#pragma once

#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "repo/lookup/location.h"
#include "storage/layout.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::lookup {

struct ListedChild {
  std::string name;
  BaseType base;
};
struct Listing {
  int64_t dir_mtime_ns = 0;
  uint64_t dir_inode = 0;
  int64_t items_mtime_ns = 0;
  std::vector<ListedChild> children;  // sorted by name (byte order)
  // Read within the clock's granularity of the directory's change: never a cache hit
  // (the directory may change again unseen).
  bool racy = false;
};

// Uses: fs, layout, locator, adopted, builder.
class Listings {
 public:
  explicit Listings(Engine& engine) : engine_(engine) {}

  // The children of the folder at `folder` (repository-relative): what ls shows, less
  // metadata, temp files, symlinks and special files, plus the folder's items. A listing
  // read afresh (not cached, or the directory changed) also records (SeenEdits) the
  // documents whose file was removed by hand (kRemovals), the files added by hand
  // (kAdoptDocuments, all of them), the directories made by hand (kAdoptFolder), and the
  // subfolders whose markers differ (kMarkers: one removed or moved by hand, also while
  // no Folio ran, or one without its marker); such a listing is not kept. Three more
  // directory reads and a stat per subfolder, only when the folder changed. Errors: kStorage (kObjectNotFound-like
  // causes as the filesystem gives them); ReconcileFirst inside a staging that meets
  // what is to adopt; the failure of reconciling a removal or the markers earlier in
  // the request.
  Result<std::shared_ptr<const Listing>> List(const std::string& folder);
  // The child `child` of the folder at `folder` (a listing's entry), built (a document:
  // its latest version), for the listing alone: a document memoised already is used,
  // none is memoised (Repository::ReadOnce). A page of 1,000 children otherwise
  // took half the memo and, past its bound, emptied it of the documents getObject
  // reads again and again, while a listing built again is no slower (bench/RESULTS.md).
  // `folder_dir` (when given): the folder's directory (OpenFolderDir): a document's file
  // is then one fstatat beneath it rather than a stat of its whole path.
  // Errors: kObjectNotFound if it went since the listing; kStorage.
  Result<ObjectData> BuildChild(const std::string& folder, const ListedChild& child,
                                Directory* folder_dir = nullptr);
  // The directory of the folder at `folder`, opened for BuildChild; null when it cannot
  // be opened (BuildChild then stats each file by its path, which says what is wrong).
  std::unique_ptr<Directory> OpenFolderDir(const std::string& folder);
  // OK when `name` is a valid object name that no child of `folder` has, and the path
  // it gives the object is within the limit (Rule P1, storage/name_rules.h).
  // Errors: kNameConstraintViolation naming the name and the folder; kConstraint for a
  // path too long; kStorage.
  Status CheckNameFree(const std::string& folder, const std::string& name);
  // Rule P1 for a folder at `folder` that moves or is renamed to `name` in `to_folder`:
  // OK when everything below it stays within the limit. Reads the tree below it only
  // when its path grows. Errors: kConstraint naming the folder; kStorage.
  Status CheckTreeFits(const std::string& folder, const std::string& to_folder, const std::string& name);
  // Logs that `object` (its path "/a/b", or its id) was left out of an answer because
  // `why` (a damaged record): a warning naming it, once per object and message.
  void LogDamaged(const std::string& object, const Status& why);
  // Rule D1, owned here (docs/STORAGE.md §10, "a damaged record spoils only its own
  // object"): true when a read failed with `s` because of damage (a record that does
  // not parse, a file that cannot be read); listings, descendants, folderTree,
  // getCheckedOut, query and contentChanges leave such an object out, log it once
  // (LogDamaged) and answer the rest.
  static bool IsDamage(const Status& s) { return s.kind() == ErrorKind::kStorage; }
  // Forgets the listings kept (see Repository::DropCaches).
  void DropCaches();

 private:
  Engine& engine_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Listing>> cache_;
  std::set<std::string> logged_damage_;  // guarded by mu_; bounded (kMaxLoggedDamage)
  // Records what `entries` (the folder's directory as just read) show made or removed
  // by hand (see List); true when it recorded anything.
  Result<bool> SeeHandEdits(const std::string& folder, const std::vector<DirEntry>& entries);
};

}  // namespace folio::repo::lookup
