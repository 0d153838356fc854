// A repository: the objects (folders, documents with their versions, items,
// relationships) and type definitions of one repository directory. Start reading here.
//
// Object ids: a folder, item or relationship id; a document series id (resolves to the
// latest version); a version id "{series};{label}"; a working copy id "{series};pwc".
// Paths are repository-relative, '/'-separated, percent-decoded ("" is the root folder).
//
// Thread-safety: every method may be called from any thread. Reads take no lock and
// never see a half-written file; changes are serialised per repository by an
// in-process mutex and a cross-process file lock, and each is atomic and durable.
// Changes made on disk by hand or by another process are seen by the next call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "folio/repository_caches.h"
#include "folio/status.h"
#include "folio/write_check.h"

namespace folio {

namespace repo {
class Engine;
}

// A type's property definitions (the "propertyDefinitions" member of its CMIS type
// JSON, own and inherited) with an index by property id. Shared and immutable; not
// copyable (the index points into `json`).
struct PropertyDefinitionIndex {
  PropertyDefinitionIndex() = default;
  PropertyDefinitionIndex(const PropertyDefinitionIndex&) = delete;
  PropertyDefinitionIndex& operator=(const PropertyDefinitionIndex&) = delete;
  Json json = Json::object();
  std::unordered_map<std::string_view, const Json*> by_id;  // views into `json`
};

struct RepositoryInfo {
  std::string domain_id;
  std::string repository_id;
  std::string name;
  std::string description;
  std::string variant = "B";  // "A" or "B" (docs/API.md §5)
  int64_t created_ms = 0;
  std::string root_folder_id;
};

// Content streamed into the repository's upload area before the change that uses it:
// written, finished (synced), then passed as ContentSource, which links it into place
// (no byte copied). The file is removed when the Upload is destroyed, unless a change
// consumed it.
class Upload {
 public:
  virtual ~Upload() = default;
  // Appends bytes. Errors: kStorage; kRuntime after Finish.
  virtual Status Write(std::string_view bytes) = 0;
  // Appends what `src` has left to read (a kernel copy where possible).
  virtual Status WriteFrom(ReadableFile& src) = 0;
  // Syncs and closes the file; no write after. Errors: kStorage.
  virtual Status Finish() = 0;
  virtual uint64_t size() const = 0;
  // The finished upload, to read back (appendContent adds it to existing content).
  virtual Result<std::unique_ptr<ReadableFile>> Read() const = 0;
  // The data-directory-relative path (ContentSource::upload_path).
  virtual const std::string& path() const = 0;
  // SHA-256 of the finished upload's bytes (64 hex digits), "" when not known.
  virtual std::string sha256() const { return ""; }
  // The content to create or check in with: this upload, with its MIME type and file name.
  ContentSource AsContent(std::string mime_type, std::string file_name) const {
    ContentSource c;
    c.mime_type = std::move(mime_type);
    c.file_name = std::move(file_name);
    c.upload_path = path();
    c.sha256 = sha256();
    return c;
  }
};

// One event of a repository's change log (docs/API.md, content changes).
struct ChangeEventInfo {
  uint64_t token = 0;
  int64_t time_ms = 0;
  std::string type;  // "created", "updated", "deleted", "security"
  std::string object_id;
  std::string base_type_id;
  std::string type_id;
  // "deleted" events: the principals the object's ACL let read it when it was deleted.
  std::vector<std::string> readers;
};

struct ChangeLogPage {
  std::vector<ChangeEventInfo> events;
  bool has_more = false;
  uint64_t first_kept = 0;  // the oldest token still kept (0 for an empty log)
  uint64_t latest = 0;      // the newest token (0 for an empty log)
  bool truncated = false;   // events older than first_kept were dropped
};

// What repositoryInfo says of the change log.
struct ChangeLogStatus {
  uint64_t latest = 0;     // the newest token (0 for an empty log)
  bool truncated = false;  // events were dropped by retention (CMIS changesIncomplete)
};

// What getDescendants and getFolderTree walk (docs/API.md §7.6).
struct TreeRequest {
  int64_t depth = -1;         // levels below the folder: 1 its children; -1 all
  bool folders_only = false;  // getFolderTree
  uint64_t max_objects = 0;   // a walk that would visit more is refused (0: no limit)
};

// Receives a walk of the tree below a folder: Enter for each object, depth first, with
// its level (1: a child of the folder); the object's own descendants come next, then
// its Leave. An error returned stops the walk and is its result.
class TreeVisitor {
 public:
  virtual ~TreeVisitor() = default;
  virtual Status Enter(const ObjectData& object, int64_t level) = 0;
  virtual Status Leave() = 0;
};

// Told of the events a change of this process appended to the change log of the
// repository at data-directory-relative `base` ("domain/repository") whose variant is
// `variant` ("A" or "B"), in token order, on the appending thread while the log's lock is
// held (so calls for one repository come in log order): it must be quick, must not block
// and must not call the repository.
using ChangeListener = std::function<void(const std::string& base, const std::string& variant,
                                          const std::vector<ChangeEventInfo>& events)>;

struct RepositoryOptions {
  bool read_only = false;
  ChangeListener on_changes = {};  // empty: nobody is told
  // Change-log events kept (see StoreOptions::change_log_max_events).
  uint64_t change_log_max_events = 100000;
  uint32_t spare_grace_ms = 500;  // see StoreOptions::spare_grace_ms
  uint32_t version_list_max = 1000;  // see StoreOptions::version_list_max
  RepositoryCaches caches = {};  // see folio/repository_caches.h
};
// Chooses the MIME type of a file the engine adopts (added by hand, or placed by
// `folio import`) when its name's extension says nothing: gets the file's first bytes
// (at most kMimeSniffBytes) and returns a MIME type, or "" to keep
// application/octet-stream. Called while the adopting change is staged: it must be
// quick and must not call the repository.
using MimeSniffer = std::function<std::string(std::string_view head)>;
inline constexpr size_t kMimeSniffBytes = 16 * 1024;

class Repository {
 public:
  // Opens the repository at data-directory-relative `base` ("domain/repository") and
  // completes changes an interrupted process left in its journal. Does not scan the
  // tree. Errors: kObjectNotFound if there is no repository there; kStorage.
  static Result<std::shared_ptr<Repository>> Open(Fs& fs, const std::string& base, bool read_only = false);
  static Result<std::shared_ptr<Repository>> Open(Fs& fs, const std::string& base, const RepositoryOptions& options);
  ~Repository();

