// ACL changes of a request; see acl_input.h.
#include "api/acl_input.h"

#include "api/ascii.h"
#include "api/properties_form.h"
#include "repo/acl/ace_list.h"

namespace folio::api {
namespace {

Result<std::optional<AclPropagation>> ParseOne(const Params& params, std::string_view name) {
  FOLIO_ASSIGN_OR_RETURN(std::string value, params.GetString(name));
  if (value.empty()) return std::optional<AclPropagation>();
  if (EqualsIgnoreCase(value, "objectonly")) return std::optional<AclPropagation>(AclPropagation::kObjectOnly);
  if (EqualsIgnoreCase(value, "repositorydetermined")) {
    return std::optional<AclPropagation>(AclPropagation::kRepositoryDetermined);
  }
  if (EqualsIgnoreCase(value, "propagate")) return std::optional<AclPropagation>(AclPropagation::kPropagate);
  return InvalidArgument("parameter '" + std::string(name) +
                         "' must be objectonly, repositorydetermined or propagate, got '" + value.substr(0, 100) +
                         "'");
}

}  // namespace

std::vector<folio::Ace> ToEngineAces(std::vector<api::Ace> aces) {
  std::vector<folio::Ace> out;
  out.reserve(aces.size());
  for (Ace& a : aces) out.push_back(folio::Ace{std::move(a.principal), std::move(a.permissions)});
  return out;
}

Result<AclPropagation> ReadAclPropagation(const Params& params) {
  FOLIO_ASSIGN_OR_RETURN(std::optional<AclPropagation> cmis, ParseOne(params, "ACLPropagation"));
  FOLIO_ASSIGN_OR_RETURN(std::optional<AclPropagation> alias, ParseOne(params, "propagation"));
  if (cmis && alias && *cmis != *alias) {
    return InvalidArgument("parameters 'ACLPropagation' and 'propagation' differ; give one");
  }
  if (cmis) return *cmis;
  if (alias) return *alias;
  return AclPropagation::kRepositoryDetermined;
}

Result<AclChanges> ReadAclChanges(const Params& params, const acl::Principals* principals) {
  AclChanges changes;
  FOLIO_ASSIGN_OR_RETURN(std::vector<Ace> add, ReadAces(params, AceList::kAdd));
  FOLIO_ASSIGN_OR_RETURN(std::vector<Ace> remove, ReadAces(params, AceList::kRemove));
  changes.add = ToEngineAces(std::move(add));
  changes.remove = ToEngineAces(std::move(remove));
  FOLIO_RETURN_IF_ERROR(acl::ValidateAces(changes.add, "addACEs", principals));
  FOLIO_RETURN_IF_ERROR(acl::ValidateAces(changes.remove, "removeACEs", principals));
  FOLIO_ASSIGN_OR_RETURN(changes.propagation, ReadAclPropagation(params));
  return changes;
}

}  // namespace folio::api
