// Versioning (docs/API.md §6.4, §7.10, §6): checkOut, checkIn,
// cancelCheckOut, getAllVersions and the checked-out list, on the engine's primitives.
// The engine owns the rules and failures; this file picks the target and renders.
#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>

#include "api/cmis_names.h"
#include "api/acl_input.h"
#include "api/answer_buffers.h"
#include "api/kept_versions.h"
#include "api/ops/ops.h"
#include "repo/versions/version_reuse.h"

namespace folio::api::ops {
namespace {

// The JSON of earlier versions kept for getAllVersions, in this process, by repository,
// rendering and version id (api/kept_versions.h).
KeptVersions& Kept() {
  static KeptVersions kept;
  return kept;
}

// A getAllVersions answer's reader of Kept(): tells the builder which versions it holds
// (repo/versions/version_reuse.h) and keeps what it writes of the others.
class KeptReuse : public repo::versions::VersionReuse {
 public:
  // `prefix`: the repository and the rendering, as keys of Kept() begin.
  explicit KeptReuse(std::string prefix) : prefix_(std::move(prefix)) {}
  bool Has(const std::string& id, const std::string& stamp) override {
    key_.assign(prefix_).append(id);
    found_ = Kept().Find(key_, stamp);
    return found_ != nullptr;
  }
  // Appends the JSON Has found (requires: Has said true).
  void AppendFound(std::string& out) const { out.append(*found_); }
  // Keeps `json`, written of version `id`, under the stamp it was handed with.
  void Keep(const std::string& id, std::string_view json) {
    if (stamp().empty()) return;
    key_.assign(prefix_).append(id);
    Kept().Keep(key_, stamp(), json);
  }

 private:
  std::string prefix_;
  std::string key_;
  std::shared_ptr<const std::string> found_;
};

// The working copy a checkIn or cancelCheckOut addresses (docs/API.md §7.10: "by path or
// objectId"). An objectId is taken as given, so that a version id fails with
// `versioning` in the engine; a path names the document, whose working copy is meant.
Result<std::string> WorkingCopyId(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target_ptr, ctx.Target());
  const ObjectData& target = *target_ptr;
  if (ctx.params.Has("objectId") || target.base != BaseType::kDocument || target.is_pwc) return target.id;
  const Json& co = target.properties.value(std::string(kPropVersionSeriesCheckedOutId), Json());
  if (!co.is_string()) {
    return Status(ErrorKind::kVersioning, "document '/" + target.path +
                                              "' is not checked out: there is no private working copy to " +
                                              (ctx.op == Operation::kCheckIn ? "check in" : "cancel"));
  }
  return co.get<std::string>();
}

}  // namespace

Result<Response> CheckOut(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target_ptr, ctx.Target());
  const ObjectData& target = *target_ptr;
  // A path names the document, so its latest version; an objectId names exactly that
  // version (docs/API.md §6.4: checking out an earlier version restores it). A series id given as
  // objectId already resolved to the latest version.
  const bool by_id = ctx.params.Has("objectId");
  const std::string id = by_id || target.series_id.empty() ? target.id : target.series_id;
  FOLIO_ASSIGN_OR_RETURN(ObjectData pwc, ctx.repo->CheckOut(id));
  return ObjectResponse(ctx, pwc, 201);
}

Result<Response> CheckIn(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string pwc_id, WorkingCopyId(ctx));
  CheckInRequest request;
  FOLIO_ASSIGN_OR_RETURN(request.major, ctx.params.GetBool("major", true));
  FOLIO_ASSIGN_OR_RETURN(request.comment, ctx.params.GetString("checkinComment"));
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target_ptr, ctx.Target());
  const ObjectData& target = *target_ptr;
  FOLIO_ASSIGN_OR_RETURN(request.properties, InputProperties(ctx, target.type_id));
  if (ctx.options.strict && ctx.variant == Variant::kB) {
    for (const std::string_view id : {kPropName, kPropObjectTypeId}) {
      if (!request.properties.contains(std::string(id))) {
        return InvalidArgument("checkIn 'properties' must contain '" + std::string(id) + "' in variant B (--strict)");
      }
    }
  }
  // The type id may be resent (variant B requires it) but not changed.
  if (auto it = request.properties.find(std::string(kPropObjectTypeId)); it != request.properties.end()) {
    if (it->is_string() && *it != target.type_id) {
      return Status(ErrorKind::kConstraint, "checkIn cannot change the object type of '" + target.name + "' from '" +
                                                target.type_id + "' to '" + it->get<std::string>() + "'");
    }
    request.properties.erase(it);
  }
  FOLIO_ASSIGN_OR_RETURN(request.content, InputContent(ctx));
  FOLIO_ASSIGN_OR_RETURN(AclChanges aces, ReadAclChanges(ctx.params, ctx.caller.principals().get()));
  // Entries changed with the check-in need what applyACL needs (checked by the view).
  request.add_aces = std::move(aces.add);
  request.remove_aces = std::move(aces.remove);
  FOLIO_ASSIGN_OR_RETURN(ObjectData version, ctx.repo->CheckIn(pwc_id, request));
  return ObjectResponse(ctx, version, 201);
}

