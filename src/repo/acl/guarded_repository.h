// A repository as one caller may use it: every read checks or filters by the caller's
// permissions, every write carries the caller's WriteCheck (docs/API.md §11.3). The
// served API reaches repositories only through this view (api/ops), so an operation
// cannot forget a check; trusted in-process callers (the CLI, fsck, import, tests) use
// Repository itself.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "folio/status.h"
#include "repo/acl/actions.h"
#include "repo/acl/checker.h"
#include "repo/query/binder.h"
#include "repo/query/query_index.h"

namespace folio::acl {

// One event of the change log as a caller sees it (ReadChanges).
struct VisibleChange {
  ChangeEventInfo event;
  // The object as it is now when `exists`; else only its id, base and type (its
  // properties empty): a deleted object, one gone since, or one not asked for.
  ObjectData object;
  bool exists = false;
};

struct VisibleChanges {
  std::vector<VisibleChange> events;
  bool has_more = false;
  uint64_t latest = 0;    // the log's newest token (0 for an empty log)
  bool filtered = false;  // events were looked at and may have been left out
};

// What RunQuery matched.
struct QueryCounts {
  uint64_t total = 0;    // every match the caller may read (numItems)
  uint64_t matched = 0;  // the page's hits before the objects were read again
};

// Thread-compatible: one per request (the checker is the request's caller). Holds the
// repository alive.
class GuardedRepository {
 public:
  // Both required: there is no view without a policy.
  GuardedRepository(std::shared_ptr<Repository> repo, Checker checker);

  const RepositoryInfo& info() const { return repo_->info(); }
  const Checker& checker() const { return checker_; }
  // True when the caller may do everything (a domain administrator, anyone in a domain
  // without users): nothing is left out, and listings skip the per-object checks.
  bool SeesEverything() const { return checker_.caller().domain_admin(); }

  // --- One object ------------------------------------------------------------------
  // Errors: kPermissionDenied unless the caller holds what `action` needs on the object
  // (Checker::Require: naming nothing of an object the caller may not read); for the
  // id of a version or working copy of a document the caller may not read, that same
  // denial whether or not the version exists; else as Repository::GetObjectShared.
  Result<std::shared_ptr<const ObjectData>> GetObject(const std::string& id, Action action);
  // The same by path (a path that does not exist is kObjectNotFound).
  Result<std::shared_ptr<const ObjectData>> GetObjectByPath(const std::string& path, Action action);
  // The latest (major) version of the series of `id`. Errors: kPermissionDenied unless
  // the caller may read it; else as Repository::GetLatestVersion.
  Result<ObjectData> GetLatestVersion(const std::string& id, bool major);
  // What `action` needs on `object`, an object looked up before (Checker::Require).
  Status Require(Action action, const ObjectData& object) const;
  // Type management needs cmis:all on the root folder, whatever the URL: for a refusal
  // before the request's definition is read (the change checks again). Errors:
  // kPermissionDenied; those of reading the root folder.
  Status RequireTypeManagement();

  // --- Reads of what an object holds or points to ------------------------------------
  // Each first requires cmis:read on the object passed (one looked up through this
  // view), then leaves out what the caller may not read: not returned, not counted.
  //
  // The object's parents the caller may read.
  Result<std::vector<ObjectData>> GetParents(const ObjectData& object);
  // The folder holding `folder`: nullopt for the root folder. Errors: kPermissionDenied
  // when the caller may not read it.
  Result<std::optional<ObjectData>> GetFolderParent(const ObjectData& folder);
  // Errors: as Repository::OpenContent.
  Result<ContentStream> OpenContent(const ObjectData& document);
  // A page of the children the caller may read, paged and counted among those only
  // (Repository::OpenChildren with its filter).
  Result<std::unique_ptr<ChildrenCursor>> OpenChildren(const ObjectData& folder, uint64_t skip, uint64_t max,
                                                       ChildOrder order);
  // Repository::VisitDescendants, an object the caller may not read left out with
  // everything below it (`visitor` never sees them).
  Result<uint64_t> VisitDescendants(const ObjectData& folder, const TreeRequest& request, TreeVisitor& visitor);
  // The relationships of `object` (Repository::GetRelationships) that the caller may
  // read, and both ends of which it may read.
  Result<std::vector<ObjectData>> GetRelationships(const ObjectData& object, RelationshipDirection direction);
  // The working copies the caller may read, of the repository (`folder` null) or of one
  // folder.
  Result<std::vector<ObjectData>> GetCheckedOut(const ObjectData* folder);
  // Repository::VisitAllVersions of the series `id` names. A series shares its ACL:
  // the first version built is checked (kPermissionDenied before anything is visited).
  Result<size_t> VisitAllVersions(const std::string& id, bool newest_first,
                                  const std::function<void(size_t count)>& restart,
                                  const std::function<Status(const ObjectData&)>& visit);