  const RepositoryInfo& info() const;

  // While one lives on a thread, the documents that thread reads from any repository
  // are not kept for later reads (what is kept already is still used): for bulk reads
  // nobody waits on, such as the query index's scan of the whole tree and its catch-up.
  // Kept, objects read once pushed out those requests use and held most of the
  // server's memory while it indexed (a first scan of 10,000 hand-added files: 73 MB
  // resident at its peak, 40 MB without; bench/RESULTS.md). Nests; not movable.
  class ReadOnce {
   public:
    ReadOnce();
    ~ReadOnce();
    ReadOnce(const ReadOnce&) = delete;
    ReadOnce& operator=(const ReadOnce&) = delete;
  };

  // --- Reading -------------------------------------------------------------------
  // Errors (all reads): kObjectNotFound naming the id or path; kStorage.
  Result<ObjectData> GetObject(const std::string& id);
  Result<ObjectData> GetObjectByPath(const std::string& path);
  // As GetObject and GetObjectByPath, without copying the object: a document built
  // before from the same records is shared (read-only) with the repository's memo.
  // For the hot read path (every getObject over HTTP).
  Result<std::shared_ptr<const ObjectData>> GetObjectShared(const std::string& id);
  Result<std::shared_ptr<const ObjectData>> GetObjectByPathShared(const std::string& path);
  // A cheap revalidation for a reader that keeps what it built of a document (the HTTP
  // server's kept answers): what a change through Folio or an edit of the document's
  // file moves, taken at one instant. See Unchanged.
  struct Stamp {
    FileStat log;            // the repository's commit log
    uint64_t applied = 0;    // changes this process had applied
    FileStat file;           // the document's file
    int64_t taken_ms = 0;    // steady clock
  };
  // The stamp of now for the document whose repository-relative path is `path`. Take
  // it before the lookup that confirms what the reader keeps. nullopt when none would
  // serve: the commit log changed within the last 100 ms (a further change in the same
  // tick of the filesystem's clock could leave it as it is), there is no log or no file.
  std::optional<Stamp> StampNow(const std::string& path);
  // True when nothing the document at `path` is built from can have changed since `s`
  // was taken, as far as a second allows: no change was committed by any process
  // (every commit writes the commit log, once before it applies its files and once
  // after), this process applied none, the document's file has the identity it had,
  // and `s` is less than a second old (an edit by hand of a record, which nothing here
  // watches, is seen within a second; one of a document's file at once). Two stats.
  bool Unchanged(const Stamp& s, const std::string& path);
  // The latest version (or latest major version) of the series `id` belongs to.
  // kObjectNotFound if `major` and the series has no major version.
  Result<ObjectData> GetLatestVersion(const std::string& id, bool major);
  // Children of a folder in a stable order (name, byte order, unless `order` says
  // otherwise). kInvalidArgument if `id` is not a folder.
  Result<ChildrenPage> GetChildren(const std::string& folder_id, uint64_t skip, uint64_t max,
                                   ChildOrder order = {});
  // The same page one child at a time (see ChildrenCursor). When `admit` is given, the
  // children it rejects are left out before paging: not handed out, not counted (the
  // children a caller may not read); every child is then built once to ask it, and
  // each is dropped unless handed out. Errors (before any child): as GetChildren.
  using ChildFilter = std::function<bool(const ObjectData&)>;
  Result<std::unique_ptr<ChildrenCursor>> OpenChildren(const std::string& folder_id, uint64_t skip, uint64_t max,
                                                       ChildOrder order = {}, ChildFilter admit = {});
  // Walks the objects below folder `folder_id` (items and latest document versions
  // included, relationships not) in name order at each level; see repo/lookup/tree.h.
  // Returns how many were visited. Errors: kInvalidArgument if `folder_id` is not a
  // folder or the depth is 0 or below -1; kConstraint naming request.max_objects when
  // the walk would visit more (before any visit); kObjectNotFound; kStorage.
  Result<uint64_t> VisitDescendants(const std::string& folder_id, const TreeRequest& request, TreeVisitor& visitor);
  // The folder holding `id` (empty for the root folder and relationships).
  Result<std::vector<ObjectData>> GetParents(const std::string& id);
  // The content of a document version or working copy. kConstraint if it has none.
  Result<ContentStream> OpenContent(const std::string& id);
  // The content of `object`, a document the caller has already resolved and built (no
  // second lookup). Errors: kConstraint if it is not a document or has no content;
  // kObjectNotFound if that version is gone; kStorage.
  Result<ContentStream> OpenContent(const ObjectData& object);
  // All versions, oldest first, the working copy (if any) last. kInvalidArgument if
  // `id` is not a document.
  Result<std::vector<ObjectData>> GetAllVersions(const std::string& id);
  // The versions of GetAllVersions (or newest first, the working copy first), each
  // handed to `visit` as it is built and then dropped: a series of 10,000 versions is
  // never held whole. If a change in flight makes a read fail, the call starts again
  // from the first version, calling `restart` first (it is also called before the first
  // attempt) with the number of objects to come. Returns how many were visited.
  // Errors: as GetAllVersions, and the first error `visit` returns.
  Result<size_t> VisitAllVersions(const std::string& id, bool newest_first,
                                  const std::function<void(size_t count)>& restart,
                                  const std::function<Status(const ObjectData&)>& visit);
  // The relationships whose source (or target, or either) is `id`, by relationship id.
  // A document's relationships are those of its series: any of its versions (or its
  // series id) at the relationship's end counts. kObjectNotFound if `id` does not exist.
  Result<std::vector<ObjectData>> GetRelationships(const std::string& id, RelationshipDirection direction);
  // Every relationship of the repository, by id (for tools: CMIS asks per object).
  Result<std::vector<ObjectData>> GetAllRelationships();
  // Working copies in the repository (folder_id "") or directly in one folder.
  Result<std::vector<ObjectData>> GetCheckedOut(const std::string& folder_id);