Result<Response> CancelCheckOut(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string pwc_id, WorkingCopyId(ctx));
  FOLIO_RETURN_IF_ERROR(ctx.repo->CancelCheckOut(pwc_id));
  return EmptyResponse(200);
}

Result<Response> GetAllVersions(Context& ctx) {
  std::string id;
  if (!ctx.params.Has("objectId") && !ctx.path_given && ctx.params.Has("versionSeriesId")) {
    // CmisJS names the series only (docs/API.md §3.8).
    FOLIO_ASSIGN_OR_RETURN(id, ctx.params.GetString("versionSeriesId"));
  } else {
    FOLIO_ASSIGN_OR_RETURN(const ObjectData* target_ptr, ctx.Target());
    const ObjectData& target = *target_ptr;
    id = target.id;
  }
  // Oldest first, working copy last (docs/API.md §7.10, §5); reversed, the CMIS order:
  // newest first, working copy first (docs/API.md §7.10). Each version is written as it is
  // built and then dropped: a long series is never held whole.
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  FOLIO_ASSIGN_OR_RETURN(const RenderOptions rendering, ctx.Rendering());
  FOLIO_ASSIGN_OR_RETURN(const bool with_actions, ctx.params.GetBool("includeAllowableActions", false));
  // An earlier version is the same JSON while its stamp is (repo/versions/version_reuse.h):
  // written once, then given again without its record being read. Not with allowable
  // actions, which are the caller's.
  std::optional<KeptReuse> reuse;
  if (!with_actions) reuse.emplace(ctx.domain_id + "/" + ctx.repository_id + "\n" + RenderingKey(rendering) + "\n");
  // Written into a buffer of an earlier large answer when there is one (api/answer_buffers.h).
  std::string body = AnswerBuffers::Shared().Take();
  size_t expected = 0;
  const auto restart = [&](size_t count) {
    body.assign(1, '[');
    expected = count;
  };
  // The view checks the series before anything of it is handed here.
  const auto write = [&](const ObjectData& v) {
    const bool first = body.size() == 1;
    if (!first) body += ',';
    if (reuse && &v == &reuse->stand_in()) {
      reuse->AppendFound(body);
    } else {
      const size_t at = body.size();
      JsonWriter w(body);
      writer.Write(v, w);
      if (reuse) reuse->Keep(v.id, std::string_view(body).substr(at));
    }
    // The first object tells how big they are: one allocation for the whole answer
    // instead of a doubling copy per power of two of a body of megabytes. A quarter more,
    // for later versions' longer labels, comments and properties.
    if (first) body.reserve(body.size() * expected * 5 / 4 + expected + 16);
    return OkStatus();
  };
  FOLIO_RETURN_IF_ERROR(ctx.repo->VisitAllVersions(id, ctx.options.versions_newest_first, restart, write).status());
  body += ']';
  return JsonTextResponse(200, std::move(body));
}

// The working copies of the repository, or of one folder when the request names one
// (docs/API.md §7.5; list shape §4.2: {objects, hasMoreItems, numItems}).
Result<Response> CheckedOut(Context& ctx) {
  const ObjectData* folder = nullptr;
  if (ctx.HasTarget()) {
    FOLIO_ASSIGN_OR_RETURN(folder, ctx.Target());
    if (folder->base != BaseType::kFolder) return InvalidArgument("object '" + folder->id + "' is not a folder");
  }
  // Only those the caller may read: the others are left out, and not counted.
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> docs, ctx.repo->GetCheckedOut(folder));
  std::vector<const ObjectData*> all;
  all.reserve(docs.size());
  for (const ObjectData& d : docs) all.push_back(&d);
  return ObjectListResponse(ctx, all);
}

}  // namespace folio::api::ops
