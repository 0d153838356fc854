// The implementation behind folio::Repository, split by concern over several files:
// repo_locate.cc (ids and paths -> locations), repo_build.cc (locations -> ObjectData),
// repo_listing.cc (children, cached listings), repo_adopt.cc (files added or edited by
// hand), repo_create.cc, repo_change.cc, repo_versioning.cc.
#pragma once

#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "folio/repository.h"
#include "repo/properties.h"
#include "repo/records.h"
#include "repo/types.h"
#include "storage/id_index.h"
#include "storage/journal.h"
#include "storage/json_cache.h"
#include "storage/layout.h"

namespace folio::repo {

// Where an indexed object lives.
// The object `p` points to, moved out when nobody else holds it (the builders make
// every object as a non-const one, for the caller alone unless memoised), else copied.
inline ObjectData TakeOrCopy(std::shared_ptr<const ObjectData> p) {
  if (p.use_count() == 1) return std::move(const_cast<ObjectData&>(*p));
  return *p;
}

struct Loc {
  Loc() = default;
  Loc(BaseType b, std::string i, std::string f, std::string n)
      : base(b), id(std::move(i)), folder(std::move(f)), name(std::move(n)) {}
  BaseType base = BaseType::kFolder;
  std::string id;      // folder, series, item or relationship id
  std::string folder;  // folder: its own path; document/item: its parent's path
  std::string name;    // the object's name ("" for the root folder and relationships)
  // The object's record as read when the location was verified (series.json for a
  // document), so that building the object does not read it again; may be null.
  std::shared_ptr<const Json> record;
  // A document's visible file as stat'ed (IdentityStat) while resolving its path in
  // this request, so that building it does not stat it again; may be empty.
  std::optional<FileStat> visible;
  std::string FolderPathOfParent() const { return base == BaseType::kFolder ? storage::ParentPath(folder) : folder; }
};

// An object id or path, resolved: a location plus, for documents, which version.
struct Target {
  Loc loc;
  std::optional<std::string> label;  // nullopt: the latest version
  bool pwc = false;
};

class RepoImpl;

// Held for the duration of every change: the in-process (recursive) mutex and, for
// the outermost holder on a thread, the cross-process lock file, taken after which
// the journal is recovered. Nested holders (an adoption during a change) share it.
class WriteGuard {
 public:
  explicit WriteGuard(RepoImpl* r) : r_(r) {}
  WriteGuard(WriteGuard&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  WriteGuard& operator=(WriteGuard&&) = delete;
  ~WriteGuard();

 private:
  RepoImpl* r_;
};

struct ListedChild {
  std::string name;
  BaseType base;
};
struct Listing {
  int64_t dir_mtime_ns = 0;
  uint64_t dir_inode = 0;
  int64_t items_mtime_ns = 0;
  std::vector<ListedChild> children;  // sorted by name
};

class RepoImpl {
 public:
  RepoImpl(Fs& fs, std::string base, bool read_only);

  // repository.cc
  Status Load();
  const RepositoryInfo& info() const { return info_; }

  // --- repo_locate.cc ---
  Result<Target> ResolveId(const std::string& id);
  Result<Target> ResolvePath(const std::string& path);
  Result<Loc> Locate(const std::string& base_id, int depth = 0);
  Result<Loc> LocateFolder(const std::string& id);  // kInvalidArgument if not a folder
  // A document at the visible path `visible` (= parent/name) that a confined Stat found
  // before and that is still the same file; nullopt means "take the full path".
  std::optional<Target> KnownDocumentAt(const std::string& visible, const std::string& parent,
                                        const std::string& name);
  void RememberDocumentAt(const std::string& visible, const FileStat& st);
  // The document `name` in `folder` (its working copy if it has no version yet), with
  // its series record attached; a file added by hand is adopted first.
  Result<Target> DocumentTarget(const std::string& folder, const std::string& name);
  Result<std::string> FolderIdAt(const std::string& folder_path);