  // --- Creating ------------------------------------------------------------------
  // Errors (all creates): kObjectNotFound if the parent does not exist; kInvalidArgument
  // if it is not a folder or the type does not exist or is of another base type;
  // kNameConstraintViolation for a bad or taken name; kConstraint for properties the
  // type does not allow (naming them); kPermissionDenied on a read-only repository.
  // `check` (every change below takes one, folio/write_check.h): who may make it; the
  // parent folder is its kObject.
  Result<ObjectData> CreateFolder(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                  const WriteCheck& check);
  // `state` kMajor -> 1.0, kMinor -> 0.1, kCheckedOut -> returns the working copy of a
  // series with no version yet, kNone -> an unversioned document.
  Result<ObjectData> CreateDocument(const std::string& parent_id, const NewObject& obj,
                                    const std::optional<ContentSource>& content, VersioningState state,
                                    const std::string& user, const WriteCheck& check);
  Result<ObjectData> CreateItem(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                const WriteCheck& check);
  // `obj.properties` must hold "cmis:sourceId" and "cmis:targetId" of existing objects
  // (checked as kSource and kTarget).
  Result<ObjectData> CreateRelationship(const NewObject& obj, const std::string& user, const WriteCheck& check);
  // A new, empty upload in this repository (see Upload). kPermissionDenied when
  // read-only; kStorage.
  Result<std::unique_ptr<Upload>> NewUpload();

