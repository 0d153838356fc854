// Caller; see caller.h.
#include "repo/acl/caller.h"

namespace folio::acl {

Caller Caller::AnonymousDomain() { return Caller(Kind::kAnonymousDomain, std::string(kAnonymousUser), true); }

Caller Caller::User(std::shared_ptr<const Principals> principals, std::string user_id) {
  const bool admin = principals && principals->IsAdmin(user_id);
  Caller c(Kind::kUser, std::move(user_id), admin);
  c.principals_ = std::move(principals);
  return c;
}

Caller Caller::ServerAdmin() { return Caller(Kind::kServerAdmin, std::string(kAdminGroup), false); }

bool Caller::InGroup(std::string_view group_id) const {
  return kind_ == Kind::kUser && principals_ && principals_->IsMember(user_, group_id);
}

bool Caller::Matches(std::string_view principal) const {
  switch (kind_) {
    case Kind::kAnonymousDomain: return principal == kAnyone || principal == kAnonymousPrincipal;
    case Kind::kUser: return principal == user_ || principal == kAnyone || InGroup(principal);
    case Kind::kServerAdmin: return false;
  }
  return false;
}

std::vector<std::string> Caller::MatchingPrincipals() const {
  switch (kind_) {
    case Kind::kAnonymousDomain: return {std::string(kAnyone), std::string(kAnonymousPrincipal)};
    case Kind::kUser: {
      std::vector<std::string> out{user_, std::string(kAnyone)};
      if (principals_) {
        const std::vector<std::string>& groups = principals_->GroupsOf(user_);
        out.insert(out.end(), groups.begin(), groups.end());
      }
      return out;
    }
    case Kind::kServerAdmin: return {};
  }
  return {};
}

}  // namespace folio::acl
