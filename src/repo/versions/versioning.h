// Versioning (docs/API.md, versioning): check-out makes a private working copy beside
// the version files; check-in turns it into the next numbered version; cancel removes
// it. Each is decided by a pure plan (versions::PlanCheckOut, PlanCheckIn,
// PlanCancelCheckOut) from what this class reads, then staged (check-in by
// versions::CheckInStaging).
// series.json records the check-out and the list of versions and is rewritten in the
// same change as the files it describes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"
#include "repo/versions/check_in_plan.h"
#include "repo/versions/check_out_plan.h"

namespace folio::repo {
class Engine;
struct SeriesRecord;
}  // namespace folio::repo

namespace folio::repo::versions {

// Uses: fs, layout, committer, locator, listings, records, versions, types, staging,
// relocation (through versions::CheckInStaging), builder.
class Versioning {
 public:
  explicit Versioning(Engine& engine) : engine_(engine) {}

  // Makes the private working copy of version `id` (a series id or a path-resolved
  // object means its latest version). Errors: kVersioning if the series is checked out
  // (naming who holds it); kConstraint if `id` is not a versionable document. The
  // change log records the working copy "created" and the latest version "updated" (its
  // series is checked out now; docs/API.md §7.12). All three also fail with `check`'s
  // error (WriteCheck, folio/repository.h: the version or working copy is its kObject).
  Result<ObjectData> CheckOut(const std::string& id, const std::string& user, const WriteCheck& check);
  // Turns working copy `pwc_id` into the next version of its series (major: N+1.0,
  // minor: N.M+1). Errors: kVersioning if `pwc_id` is not a working copy;
  // kObjectNotFound if it was already checked in or cancelled; the errors of
  // versions::PlanCheckIn (properties, content the type forbids) and, for a new name,
  // of changes::Relocation::Check (checked before anything is staged). Logs the working
  // copy "deleted", the new version "created" and, when `request` changes the ACL, a
  // "security" event of the new version.
  Result<ObjectData> CheckIn(const std::string& pwc_id, const CheckInRequest& request, const std::string& user,
                             const WriteCheck& check);
  // Discards the working copy; the versions stay as they were. Errors: as CheckIn. Logs
  // the working copy "deleted" and the latest version "updated" (no longer checked out;
  // a document created checked out has none and is gone).
  Status CancelCheckOut(const std::string& pwc_id, const WriteCheck& check);

  // The latest version (or latest major version) of the series `id` belongs to.
  Result<ObjectData> LatestVersion(const std::string& id, bool major);
  // The versions of the document `id`, oldest first, its working copy last (or in
  // reverse), handed one at a time. `start` learns how many are coming first.
  // Errors: kInvalidArgument if `id` is not a document.
  Result<size_t> VisitAllVersions(const std::string& id, bool newest_first, const std::function<void(size_t)>& start,
                                  const std::function<Status(ObjectData&&)>& visit);
  // Working copies in the repository (folder_id "") or directly in one folder.
  Result<std::vector<ObjectData>> CheckedOut(const std::string& folder_id);

 private:
  // What PlanCheckOut needs of the object `t` that request id `id` resolved to, read
  // now; reading stops at the first fact the plan refuses. Errors: kStorage.
  Result<CheckOutInputs> CheckOutInputsOf(const lookup::Target& t, const std::string& id, const std::string& user);
  // The type the latest version of the series of the document at `doc` names (for its
  // "updated" event: checking out or cancelling changes the checked-out properties
  // every version shows); "" without versions. Errors: kStorage.
  Result<std::string> LatestTypeId(const lookup::Loc& doc, const SeriesRecord& series);
  // What PlanCheckIn needs of the working copy of the document at `loc`, read now.
  // Errors: kStorage; kObjectNotFound or kInvalidArgument (secondary types) as
  // types::TypeRegistry::Get and types::PlanSecondaryChange give them.
  Result<CheckInInputs> CheckInInputsOf(const lookup::Loc& loc, SeriesRecord series, const CheckInRequest& req,
                                        const std::string& user);
  Engine& engine_;
};

}  // namespace folio::repo::versions
