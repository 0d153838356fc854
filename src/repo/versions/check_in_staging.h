// Check-in carried out: stages a CheckInPlan (check_in_plan.h) in a change, the files
// and records it decided, in the order that keeps a re-applied change right.
#pragma once

#include <optional>
#include <string>

#include "folio/object.h"
#include "folio/status.h"
#include "repo/lookup/location.h"
#include "repo/versions/check_in_plan.h"
#include "storage/change_set.h"
#include "storage/layout.h"

namespace folio::repo {
namespace changes {
class Relocation;
class Staging;
}  // namespace changes
}  // namespace folio::repo

namespace folio::repo::versions {

class VersionList;

class CheckInStaging {
 public:
  // Requires: every reference outlives the CheckInStaging.
  CheckInStaging(const storage::RepoLayout& layout, changes::Staging& staging, changes::Relocation& relocation,
                 VersionList& versions)
      : layout_(layout), staging_(staging), relocation_(relocation), versions_(versions) {}

  // Stages `plan`, made from `in` for the document at `doc` (its parent folder's id
  // `parent_id`, needed only when it renames), with the request's `content` (kFromRequest). A rename comes first
  // (changes::Relocation, whose limits are checked before anything is staged), and
  // everything after is staged under the new name: applying the change again after a
  // crash never writes into a directory renamed away. Returns the document's location
  // after the check-in. Errors: Relocation's (nothing staged then); those of
  // Staging::StageContent (kInvalidArgument for an upload not in this repository's
  // upload area; kStorage); kStorage.
  Result<lookup::Loc> Stage(storage::ChangeSet& change, const lookup::Loc& doc, const std::string& parent_id,
                            const CheckInPlan& plan, const CheckInInputs& in,
                            const std::optional<ContentSource>& content);

 private:
  const storage::RepoLayout& layout_;
  changes::Staging& staging_;
  changes::Relocation& relocation_;
  VersionList& versions_;
};

}  // namespace folio::repo::versions
