// The access decisions: the permission a caller holds on an object, the repository
// gate, and Checker, the one object the engine asks "may this caller do that" while it
// runs an operation (docs/API.md §11.3).
#pragma once

#include <string_view>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "folio/status.h"
#include "repo/acl/actions.h"
#include "repo/acl/caller.h"
#include "repo/acl/permission.h"

namespace folio::acl {

// The permission `caller` holds on an object whose ACL is `acl`: kAll for domain
// administrators (and anyone in a domain without users); otherwise the greatest
// permission among the entries whose principal matches the caller (Caller::Matches);
// kNone when none does. Permission names other than the CMIS basic ones are ignored.
Permission EffectivePermission(const Caller& caller, const std::vector<Ace>& acl);

// The repository gate, checked before any ACL: only members of repository_<id>
// (directly or through nested groups) and domain administrators may use a repository;
// in a domain without users anyone may.
bool MayUseRepository(const Caller& caller, std::string_view repository_id);
// Errors: kPermissionDenied naming the user, the repository and its group.
Status CheckRepositoryGate(const Caller& caller, std::string_view repository_id);

// Per-object decisions for one caller. Cheap to copy; thread-compatible (const).
class Checker {
 public:
  explicit Checker(Caller caller) : caller_(std::move(caller)) {}

  const Caller& caller() const { return caller_; }
  // The user name to record as createdBy / lastModifiedBy / checked out by.
  const std::string& user() const { return caller_.user(); }
  Permission On(const ObjectData& object) const { return EffectivePermission(caller_, object.acl); }
  // False for objects a listing, query or change log must leave out.
  bool MayRead(const ObjectData& object) const { return Grants(On(object), Permission::kRead); }
  // Whether `action` is allowed on `object` and, for actions that have them, on
  // `source` and `target` (a move's folders, a relationship's ends; RequirementOf).
  // Errors: kPermissionDenied naming the user, the object and the permission it lacks.
  Status Require(Action action, const ObjectData& object, const ObjectData* source = nullptr,
                 const ObjectData* target = nullptr) const;
  // The same for a bare permission on one object. The message of a denial on an object
  // the caller may not read names nothing of it (docs/API.md §11.3).
  Status Require(Permission permission, const ObjectData& object) const;
  // Whether the caller may `doing` ("check in", "cancel"; "" allows) the working copy
  // `working_copy`: the user who checked it out, a holder of cmis:all on it (its series
  // shares one ACL) or a domain administrator. OK for an object that is no working
  // copy. Errors: kPermissionDenied naming the caller and the holder.
  Status RequireHolder(const ObjectData& working_copy, std::string_view doing) const;
  // What the engine asks inside the change that does `action` (WriteCheck,
  // folio/repository.h), so that no ACL change comes between the check and the write:
  // Require(action) for the roles kObject, kSource and kTarget (and RequireHolder for a
  // working copy that checkIn, cancelCheckOut or deleteObject ends), and for each object
  // below the folder of a deleteTree or a propagated applyACL (kBelow) what the action
  // needs on the folder (cmis:write to delete, cmis:all to change ACLs). Empty (nothing to check) for
  // a caller who holds cmis:all everywhere (a domain administrator). Keeps a copy of
  // this checker.
  WriteCheck ForWrite(Action action) const;

 private:
  Caller caller_;
};

}  // namespace folio::acl
