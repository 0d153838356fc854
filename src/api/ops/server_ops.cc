// Server level (docs/API.md §3.1): the domains. Every operation here needs the server
// administrator (dispatch.cc).
#include "api/ops/ops.h"
#include "repo/acl/accounts.h"
#include "repo/acl/secrets.h"

namespace folio::api::ops {

Result<Response> GetDomains(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DomainInfo> domains, ctx.store.ListDomains());
  Json list = Json::array();
  for (const DomainInfo& d : domains) {
    list.push_back({{"domainId", d.domain_id}, {"description", d.description}});
  }
  // readOnly: serve --read-only, every write refused (docs/API.md §7.2).
  return JsonResponse(200, Json{{"domains", std::move(list)}, {"readOnly", ctx.options.read_only}});
}

// With adminUserId and adminPassword the domain appears with its first user, a domain
// administrator, in the same step; the answer shows that user's API key, once.
// Without them the domain allows anonymous access: refused (constraint) on a server
// listening beyond loopback, unless --insecure.
Result<Response> CreateDomain(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("domainId"));
  FOLIO_ASSIGN_OR_RETURN(std::string description, ctx.params.GetString("description"));
  FOLIO_ASSIGN_OR_RETURN(std::string admin_id, ctx.params.GetString("adminUserId"));
  Store::DomainInit init;
  std::string key;
  std::optional<acl::UserRecord> admin;
  if (admin_id.empty()) {
    if (ctx.params.Has("adminPassword")) return InvalidArgument("parameter 'adminPassword' needs 'adminUserId'");
    if (ctx.options.exposed && !ctx.options.insecure) {
      return Constraint("domain '" + id +
                        "' would allow anonymous access on a server listening beyond loopback: give adminUserId "
                        "and adminPassword (or serve with --insecure)");
    }
  } else {
    FOLIO_RETURN_IF_ERROR(acl::CheckNewUserId(admin_id));
    FOLIO_ASSIGN_OR_RETURN(std::string password, ReadPassword(ctx, "adminPassword"));
    admin.emplace();
    admin->id = admin_id;
    FOLIO_ASSIGN_OR_RETURN(admin->display_name, ctx.params.GetString("adminDisplayName", admin_id));
    FOLIO_ASSIGN_OR_RETURN(admin->password_hash, ctx.authenticator->HashPassword(std::move(password)));
    key = acl::NewApiKey();
    admin->api_key_hash = acl::HashApiKey(key);
    init = [&admin](Fs& fs, const std::string& dir) { return acl::WriteFirstUser(fs, dir, *admin); };
  }
  FOLIO_ASSIGN_OR_RETURN(DomainInfo d, ctx.store.CreateDomain(id, description, init));
  Json out{{"domainId", d.domain_id}, {"description", d.description}};
  if (admin) {
    out["adminUser"] = Json{{"userId", admin->id},
                            {"displayName", admin->display_name},
                            {"groups", {acl::kAdminGroup, acl::kUserGroup}},
                            {"apiKey", key}};
  }
  Response r = JsonResponse(201, out);
  r.headers.emplace_back("Location", ctx.request.base_url + "/" + d.domain_id);
  return r;
}

Result<Response> DeleteDomain(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string id, ctx.params.RequireString("domainId"));
  FOLIO_RETURN_IF_ERROR(ctx.store.DeleteDomain(id));
  ctx.registry->Forget(id);
  return EmptyResponse(200);
}

}  // namespace folio::api::ops
