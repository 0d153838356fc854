// The decisions of a check-out and of its cancel; see check_out_plan.h.
#include "repo/versions/check_out_plan.h"

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "repo/versions/version_files.h"
#include "repo/versions/version_list.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo::versions {
namespace {

std::string Holder(const CheckOutRecord& co) { return co.by + " (since " + storage::FormatIsoMs(co.since_ms) + ")"; }

}  // namespace

Result<CheckOutPlan> PlanCheckOut(const CheckOutInputs& in) {
  if (in.base != BaseType::kDocument) {
    return Constraint("object '" + in.id + "' is a " + std::string(BaseTypeId(in.base)) +
                      "; only documents can be checked out");
  }
  const SeriesRecord& series = in.series;
  if (!series.versionable) return Constraint("document '" + in.path + "' is not versionable");
  if (series.checked_out) {
    return folio::Versioning("document '" + in.path + "' is already checked out by " + Holder(*series.checked_out));
  }
  if (!in.version) return ObjectNotFound("no object with id '" + in.id + "'");
  CheckOutPlan plan;
  plan.label = in.label;
  ObjectRecord& pwc = plan.pwc;
  pwc = *in.version;
  pwc.label = "pwc";
  pwc.major = false;
  pwc.properties.erase(cmis::kCheckinComment);
  pwc.properties[cmis::kCreatedBy] = in.user;
  pwc.properties[cmis::kCreationDate] = storage::FormatIsoMs(in.now_ms);
  changes::Touch(pwc.properties, in.user, in.now_ms);
  // Its own file, never another name of the version's (Rule V3); an edit by hand not
  // taken in yet is copied with the rest (Rule V2).
  plan.copies_content = pwc.content.has_value();
  if (pwc.content && in.edited) DescribeEdited(*pwc.content, *in.edited);
  plan.series = series;
  plan.series.checked_out = CheckOutRecord{in.user, in.now_ms, in.label};
  plan.events.push_back(changes::Event("created", storage::PwcId(series.series_id), BaseType::kDocument,
                                       changes::StoredTypeId(pwc.properties, BaseType::kDocument)));
  // Checking out changes the checked-out properties every version of the series shows.
  if (!series.versions.empty()) {
    plan.events.push_back(changes::Event("updated", storage::VersionId(series.series_id, LatestLabel(series)),
                                         BaseType::kDocument, in.latest_type_id));
  }
  return plan;
}

Result<CancelCheckOutPlan> PlanCancelCheckOut(const CancelCheckOutInputs& in) {
  const SeriesRecord& series = in.series;
  if (!series.checked_out) {
    return ObjectNotFound("private working copy '" + storage::PwcId(series.series_id) +
                          "' does not exist: it was checked in or cancelled");
  }
  CancelCheckOutPlan plan;
  plan.events.push_back(changes::Event("deleted", storage::PwcId(series.series_id), BaseType::kDocument,
                                       changes::StoredTypeId(in.pwc.properties, BaseType::kDocument)));
  if (series.versions.empty()) {
    plan.removes_document = true;
    return plan;
  }
  // No longer checked out: the checked-out properties of every version change.
  plan.events.push_back(changes::Event("updated", storage::VersionId(series.series_id, LatestLabel(series)),
                                       BaseType::kDocument, in.latest_type_id));
  plan.series = series;
  plan.series.checked_out.reset();
  return plan;
}

}  // namespace folio::repo::versions