  // --- repo_build.cc ---
  Result<ObjectData> Build(const Target& t);
  // As Build, sharing the object with the memo of built documents when it is there (no
  // copy of ~35 properties); objects not memoised are built for the caller alone.
  Result<std::shared_ptr<const ObjectData>> BuildShared(const Target& t);
  Result<ObjectData> BuildFromRecord(const std::string& path, BaseType base, const std::string& name, Json& mem);
  Result<ObjectData> BuildFolder(const Loc& loc);
  // Facts about a series worked out once by a caller that builds many of its versions.
  struct SeriesHints {
    std::string latest_major;   // LatestMajorLabel(series)
    bool labels_listed = false;  // the label asked for is known to be in the series
  };
  Result<ObjectData> BuildDocument(const Loc& loc, const SeriesRecord& series, std::optional<std::string> label,
                                   bool pwc, const SeriesHints* hints = nullptr);
  Result<std::shared_ptr<const ObjectData>> BuildDocumentShared(const Loc& loc, const SeriesRecord& series,
                                                                std::optional<std::string> label, bool pwc,
                                                                const SeriesHints* hints = nullptr);
  // Every version of the document at `loc`, oldest first, then its working copy (or
  // in reverse, `newest_first`), each handed to `visit` as it is made and then
  // dropped: the objects BuildDocument makes one by one, made with what is the same for
  // every version (parent id, type, the series directory) worked out once
  // (getAllVersions). Stops at the first error, `visit`'s included.
  using VersionVisitor = std::function<Status(ObjectData&&)>;
  Status BuildAllVersions(const Loc& loc, const SeriesRecord& series, bool newest_first,
                          const VersionVisitor& visit);
  // What making a document takes besides its record: worked out per call by
  // BuildDocument, once per series by BuildAllVersions.
  struct DocContext {
    const Loc* loc = nullptr;
    const SeriesRecord* series = nullptr;
    std::string parent_id;
    std::string latest_label;  // LatestLabel(*series)
    std::string latest_major;  // LatestMajorLabel(*series)
  };
  // The document that `rec` (the record of version `label`, or of the working copy),
  // of type `type`, describes, with every derived property: the one place that makes
  // a document's properties, however its record was read.
  ObjectData AssembleDocument(const DocContext& c, const std::string& label, bool pwc, const std::string& type_id,
                              const TypeDef& type, ObjectRecord rec);
  Result<ObjectData> BuildItem(const Loc& loc);
  Result<ObjectData> BuildRelationship(const Loc& loc);
  Result<SeriesRecord> ReadSeries(const std::string& folder, const std::string& name);
  // The series record `json` decodes to, decoded once per cached JSON object (a long
  // series lists thousands of labels; every request by path needs the record).
  Result<std::shared_ptr<const SeriesRecord>> DecodeSeries(const std::shared_ptr<const Json>& json,
                                                           const std::string& what);
  Result<ObjectRecord> ReadRecord(const std::string& path);
  static std::string LatestMajorLabel(const SeriesRecord& s);
  std::string LatestLabel(const SeriesRecord& s) const { return s.versions.empty() ? "" : s.versions.back(); }

  // --- repo_relationships.cc ---
  Result<std::vector<ObjectData>> Relationships(const std::string& id, RelationshipDirection direction);

  // --- repo_listing.cc ---
  Result<std::shared_ptr<const Listing>> List(const std::string& folder);
  Result<ChildrenPage> Children(const std::string& folder_id, uint64_t skip, uint64_t max, ChildOrder order);
  Status CheckNameFree(const std::string& folder, const std::string& name);

  // --- repo_adopt.cc ---
  // Gives a directory made by hand a folder record and id (under the write lock).
  Status AdoptFolder(const std::string& folder);
  // Gives a file added by hand a series with version 1.0.
  Status AdoptDocument(const std::string& folder, const std::string& name);
  // Takes an edit by hand of a document's file as new content of its latest version
  // (seed rule 5: no new version). Returns the fresh series record.
  Result<SeriesRecord> AbsorbHandEdit(const std::string& folder, const std::string& name);

