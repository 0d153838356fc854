// Server level (CONTRACT §2): the domains.
#include "api/ops/ops.h"

namespace folio::api::ops {

Result<Response> GetDomains(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DomainInfo> domains, ctx.store.ListDomains());
  Json list = Json::array();
  for (const DomainInfo& d : domains) {
    list.push_back({{"domainId", d.domain_id}, {"description", d.description}});
  }
  return JsonResponse(200, Json{{"domains", std::move(list)}});
}

Result<Response> CreateDomain(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("domainId"));
  FOLIO_ASSIGN_OR_RETURN(std::string description, ctx.params.GetString("description"));
  FOLIO_ASSIGN_OR_RETURN(DomainInfo d, ctx.store.CreateDomain(id, description));
  Response r = JsonResponse(201, Json{{"domainId", d.domain_id}, {"description", d.description}});
  r.headers.emplace_back("Location", ctx.request.base_url + "/" + d.domain_id);
  return r;
}

Result<Response> DeleteDomain(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("domainId"));
  FOLIO_RETURN_IF_ERROR(ctx.store.DeleteDomain(id));
  return EmptyResponse(200);
}

}  // namespace folio::api::ops
