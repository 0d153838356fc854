// Versioning (seed §3, §4, §9; CONTRACT §5): checkOut, checkIn, cancelCheckOut,
// getAllVersions, wired to the engine's primitives. Issue 4 completes the rules.
#include <algorithm>

#include "api/cmis_names.h"
#include "api/ops/ops.h"

namespace folio::api::ops {

Result<Response> CheckOut(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(ObjectData target, ctx.Target());
  // A path names the document, so its latest version; an objectId names exactly that
  // version (seed §3: checking out an earlier version restores it).
  const bool by_id = ctx.params.Has("objectId");
  const std::string id = by_id || target.series_id.empty() ? target.id : target.series_id;
  FOLIO_ASSIGN_OR_RETURN(ObjectData pwc, ctx.repo->CheckOut(id, ctx.user));
  return ObjectResponse(ctx, pwc, 201);
}

Result<Response> CheckIn(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(ObjectData pwc, ctx.Target());
  CheckInRequest request;
  FOLIO_ASSIGN_OR_RETURN(request.major, ctx.params.GetBool("major", true));
  FOLIO_ASSIGN_OR_RETURN(request.comment, ctx.params.GetString("checkinComment"));
  FOLIO_ASSIGN_OR_RETURN(request.properties, InputProperties(ctx, pwc.type_id));
  if (ctx.options.strict && ctx.variant == Variant::kB) {
    for (const std::string_view id : {kPropName, kPropObjectTypeId}) {
      if (!request.properties.contains(std::string(id))) {
        return InvalidArgument("checkIn 'properties' must contain '" + std::string(id) + "' in variant B (--strict)");
      }
    }
  }
  // The name and type may be resent unchanged; the engine takes them as updates.
  if (auto it = request.properties.find(std::string(kPropObjectTypeId)); it != request.properties.end()) {
    request.properties.erase(it);
  }
  FOLIO_ASSIGN_OR_RETURN(request.content, InputContent(ctx));
  FOLIO_ASSIGN_OR_RETURN(request.add_aces, InputAces(ctx, true));
  FOLIO_ASSIGN_OR_RETURN(request.remove_aces, InputAces(ctx, false));
  FOLIO_ASSIGN_OR_RETURN(ObjectData version, ctx.repo->CheckIn(pwc.id, request, ctx.user));
  return ObjectResponse(ctx, version, 201);
}

Result<Response> CancelCheckOut(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(ObjectData pwc, ctx.Target());
  FOLIO_RETURN_IF_ERROR(ctx.repo->CancelCheckOut(pwc.id));
  return EmptyResponse(200);
}

Result<Response> GetAllVersions(Context& ctx) {
  std::string id;
  if (!ctx.HasTarget() && ctx.params.Has("versionSeriesId")) {
    // CmisJS names the series only (binding §13).
    FOLIO_ASSIGN_OR_RETURN(id, ctx.params.GetString("versionSeriesId"));
  } else {
    FOLIO_ASSIGN_OR_RETURN(ObjectData target, ctx.Target());
    id = target.id;
  }
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> versions, ctx.repo->GetAllVersions(id));
  if (ctx.options.versions_newest_first) std::reverse(versions.begin(), versions.end());
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  FOLIO_ASSIGN_OR_RETURN(bool actions, ctx.params.GetBool("includeAllowableActions", false));
  Renderer renderer(ctx.repo.get(), std::move(options));
  Json out = Json::array();
  for (const ObjectData& v : versions) {
    Json object = renderer.Object(v);
    if (actions) object["allowableActions"] = AllowableActions(v);
    out.push_back(std::move(object));
  }
  return JsonResponse(200, out);
}

}  // namespace folio::api::ops