  // --- writes (repo_create.cc, repo_change.cc, repo_versioning.cc) ---
  // `internal`: bookkeeping (adoption) allowed even on a read-only repository.
  Result<WriteGuard> LockForWrite(bool internal = false);
  Result<ObjectData> CreateFolder(const std::string& parent_id, const NewObject& obj, const std::string& user);
  Result<ObjectData> CreateDocument(const std::string& parent_id, const NewObject& obj,
                                    const std::optional<ContentSource>& content, VersioningState state,
                                    const std::string& user);
  Result<ObjectData> CreateItem(const std::string& parent_id, const NewObject& obj, const std::string& user);
  Result<ObjectData> CreateRelationship(const NewObject& obj, const std::string& user);
  Result<Upload> NewUpload();
  Result<ObjectData> UpdateProperties(const std::string& id, const Json& changes, const std::string& user);
  Result<ObjectData> SetContent(const std::string& id, const std::optional<ContentSource>& content, bool overwrite,
                                const std::string& user);
  Status Delete(const std::string& id, bool all_versions);
  Result<std::vector<std::string>> DeleteTree(const std::string& folder_id);
  Result<ObjectData> Move(const std::string& id, const std::string& target_folder_id,
                          const std::string& source_folder_id, const std::string& user);
  Result<ObjectData> CheckOut(const std::string& id, const std::string& user);
  Result<ObjectData> CheckIn(const std::string& pwc_id, const CheckInRequest& request, const std::string& user);
  Status CancelCheckOut(const std::string& pwc_id);
  Result<std::vector<ObjectData>> AllVersions(const std::string& id);
  // As AllVersions, one object at a time (see BuildAllVersions); `start` learns how many
  // are coming before the first. Returns how many were visited.
  Result<size_t> VisitAllVersions(const std::string& id, bool newest_first, const std::function<void(size_t)>& start,
                                  const VersionVisitor& visit);
  Result<std::vector<ObjectData>> CheckedOut(const std::string& folder_id);

  // Shared write helpers.
  // Stages `content` as the file `target` in `tx` (upload: moved; bytes: written).
  Result<std::string> StageContent(storage::Transaction& tx, const std::string& target, const ContentSource& content);
  // Stages the user-visible file of a document as a copy of `source` and records its
  // size and mtime in `series`.
  Status StageVisible(storage::Transaction& tx, const std::string& target, const std::string& source,
                      SeriesRecord& series);
  Result<std::optional<ContentInfo>> DescribeContent(const std::optional<ContentSource>& content,
                                                     const std::string& staged_path, const std::string& doc_name);
  Status StageSeriesRemoval(storage::Transaction& tx, const Loc& loc);
  Status StageCheckedOutMarker(storage::Transaction& tx, const std::string& series_id, bool present);
  // A fresh id with `prefix` that no index entry holds yet (caller holds the write lock).
  std::string NewObjectId(char prefix);
  // At commit of `tx`, `path` (a file or a tree) is renamed into the trash and removed.
  Status StageDiscard(storage::Transaction& tx, const std::string& path);

  Fs& fs_;
  storage::RepoLayout layout_;
  bool read_only_;
  RepositoryInfo info_;
  TypeRegistry types_;
  storage::JsonCache cache_{8192};
  std::recursive_mutex write_mu_;
  int lock_depth_ = 0;                   // guarded by write_mu_
  std::unique_ptr<FileLock> file_lock_;  // held while lock_depth_ > 0
  // Documents as last built, by record path; valid only while built from the same
  // cached series record, version record and type, under the same parent id.
  struct DocMemo {
    std::shared_ptr<const Json> series, record;
    std::shared_ptr<const TypeDef> type;
    std::string parent_id;
    std::shared_ptr<const ObjectData> obj;
  };
  static constexpr size_t kMaxMemoDocuments = 2048;
  // Decoded series records by the cached JSON they came from (kept alive here, so its
  // address is not reused while the entry exists).
  struct SeriesMemo {
    std::shared_ptr<const Json> json;
    std::shared_ptr<const SeriesRecord> series;
  };
  // Read-only repositories, which may not write: visible document files found to hold
  // their latest version's bytes under another time stamp, with the stat then seen
  // (see AbsorbHandEdit). Bounded like the other caches.
  std::mutex unchanged_mu_;
  std::unordered_map<std::string, FileStat> unchanged_;
  bool KnownUnchanged(const std::string& visible, const FileStat& st);
  std::mutex series_memo_mu_;
  std::unordered_map<const Json*, SeriesMemo> series_memo_;
  std::mutex memo_mu_;
  std::unordered_map<std::string, DocMemo> memo_;
  // Visible document paths a confined Stat found to be regular files, with their
  // identity (see KnownDocumentAt).
  static constexpr size_t kMaxKnownPaths = 4096;
  std::mutex known_paths_mu_;
  std::unordered_map<std::string, FileStat> known_paths_;
  std::mutex listing_mu_;
  std::map<std::string, std::shared_ptr<const Listing>> listings_;
};

// Common stored properties of a new object.
Json NewObjectProperties(const std::string& type_id, const std::string& user, int64_t now_ms);
// Sets cmis:lastModifiedBy / cmis:lastModificationDate in stored properties.
void Touch(Json& stored, const std::string& user, int64_t now_ms);

}  // namespace folio::repo
