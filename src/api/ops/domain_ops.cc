// Domain level (docs/API.md §3.1): the CMIS service document and the repositories.
#include "api/ops/ops.h"
#include "repo/acl/checker.h"

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
  auto repo = UnguardedRepository(ctx, id);
  if (!repo.ok()) return {};
  auto status = (*repo)->GetChangeLogStatus();
  return status.ok() ? *status : ChangeLogStatus{};
}

}  // namespace

// The service document: repositoryId -> repositoryInfo, in id order (CmisJS takes the
// first key as its default repository, docs/API.md §3.1), of the repositories the caller
// may use (the gate: docs/API.md §11.3).
Result<Response> GetRepositories(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<folio::RepositoryInfo> repos, ctx.store.ListRepositories(ctx.domain_id));
  Json out = Json::object();
  for (const folio::RepositoryInfo& info : repos) {
    if (!acl::MayUseRepository(ctx.caller, info.repository_id)) continue;
    out[info.repository_id] =
        RepositoryInfoJson(info, VariantOf(info), UrlOf(ctx, info), ChangesOf(ctx, info.repository_id),
                           ctx.options.read_only);
  }
  return JsonResponse(200, out);
}

// Needs a domain administrator. The creator becomes the one member of
// repository_<id> (whose root folder grants that group cmis:all).
Result<Response> CreateRepository(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "createRepository"));
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
  // After the repository exists: a crash in between leaves it to domain administrators
  // only, never to members of an older repository of that id (deleteRepository removes
  // the group first).
  std::vector<std::string> members;
  if (ctx.caller.authenticated()) members.push_back(ctx.caller.user());
  FOLIO_RETURN_IF_ERROR(ctx.accounts->ResetRepositoryGroup(made.repository_id, std::move(members)));
  Json out = Json::object();
  out[made.repository_id] = RepositoryInfoJson(made, VariantOf(made), UrlOf(ctx, made), ChangeLogStatus{}, false);
  Response r = JsonResponse(201, out);
  r.headers.emplace_back("Location", UrlOf(ctx, made));
  return r;
}

Result<Response> DeleteRepository(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(RequireDomainAdmin(ctx, "deleteRepository"));
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("repositoryId"));
  FOLIO_RETURN_IF_ERROR(UnguardedRepository(ctx, id).status());
  // The group goes first, so that no repository of this id created later inherits it.
  FOLIO_RETURN_IF_ERROR(ctx.accounts->RemoveRepositoryGroup(id));
  FOLIO_RETURN_IF_ERROR(ctx.store.DeleteRepository(ctx.domain_id, id));
  return EmptyResponse(200);
}

}  // namespace folio::api::ops