  // --- Changing ------------------------------------------------------------------
  // Sets the given properties (null unsets); a new "cmis:name" renames. Never creates a
  // version. kConstraint naming a read-only property; kInvalidArgument naming an unknown
  // one; kNameConstraintViolation for a bad or taken name.
  Result<ObjectData> UpdateProperties(const std::string& id, const Json& changes, const std::string& user,
                                      const WriteCheck& check);
  // kContentAlreadyExists if the document has content and !overwrite; kConstraint for
  // a non-document.
  Result<ObjectData> SetContent(const std::string& id, const ContentSource& content, bool overwrite,
                                const std::string& user, const WriteCheck& check);
  Result<ObjectData> DeleteContent(const std::string& id, const std::string& user, const WriteCheck& check);
  // Deletes an object. For a document: all versions (all_versions), or only that one
  // (the previous version becomes the latest). A working copy: as CancelCheckOut.
  // kConstraint for a non-empty folder or the root folder.
  Status Delete(const std::string& id, bool all_versions, const WriteCheck& check);
  // Deletes a folder and everything below it. Returns the ids that could not be
  // deleted (none: the operation is atomic: `check` refusing the folder or any object
  // below it (kBelow) refuses the whole change, naming the first refused).
  Result<std::vector<std::string>> DeleteTree(const std::string& folder_id, const WriteCheck& check);
  // Moves an object into `target_folder_id` (ids kept). `source_folder_id`, when not
  // empty, must be its current parent (kInvalidArgument otherwise). kConstraint for
  // moving a folder into itself or below itself, or moving the root folder.
  // `check` sees the object (kObject), its folder (kSource) and the target (kTarget).
  Result<ObjectData> Move(const std::string& id, const std::string& target_folder_id,
                          const std::string& source_folder_id, const std::string& user,
                          const WriteCheck& check);

