// The operations, one file per family: server_ops.cc (domains), domain_ops.cc
// (repositories), repository_ops.cc (repository info, types), object_read_ops.cc,
// object_write_ops.cc, navigation_ops.cc, versioning_ops.cc (versioning, checked-out
// list, ACL), changes_ops.cc (the change log). Each takes the Context that dispatch.cc
// built (level, repository, variant, target) and returns a Response or a Status that
// dispatch turns into the error response.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/auth/authenticator.h"
#include "api/dispatch.h"
#include "api/json_input.h"
#include "api/operation.h"
#include "api/params.h"
#include "api/render.h"
#include "api/variant.h"
#include "folio/repository.h"
#include "folio/store.h"
#include "repo/acl/accounts.h"
#include "repo/acl/actions.h"
#include "repo/acl/caller.h"
#include "repo/acl/checker.h"
#include "repo/acl/guarded_repository.h"

namespace folio::query {
class QueryIndexes;
}

namespace folio::api::ops {

enum class Level { kServer, kDomain, kRepository };

struct Context {
  Context(Store& s, const ServiceOptions& o, const Request& r, const Params& p)
      : store(s), options(o), request(r), params(p) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Store& store;
  const ServiceOptions& options;
  const Request& request;
  const Params& params;
  Operation op = Operation::kObject;
  Level level = Level::kServer;
  std::string domain_id;
  std::string repository_id;
  // At repository level: the repository as the caller may use it, the only way an
  // operation reaches it (docs/API.md §11.3): every read checks or filters, every
  // write carries the caller's check. Built by dispatch.cc.
  std::shared_ptr<acl::GuardedRepository> repo;
  Variant variant = Variant::kB;
  std::string path;          // repository-relative object path, "" for the root folder
  bool path_given = false;   // the URL names an object below the repository
  // Who is asking (dispatch.cc authenticates before anything is looked up), and the
  // name it leaves in createdBy, lastModifiedBy, versionSeriesCheckedOutBy.
  acl::Caller caller = acl::Caller::AnonymousDomain();
  std::string user = "anonymous";
  UploadRegistry* uploads = nullptr;  // the content parts of requests in flight
  // Authentication and accounts, for the domain and server operations.
  auth::Authenticator* authenticator = nullptr;
  acl::AccountRegistry* registry = nullptr;
  std::shared_ptr<acl::DomainAccounts> accounts;  // at domain and repository level
  // The access decisions for `caller` (docs/API.md §11).
  acl::Checker Checker() const { return acl::Checker(caller); }
  query::QueryIndexes* query_indexes = nullptr;  // the server's query indexes (query_ops.cc)

  // The absolute URL of the repository (also its root folder URL).
  std::string RepositoryUrl() const;
  // True when the request names an object: `objectId` (or, for creates, `folderId`) or a path.
  bool HasTarget() const;
  // The object the request addresses: `objectId` wins over the path (docs/API.md §3.1);
  // creates also accept `folderId` for the parent (docs/API.md §3.2–§3.3). Cached.
  // The target object, resolved once per request and kept here; the pointer stays valid
  // for the life of the Context (no copy per call: objects carry ~35 properties).
  // Errors: kPermissionDenied when the caller lacks what the operation needs on it
  // (what the operation table says ctx.op needs, cmis:read when it says nothing),
  // naming the object and the permission it lacks, or naming nothing of an object the
  // caller may not read; the same for the id of a version of such a document that does
  // not exist (acl::GuardedRepository::GetObject).
  Result<const ObjectData*> Target();
  // What the operation table says ctx.op needs on the object it addresses.
  acl::Action TargetAction() const;
  // succinct (default per variant), filter and dateTimeFormat of the request.
  Result<RenderOptions> Rendering() const;

  std::shared_ptr<const ObjectData> target_;  // shared with the repository's memo
  bool target_checked_ = false;               // TargetAction passed for target_
  std::string target_key_;                    // the id or path Target() resolved,
  bool target_by_path_ = false;               // looked up by path (else by id)
};

// Responses.
Response JsonResponse(int status, const Json& body);
// A response whose body is JSON text already (from a JsonWriter).
Response JsonTextResponse(int status, std::string body);
Response EmptyResponse(int status);
// The object rendered per the request (succinct, filter), with `status`; a 201 gets a
// Location header naming the object by id.
Result<Response> ObjectResponse(Context& ctx, const ObjectData& object, int status);

// A page of `objects` per the request's maxItems and skipCount, as the binding's object
// list (§5): {"objects": [...], "hasMoreItems", "numItems"} (checkedout, relationships).
Result<Response> ObjectListResponse(Context& ctx, const std::vector<const ObjectData*>& objects);

// Writes objects as the request asks: succinct, filter, dateTimeFormat and
// includeAllowableActions.
class ObjectWriter {
 public:
  // Errors: a mistyped or invalid succinct, filter, dateTimeFormat or
  // includeAllowableActions parameter.
  static Result<ObjectWriter> For(Context& ctx);
  // Writes one object ({"succinctProperties": ..., "allowableActions": ...}), then the
  // members of `extra` (an object: changeEventInfo, acl, ...) when given.
  void Write(const ObjectData& object, JsonWriter& w, const Json* extra = nullptr);

