// The operations, one file per family: server_ops.cc (domains), domain_ops.cc
// (repositories), repository_ops.cc (repository info, types), object_read_ops.cc,
// object_write_ops.cc, versioning_ops.cc (versioning, checked-out list, ACL). Each
// takes the Context that dispatch.cc built (level, repository, variant, target) and
// returns a Response or a Status that dispatch turns into the error response.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/dispatch.h"
#include "api/json_input.h"
#include "api/operation.h"
#include "api/params.h"
#include "api/render.h"
#include "api/variant.h"
#include "folio/repository.h"
#include "folio/store.h"

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
  std::shared_ptr<Repository> repo;  // at repository level
  Variant variant = Variant::kB;
  std::string path;          // repository-relative object path, "" for the root folder
  bool path_given = false;   // the URL names an object below the repository
  std::string user = "anonymous";
  UploadRegistry* uploads = nullptr;  // the content parts of requests in flight

  // The absolute URL of the repository (also its root folder URL).
  std::string RepositoryUrl() const;
  // True when the request names an object: `objectId` (or, for creates, `folderId`) or a path.
  bool HasTarget() const;
  // The object the request addresses: `objectId` wins over the path (binding §2.1);
  // creates also accept `folderId` for the parent (CONTRACT §3). Cached.
  // The target object, resolved once per request and kept here; the pointer stays valid
  // for the life of the Context (no copy per call: objects carry ~35 properties).
  Result<const ObjectData*> Target();
  // succinct (default per variant), filter and dateTimeFormat of the request.
  Result<RenderOptions> Rendering() const;

  std::shared_ptr<const ObjectData> target_;  // shared with the repository's memo
  std::string target_key_;                    // the id or path Target() resolved,
  bool target_by_path_ = false;               // by GetObjectByPathShared or GetObjectShared
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
  // Writes one object ({"succinctProperties": ..., "allowableActions": ...}).
  void Write(const ObjectData& object, JsonWriter& w);

 private:
  ObjectWriter(Renderer renderer, bool actions) : renderer_(std::move(renderer)), actions_(actions) {}
  Renderer renderer_;
  bool actions_;
};

// Input helpers shared by the write operations.
// Errors: kUpdateConflict when `token` is given ("" is not) and is not the object's
// change token.
Status CheckToken(const ObjectData& object, std::string_view token);
// CheckToken with the request's `changeToken`.
Status CheckChangeToken(const Context& ctx, const ObjectData& object);
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
Status NormalizeDatetimes(Repository& repo, const std::string& type_id, Json& properties);
// The content of the request, if any: the multipart file part `content`, or a string
// parameter `content` (a JSON body's, or a form field's): UTF-8 text, stored with the
// type of the parameter `mimeType` (default: derived from the document's name).
// Errors: kInvalidArgument for a `content` that is not a string, or given both ways.
Result<std::optional<ContentSource>> InputContent(Context& ctx);
// The bytes of the request's content (InputContent), to read: for appendContent.
Result<std::unique_ptr<ReadableFile>> ReadInputContent(Context& ctx, const ContentSource& content);
// The ACEs to add (or remove) in engine form.
Result<std::vector<folio::Ace>> InputAces(const Context& ctx, bool add);

// server_ops.cc
Result<Response> GetDomains(Context& ctx);
Result<Response> CreateDomain(Context& ctx);
Result<Response> DeleteDomain(Context& ctx);
// domain_ops.cc
Result<Response> GetRepositories(Context& ctx);
Result<Response> CreateRepository(Context& ctx);
Result<Response> DeleteRepository(Context& ctx);
// repository_ops.cc
Result<Response> RepositoryInfo(Context& ctx);
Result<Response> TypeChildren(Context& ctx);
Result<Response> TypeDescendants(Context& ctx);
Result<Response> TypeDefinition(Context& ctx);
Result<Response> CreateType(Context& ctx);
Result<Response> DeleteType(Context& ctx);
// object_read_ops.cc
Result<Response> GetObject(Context& ctx);
Result<Response> GetProperties(Context& ctx);
Result<Response> GetAllowableActions(Context& ctx);
// getObjectRelationships (binding §2.2, §5): {objects, hasMoreItems, numItems} with
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
Json AllowableActions(const ObjectData& object);
// object_write_ops.cc
Result<Response> CreateObject(Context& ctx);
Result<Response> UpdateProperties(Context& ctx);
// bulkUpdateProperties (binding §2.3, §5): the request's properties set on each object
// of objectId[N] (with changeToken[N]) or objectIds; answers [{id, newId, changeToken}]
// for those updated. One that cannot be (missing, stale token, refused property) is
// left out, as CMIS says; when none can, the first failure is the error.
Result<Response> BulkUpdate(Context& ctx);
Result<Response> DeleteObject(Context& ctx);
Result<Response> DeleteTree(Context& ctx);
// createDocumentFromSource (binding §2.3): a new document in the target folder with
// the content and the settable properties of document `sourceId`, the request's
// properties applied over them; its own versioningState.
Result<Response> CreateDocumentFromSource(Context& ctx);
// content_ops.cc
Result<Response> SetContent(Context& ctx);
Result<Response> DeleteContent(Context& ctx);
// appendContentStream (binding §2.3): the request's content part added to the end of
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
Result<Response> GetAcl(Context& ctx);

}  // namespace folio::api::ops