  // Sets the ACL of `id` (applyACL, docs/API.md §11): a document's is its whole version
  // series' (every version and the working copy); the change log records a "security"
  // event; no property changes. An unchanged ACL writes nothing. kObjectNotFound.
  Result<ObjectData> SetAcl(const std::string& id, const std::vector<Ace>& acl, const WriteCheck& check);
  // applyACL: as SetAcl, with the ACL the object has when the change is staged, `add`
  // added, then `remove` removed (two concurrent applyACLs never lose one's entries).
  // kPropagate on a folder: the same additions and removals reach every object below
  // it (each object's own ACL changed, each document's series whole), in the same
  // change, all or nothing, with a "security" event per object whose ACL changed;
  // `check` sees each object below as a kBelow. Errors: also kStorage naming a record
  // below that cannot be read (nothing changes).
  enum class AclPropagation { kObjectOnly, kPropagate };
  Result<ObjectData> ApplyAcl(const std::string& id, const std::vector<Ace>& add, const std::vector<Ace>& remove,
                              const WriteCheck& check, AclPropagation propagation = AclPropagation::kObjectOnly);
  // deleteUser, deleteGroup: removes every entry naming `principal` from every ACL of
  // the repository, as one change with a "security" event per object changed. Returns
  // how many objects changed. Errors: kPermissionDenied when read-only; kStorage.
  Result<size_t> RemovePrincipal(const std::string& principal);

  // --- Versioning primitives (docs/API.md §6.4) --------------------------------------
  // Makes the private working copy of version `id` (a series id or a path-resolved
  // object means its latest version). kVersioning if the series is checked out
  // (naming who holds it); kConstraint if `id` is not a versionable document.
  Result<ObjectData> CheckOut(const std::string& id, const std::string& user, const WriteCheck& check);
  // Turns working copy `pwc_id` into the next version of its series (major: N+1.0,
  // minor: N.M+1) and returns it. kVersioning if `pwc_id` is not a working copy;
  // kObjectNotFound if it was already checked in or cancelled.
  // Entries added or removed by `request` change the ACL of the whole series and are
  // recorded as a "security" event of their own (after the new version's "created").
  Result<ObjectData> CheckIn(const std::string& pwc_id, const CheckInRequest& request, const std::string& user,
                             const WriteCheck& check);
  // Discards the working copy; the versions stay as they were.
  Status CancelCheckOut(const std::string& pwc_id, const WriteCheck& check);

  // --- Types ---------------------------------------------------------------------
  // A type definition in CMIS type JSON (canonical ids). kObjectNotFound if unknown.
  Result<Json> GetTypeDefinition(const std::string& type_id);
  // The property definitions of `type_id`, built once per version of the type (what a
  // renderer of every answer needs, without copying the type). kObjectNotFound if unknown.
  Result<std::shared_ptr<const PropertyDefinitionIndex>> GetPropertyDefinitions(const std::string& type_id);
  // Direct subtypes of `type_id` ("" -> the base types).
  Result<std::vector<Json>> GetTypeChildren(const std::string& type_id);
  // Type management takes a WriteCheck (folio/write_check.h) whose kObject is the root
  // folder: a type decides what every object of the repository may be.
  //
  // Stores a custom type (CMIS type JSON) with the attributes given (see repo/types/types.h,
  // TypeRegistry::Create). kInvalidArgument for a malformed definition,
  // kContentAlreadyExists if the id is taken, kConstraint if its parent is unknown or
  // an attribute has a value Folio cannot honour (naming it).
  Result<Json> CreateType(const Json& definition, const WriteCheck& check);
  // Changes a custom type's display attributes and adds optional properties (see
  // repo/types/types.h, TypeRegistry::Update); returns the type. kObjectNotFound for an
  // unknown type; kConstraint for a built-in type or a change that could invalidate
  // stored objects, naming the attribute; kInvalidArgument for a malformed definition.
  Result<Json> UpdateType(const Json& definition, const WriteCheck& check);
  // kObjectNotFound for an unknown type; kConstraint for a built-in type, one with
  // subtypes, or while objects of the type exist (checked exactly, naming one; see
  // repo/types/type_usage.h).
  Status DeleteType(const std::string& type_id, const WriteCheck& check);