 private:
  ObjectWriter(Renderer renderer, bool actions, acl::Checker checker)
      : renderer_(std::move(renderer)), actions_(actions), checker_(std::move(checker)) {}
  Renderer renderer_;
  bool actions_;
  acl::Checker checker_;  // allowable actions are the caller's
};

// Input helpers shared by the write operations.
// Errors: kUpdateConflict when `token` is given ("" is not) and is not the object's
// change token.
Status CheckToken(const ObjectData& object, std::string_view token);
// CheckToken with the request's `changeToken`.
Status CheckChangeToken(const Context& ctx, const ObjectData& object);
// The object a property or content update changes (docs/API.md §6.4): the request's
// target, except that a checked-out document addressed by its path or its version
// series id means its private working copy (updates between checkOut and checkIn go
// there; an explicit version id still names that version). Errors: those of Target.
Result<ObjectData> UpdateTarget(Context& ctx);
// A new upload of the repository holding the bytes of `sources`, one after the other
// (each read from its start), finished: pass AsContent() to a change, keep the Upload
// until it returns (it is removed when destroyed unless consumed).
Result<std::unique_ptr<Upload>> CopyIntoUpload(Context& ctx, const std::vector<ReadableFile*>& sources);
// The request's properties (canonical ids; type ids unquoted and canonical) with the
// datetime values of `type_id` turned into milliseconds (ISO, ms and JavaScript dates).
// A plain field `name` or `cmis:name` is the property cmis:name (kInvalidArgument when
// it disagrees with a cmis:name given in the properties).
Result<Json> InputProperties(Context& ctx, const std::string& type_id);
// How properties are passed, for messages about missing ones.
std::string HowToPassProperties();
// Converts the datetime values in `properties` per the definitions of `type_id`.
Status NormalizeDatetimes(acl::GuardedRepository& repo, const std::string& type_id, Json& properties);
// The content of the request, if any: the multipart file part `content`, or a string
// parameter `content` (a JSON body's, or a form field's): UTF-8 text, stored with the
// type of the parameter `mimeType` (default: derived from the document's name).
// Errors: kInvalidArgument for a `content` that is not a string, or given both ways.
Result<std::optional<ContentSource>> InputContent(Context& ctx);
// The bytes of the request's content (InputContent), to read: for appendContent.
Result<std::unique_ptr<ReadableFile>> ReadInputContent(Context& ctx, const ContentSource& content);

// unguarded.cc: the one escape from the guarded view, for operations at a domain URL
// only (kRuntime elsewhere): repository `repository_id` of the request's domain with no
// caller's policy. For what such an operation does for a domain administrator to every
// repository of the domain (deleteUser, deleteGroup: the principal's entries), for
// whether a repository exists, and for what the listing of the repositories a caller
// may use shows of each (its change log's state). An operation at a repository URL
// has ctx.repo. tests/api/ops/guard_test.cc keeps every other way out of api/ops.
// Errors: those of Store::GetRepository.
Result<std::shared_ptr<Repository>> UnguardedRepository(const Context& ctx, const std::string& repository_id);
// server_ops.cc (all need the server administrator: dispatch.cc)
Result<Response> GetDomains(Context& ctx);
Result<Response> CreateDomain(Context& ctx);
Result<Response> DeleteDomain(Context& ctx);
// Errors: kPermissionDenied naming the caller and `operation` unless the caller is a
// domain administrator (or anyone, in a domain without users).
Status RequireDomainAdmin(const Context& ctx, std::string_view operation);
// domain_ops.cc
Result<Response> GetRepositories(Context& ctx);
Result<Response> CreateRepository(Context& ctx);
Result<Response> DeleteRepository(Context& ctx);
// user_ops.cc: users and groups of the domain (docs/API.md §11.1).
Result<Response> GetUsers(Context& ctx);
Result<Response> CreateUser(Context& ctx);
Result<Response> UpdateUser(Context& ctx);
Result<Response> DeleteUser(Context& ctx);
Result<Response> GetGroups(Context& ctx);
Result<Response> CreateGroup(Context& ctx);
Result<Response> UpdateGroup(Context& ctx);
Result<Response> DeleteGroup(Context& ctx);
// The new password in parameter `name` ("password", "adminPassword"), checked
// (acl::CheckPassword). Errors: kInvalidArgument naming `name`, never quoting it.
Result<std::string> ReadPassword(const Context& ctx, std::string_view name);
// A user as responses show it: {"userId", "displayName", "groups": [every group it is
// in, nested ones resolved]}; never a password, hash or key.
Json UserJson(const acl::Principals& principals, const acl::UserRecord& user);
// repository_ops.cc
Result<Response> RepositoryInfo(Context& ctx);
Result<Response> TypeChildren(Context& ctx);
Result<Response> TypeDescendants(Context& ctx);
Result<Response> TypeDefinition(Context& ctx);
Result<Response> CreateType(Context& ctx);
Result<Response> UpdateType(Context& ctx);
Result<Response> DeleteType(Context& ctx);
// object_read_ops.cc
Result<Response> GetObject(Context& ctx);
Result<Response> GetProperties(Context& ctx);
Result<Response> GetAllowableActions(Context& ctx);
// getObjectRelationships (docs/API.md §7.5, §4.2): {objects, hasMoreItems, numItems} with
// relationshipDirection (source, target, either), typeId, includeSubRelationshipTypes,
// maxItems and skipCount.
Result<Response> GetObjectRelationships(Context& ctx);
// getRenditions and getAppliedPolicies: Folio has neither, so an existing object has
// none ([]); a missing one is objectNotFound.
Result<Response> GetNoneOfThem(Context& ctx);
Result<Response> GetContent(Context& ctx);
Result<Response> GetChildren(Context& ctx);
Result<Response> GetParent(Context& ctx);
Result<Response> GetParents(Context& ctx);
// What the caller `checker` speaks for may do with `object` (docs/API.md §7.5).
Json AllowableActions(const ObjectData& object, const acl::Checker& checker);
// navigation_ops.cc: getDescendants and getFolderTree (docs/API.md §7.6).
Result<Response> GetDescendants(Context& ctx);
Result<Response> GetFolderTree(Context& ctx);
// object_write_ops.cc
Result<Response> CreateObject(Context& ctx);
Result<Response> UpdateProperties(Context& ctx);
// bulkUpdateProperties (docs/API.md §7.7–§7.9, §4.2): the request's properties set on each object
// of objectId[N] (with changeToken[N]) or objectIds; answers [{id, newId, changeToken}]
// for those updated. One that cannot be (missing, stale token, refused property) is
// left out, as CMIS says; when none can, the first failure is the error.
Result<Response> BulkUpdate(Context& ctx);
Result<Response> DeleteObject(Context& ctx);
Result<Response> DeleteTree(Context& ctx);
// createDocumentFromSource (docs/API.md §7.7–§7.9): a new document in the target folder with
// the content and the settable properties of document `sourceId`, the request's
// properties applied over them; its own versioningState.
Result<Response> CreateDocumentFromSource(Context& ctx);
// content_ops.cc
Result<Response> SetContent(Context& ctx);
Result<Response> DeleteContent(Context& ctx);
// appendContentStream (docs/API.md §7.7–§7.9): the request's content part added to the end of
// the document's content (a document without content gets it as its content). Like
// setContent, no new version. `isLastChunk` is accepted; every chunk is stored at once.
Result<Response> AppendContent(Context& ctx);
Result<Response> Move(Context& ctx);
// versioning_ops.cc
Result<Response> CheckOut(Context& ctx);
Result<Response> CheckIn(Context& ctx);
Result<Response> CancelCheckOut(Context& ctx);
Result<Response> GetAllVersions(Context& ctx);
Result<Response> CheckedOut(Context& ctx);
// acl_ops.cc: access control (docs/API.md §11).
Result<Response> GetAcl(Context& ctx);
Result<Response> ApplyAcl(Context& ctx);
// The ACL of an object created in a folder whose ACL is `parent_acl`: a copy of it,
// cmis:all for the creator, then the request's addACEs/removeACEs (checked against
// the domain's principals). Errors: those of ReadAclChanges.
Result<std::vector<folio::Ace>> NewObjectAcl(const Context& ctx, const std::vector<folio::Ace>& parent_acl);
// query_ops.cc
// query (docs/API.md §12): the statement in `statement` or `q`, with searchAllVersions,
// maxItems, skipCount, succinct, includeAllowableActions and dateTimeFormat; answers
// {"results": [...], "hasMoreItems", "numItems"}.
Result<Response> Query(Context& ctx);
// changes_ops.cc
// getContentChanges (docs/API.md §7.12).
Result<Response> ContentChanges(Context& ctx);
// An ACL as CMIS JSON: {"aces": [{principal, permissions, isDirect}], "isExact"};
// `only_basic` leaves out permissions other than cmis:read, cmis:write and cmis:all.
Json AclJson(const std::vector<folio::Ace>& acl, bool only_basic);

}  // namespace folio::api::ops
