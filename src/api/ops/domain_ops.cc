// Domain level (CONTRACT §2): the CMIS service document and the repositories.
#include "api/ops/ops.h"

namespace folio::api::ops {
namespace {

Variant VariantOf(const folio::RepositoryInfo& info) {
  auto v = ParseVariant(info.variant);
  return v.ok() ? *v : Variant::kB;
}

std::string UrlOf(const Context& ctx, const folio::RepositoryInfo& info) {
  return ctx.request.base_url + "/" + ctx.domain_id + "/" + info.repository_id;
}

// The change log's state of repository `id` of the request's domain (a new or
// unreadable one: empty).
ChangeLogStatus ChangesOf(const Context& ctx, const std::string& id) {
  auto repo = ctx.store.GetRepository(ctx.domain_id, id);
  if (!repo.ok()) return {};
  auto status = (*repo)->GetChangeLogStatus();
  return status.ok() ? *status : ChangeLogStatus{};
}

}  // namespace

// The service document: repositoryId -> repositoryInfo, in id order (CmisJS takes the
// first key as its default repository, binding §0.1).
Result<Response> GetRepositories(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<folio::RepositoryInfo> repos, ctx.store.ListRepositories(ctx.domain_id));
  Json out = Json::object();
  for (const folio::RepositoryInfo& info : repos) {
    out[info.repository_id] =
        RepositoryInfoJson(info, VariantOf(info), UrlOf(ctx, info), ChangesOf(ctx, info.repository_id));
  }
  return JsonResponse(200, out);
}

Result<Response> CreateRepository(Context& ctx) {
  folio::RepositoryInfo info;
  FOLIO_ASSIGN_OR_RETURN(info.repository_id, ctx.params.RequireString("repositoryId"));
  FOLIO_ASSIGN_OR_RETURN(info.name, ctx.params.GetString("repositoryName"));
  FOLIO_ASSIGN_OR_RETURN(info.description, ctx.params.GetString("description"));
  if (info.description.empty()) {
    FOLIO_ASSIGN_OR_RETURN(info.description, ctx.params.GetString("repositoryDescription"));
  }
  FOLIO_ASSIGN_OR_RETURN(std::string variant_text, ctx.params.GetString("variant", ctx.options.default_variant));
  FOLIO_ASSIGN_OR_RETURN(Variant variant, ParseVariant(variant_text));
  info.variant = std::string(VariantName(variant));
  FOLIO_ASSIGN_OR_RETURN(folio::RepositoryInfo made, ctx.store.CreateRepository(ctx.domain_id, info));
  Json out = Json::object();
  out[made.repository_id] = RepositoryInfoJson(made, VariantOf(made), UrlOf(ctx, made), ChangeLogStatus{});
  Response r = JsonResponse(201, out);
  r.headers.emplace_back("Location", UrlOf(ctx, made));
  return r;
}

Result<Response> DeleteRepository(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("repositoryId"));
  FOLIO_RETURN_IF_ERROR(ctx.store.DeleteRepository(ctx.domain_id, id));
  return EmptyResponse(200);
}

}  // namespace folio::api::ops