  // --- The change log ------------------------------------------------------------
  // Up to `max` events from token `from` on (0: from the oldest kept), in order.
  // Errors: kConstraint when `from` is older than the oldest event kept (naming it);
  // kStorage.
  Result<ChangeLogPage> ReadChanges(uint64_t from, size_t max);
  // Who could read `object_id` when it was deleted: the readers recorded by its first
  // "deleted" event with a token >= `token`; nullopt when the log holds none. Cheap
  // after the first call (the log is read once per process). Errors: kStorage.
  Result<std::optional<std::vector<std::string>>> DeletionReaders(const std::string& object_id, uint64_t token);
  // The newest token (0 while the log is empty).
  Result<uint64_t> LatestChangeToken();
  // The newest token and whether events were dropped; reads the end of the log only.
  Result<ChangeLogStatus> GetChangeLogStatus();
  // For the auth helper: records that the ACL of `object_id` changed (a "security"
  // event), as one change of its own. Prefer recording the event in the same change as
  // the ACL (ChangeSet::Record with repo::Event("security", ...)): this is for callers
  // outside the engine. Errors: kObjectNotFound; kPermissionDenied when read-only.
  Status RecordSecurityChange(const std::string& object_id);

  // Where the folder or document at the repository-relative `path` is, as a path
  // relative to the data directory ("" is the repository's root folder): a folder is a
  // directory and a document a file of the same name (docs/STORAGE.md §2). For tools
  // that bring files in (folio import): they copy a file there, then look it up, which
  // adopts it.
  std::string TreePath(const std::string& path) const;
  // The name prefix of such a tool's temporary files in the tree (".folio-tmp-import-"):
  // a reserved name, so never listed nor adopted (docs/STORAGE.md §2). The tool removes
  // its own stale ones.
  static std::string ToolTempPrefix();

  // True when the file at the repository-relative `path` is a document Folio has a
  // record of (a series, or an entry of its folder's adoption table, docs/STORAGE.md
  // §4.1); false for a file not adopted yet (nothing is adopted by asking). For tools
  // that bring files in (folio import). Errors: kStorage.
  Result<bool> HasDocumentRecord(const std::string& path);

  // Sets the sniffer that adoption asks (an empty function: extensions only, the
  // default). Thread-safe.
  void SetMimeSniffer(MimeSniffer sniffer);

  // Makes every change durable and empties the commit log (also done when idle and at
  // close). For tools and tests.
  Status Checkpoint();

  // Lets go of what the repository keeps of what it has read: parsed records, decoded
  // adoption tables, built documents, folder listings. All of it is read again on use
  // (each is checked against the files anyway), and what this process has committed is
  // on disk. For after a bulk read that no request asked for (the query index's scan
  // of the whole tree): its reads would stay, among the holes of everything freed
  // around them, and keep the server's memory high long after. (Only a folder removed
  // by hand from data older than folder markers is then no longer recognised by the
  // record read before: docs/STORAGE.md §9.) Thread-safe.
  void DropCaches();

  // A damaged record spoils only its own object (docs/STORAGE.md §10): true when a read
  // failed with `s` for such damage, which an answer listing many objects (a query,
  // the change log) leaves out, answering the rest. Then `LogLeftOut` logs it: a
  // warning naming `object` (an id or path) and the damage, once per object and message.
  static bool IsDamage(const Status& s);
  void LogLeftOut(const std::string& object, const Status& why);

 private:
  explicit Repository(std::unique_ptr<repo::Engine> engine);
  std::unique_ptr<repo::Engine> engine_;
};

}  // namespace folio