  // --- Query (docs/API.md §12.6) ---------------------------------------------------
  // Binds `parsed` to the repository's types (query::Bind).
  Result<query::BoundQuery> BindQuery(const query::ParsedQuery& parsed, const query::IdSpelling& spelling);
  // Runs `bound` on `index`, matching, counting and paging only what the caller may
  // read, and hands each hit of the page to `visit` as the repository holds it now:
  // one deleted or made unreadable since the index answered is left out, and one whose
  // record is damaged too (logged). Errors: those of the index, of reading a hit, and
  // the first `visit` returns.
  Result<QueryCounts> RunQuery(query::QueryIndex& index, const query::BoundQuery& bound, query::QueryPage page,
                               const std::function<Status(const ObjectData& object, double score)>& visit);

  // --- The change log (docs/API.md §7.12) -------------------------------------------
  // Up to `max` events from token `from` (0: the oldest kept) that the caller sees: a
  // caller who sees everything sees every event; another the events of objects it may
  // read now, and every event of an object it could read when it was deleted (the
  // readers its "deleted" event recorded). Past events it does not see, reads on until
  // it has `max` (or the log ends): a page of none with more to come would give it no
  // token to go on from. `with_objects`: each event's object as it is now (a caller
  // who does not see everything gets them anyway). Errors: as Repository::ReadChanges;
  // reading an object other than a damaged record (logged, the event says what it
  // knows itself).
  Result<VisibleChanges> ReadChanges(uint64_t from, size_t max, bool with_objects);
  Result<ChangeLogStatus> GetChangeLogStatus() { return repo_->GetChangeLogStatus(); }
  Result<uint64_t> LatestChangeToken() { return repo_->LatestChangeToken(); }

  // --- Types (every member of the repository may read them) ----------------------------
  Result<Json> GetTypeDefinition(const std::string& type_id) { return repo_->GetTypeDefinition(type_id); }
  Result<std::shared_ptr<const PropertyDefinitionIndex>> GetPropertyDefinitions(const std::string& type_id) {
    return repo_->GetPropertyDefinitions(type_id);
  }
  Result<std::vector<Json>> GetTypeChildren(const std::string& type_id) { return repo_->GetTypeChildren(type_id); }

  // --- Revalidating a kept answer (Repository::StampNow, Unchanged) ------------------
  std::optional<Repository::Stamp> StampNow(const std::string& path) { return repo_->StampNow(path); }
  bool Unchanged(const Repository::Stamp& s, const std::string& path) { return repo_->Unchanged(s, path); }

  // --- Changes ---------------------------------------------------------------------
  // Each is Repository's, made as the caller (its user name recorded) with the
  // caller's WriteCheck for the action named (Checker::ForWrite), checked inside the
  // change. Errors: as Repository's; kPermissionDenied from the check.
  Result<ObjectData> CreateFolder(const std::string& parent_id, const NewObject& obj);  // kCreateChild
  Result<ObjectData> CreateItem(const std::string& parent_id, const NewObject& obj);    // kCreateChild
  Result<ObjectData> CreateDocument(const std::string& parent_id, const NewObject& obj,  // kCreateChild
                                    const std::optional<ContentSource>& content, VersioningState state);
  Result<ObjectData> CreateRelationship(const NewObject& obj);  // kCreateRelationship
  Result<ObjectData> UpdateProperties(const std::string& id, const Json& changes);  // kUpdateProperties
  Result<ObjectData> SetContent(const std::string& id, const ContentSource& content, bool overwrite);  // kSetContent
  Result<ObjectData> DeleteContent(const std::string& id);                                           // kDeleteContent
  Status Delete(const std::string& id, bool all_versions);                                           // kDelete
  Result<std::vector<std::string>> DeleteTree(const std::string& folder_id);                         // kDeleteTree
  Result<ObjectData> Move(const std::string& id, const std::string& target_folder_id,
                          const std::string& source_folder_id);  // kMove
  Result<ObjectData> ApplyAcl(const std::string& id, const std::vector<Ace>& add, const std::vector<Ace>& remove,
                              Repository::AclPropagation propagation);  // kApplyAcl
  Result<ObjectData> CheckOut(const std::string& id);                   // kCheckOut
  // kCheckIn; kApplyAcl when `request` adds or removes ACL entries.
  Result<ObjectData> CheckIn(const std::string& pwc_id, const CheckInRequest& request);
  Status CancelCheckOut(const std::string& pwc_id);  // kCancelCheckOut
  Result<Json> CreateType(const Json& definition);   // kManageTypes
  Result<Json> UpdateType(const Json& definition);   // kManageTypes
  Status DeleteType(const std::string& type_id);     // kManageTypes
  // A new upload (content on its way to a change, which checks; see Upload).
  Result<std::unique_ptr<Upload>> NewUpload() { return repo_->NewUpload(); }

 private:
  // `not_found`, or the caller's denial when `id` is a version or working copy id of a
  // document the caller may not read (GetObject).
  Status UnreadableOr(const std::string& id, Status not_found);
  // Whether the caller may read both ends of `relationship`.
  bool EndsReadable(const ObjectData& relationship);
  // Whether the caller sees event `e`, `now` being its object (null when gone).
  Result<bool> Sees(const ChangeEventInfo& e, const ObjectData* now);

  std::shared_ptr<Repository> repo_;
  Checker checker_;
};

}  // namespace folio::acl
