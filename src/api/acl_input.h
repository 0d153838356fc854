// What a request asks of an object's ACL (applyACL, and the addACEs/removeACEs of
// create and checkIn), in either convention (ReadAces: JSON addACEs/removeACEs or the
// form addACEPrincipal[N]/addACEPermission[N][M]), checked against the access model
// (repo/acl/ace_list.h), and ACLPropagation with its CmisJS alias `propagation`.
#pragma once

#include <vector>

#include "api/params.h"
#include "api/properties_form.h"
#include "folio/object.h"
#include "folio/status.h"
#include "repo/acl/principals.h"

namespace folio::api {

// What applyACL on a folder reaches: the folder alone, or it and everything below it
// (propagate, and repositorydetermined, which Folio determines as propagate).
enum class AclPropagation { kObjectOnly, kRepositoryDetermined, kPropagate };

struct AclChanges {
  std::vector<folio::Ace> add;
  std::vector<folio::Ace> remove;
  AclPropagation propagation = AclPropagation::kRepositoryDetermined;
};

// Parsed entries (properties_form.h) in the engine's form.
std::vector<folio::Ace> ToEngineAces(std::vector<api::Ace> aces);

// `ACLPropagation`, or `propagation` (what CmisJS sends, docs/API.md §3.8): "objectonly",
// "repositorydetermined" (the default), "propagate", any case; both may be given if
// they agree. Errors: kInvalidArgument for any other value, or two that differ, naming
// the parameter.
Result<AclPropagation> ReadAclPropagation(const Params& params);

// The entries to add and to remove, and the propagation. `principals`, when given,
// are the domain's users and groups: every principal must be one of them (or
// cmis:anyone / cmis:anonymous).
// Errors: those of ReadAces and ReadAclPropagation; acl::ValidateAces (kConstraint for
// a permission other than cmis:read, cmis:write, cmis:all; kInvalidArgument for an
// unknown principal), naming the entry.
Result<AclChanges> ReadAclChanges(const Params& params, const acl::Principals* principals);

}  // namespace folio::api
