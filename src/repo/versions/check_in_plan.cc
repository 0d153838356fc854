// The decisions of a check-in; see check_in_plan.h.
#include "repo/versions/check_in_plan.h"

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "repo/types/properties.h"
#include "repo/versions/version_files.h"
#include "repo/versions/version_label.h"
#include "repo/versions/version_list.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/json_access.h"

namespace folio::repo::versions {

std::vector<std::string> SecondaryTypeIdsAfterCheckIn(const Json& pwc_properties, const types::SecondaryChange& rules) {
  return rules.listed ? rules.ids : types::StoredSecondaryTypeIds(pwc_properties);
}

Result<CheckInPlan> PlanCheckIn(const CheckInInputs& in, const CheckInRequest& req) {
  const SeriesRecord& series = in.series;
  if (!series.checked_out) {
    return ObjectNotFound("private working copy '" + storage::PwcId(series.series_id) +
                          "' does not exist: it was checked in or cancelled");
  }
  if (!in.type || !in.rules.before || !in.rules.after) return RuntimeError("check-in planned without its type");
  const types::TypeDef& type = *in.type;
  const ObjectRecord& pwc = in.pwc;
  // types::PlanSecondaryChange took the secondary types out of the properties it was given.
  Json given = req.properties;
  if (given.is_object()) given.erase(cmis::kSecondaryObjectTypeIds);
  FOLIO_ASSIGN_OR_RETURN(
      Json norm, types::NormalizeProperties(*in.rules.after, given, types::PropertyMode::kCheckIn, pwc.properties));
  if (req.content && type.content_stream_allowed == "notallowed") {
    return StreamNotSupported("type '" + type.id + "' does not allow content");
  }
  CheckInPlan plan;
  plan.name = storage::StringOr(pwc.properties, cmis::kName, in.name);
  if (auto it = norm.find(cmis::kName); it != norm.end() && it->is_string()) plan.name = it->get<std::string>();
  plan.renames = plan.name != in.name;
  norm.erase(cmis::kName);
  norm.erase(cmis::kObjectTypeId);

  std::optional<VersionLabel> latest;
  if (!series.versions.empty()) latest = VersionLabel::Parse(LatestLabel(series));
  const VersionLabel next = VersionLabel::Next(latest, req.major);
  plan.label = next.ToString();

  ObjectRecord& rec = plan.version;
  rec = pwc;
  rec.label = plan.label;
  rec.major = next.IsMajor();
  for (auto& [k, v] : norm.items()) {
    if (v.is_null()) {
      rec.properties.erase(k);
    } else {
      rec.properties[k] = v;
    }
  }
  if (in.rules.listed) {
    types::ApplySecondaryTypes(rec.properties, in.rules.ids, *in.rules.before, *in.rules.after);
    plan.type_usages = true;
  }
  for (const auto& secondary : in.secondary) FOLIO_RETURN_IF_ERROR(types::CheckRequired(*secondary, rec.properties));
  FOLIO_RETURN_IF_ERROR(types::CheckRequired(*in.rules.after, rec.properties));
  rec.properties[cmis::kName] = plan.name;
  rec.properties[cmis::kCreatedBy] = in.user;
  rec.properties[cmis::kCreationDate] = storage::FormatIsoMs(in.now_ms);
  changes::Touch(rec.properties, in.user, in.now_ms);
  if (req.comment.empty()) {
    rec.properties.erase(cmis::kCheckinComment);
  } else {
    rec.properties[cmis::kCheckinComment] = req.comment;
  }
  rec.acl = ApplyAces(pwc.acl, req.add_aces, req.remove_aces);

  // The new version's bytes: the request's, or the working copy's own file (Rule V3),
  // never an earlier version's.
  if (req.content) {
    plan.content = NewContent::kFromRequest;
    rec.content.reset();  // described when staged
  } else if (pwc.content) {
    if (!in.pwc_content) return RuntimeError("check-in planned without the working copy's content file");
    plan.content = in.pwc_content->links == 1 ? NewContent::kWorkingCopyRenamed : NewContent::kWorkingCopyCopied;
  }
  if (req.content && pwc.content && !in.pwc_content) {
    return RuntimeError("check-in planned without the working copy's content file");
  }

  // Earlier records rewritten: a series shares one ACL (docs/API.md §11), so entries
  // the check-in changes reach every version; Rule V2: an edit in place not taken in is
  // the latest version's, which its record says before that version becomes an earlier one.
  const std::string before = series.versions.empty() ? "" : LatestLabel(series);
  const bool edited = in.edited && !before.empty();
  const auto described = [&](const std::string& label, ObjectRecord r) {
    if (edited && label == before && r.content) DescribeEdited(*r.content, *in.edited);
    return r;
  };
  if (!req.add_aces.empty() || !req.remove_aces.empty()) {
    for (const auto& [label, r] : in.versions) {
      ObjectRecord changed = described(label, r);
      changed.acl = rec.acl;
      plan.rewritten.emplace(label, std::move(changed));
    }
    if (edited && plan.rewritten.count(before) == 0) return RuntimeError("check-in planned without version " + before);
  } else if (edited) {
    const auto it = in.versions.find(before);
    if (it == in.versions.end()) return RuntimeError("check-in planned without version " + before);
    plan.rewritten.emplace(before, described(before, it->second));
  }

  plan.series = series;
  plan.series.versions.push_back(plan.label);
  plan.series.checked_out.reset();

  const std::string& type_id = type.id;
  if (edited) {
    plan.events.push_back(
        changes::Event("updated", storage::VersionId(series.series_id, before), BaseType::kDocument, type_id));
  }
  plan.events.push_back(changes::Event("deleted", storage::PwcId(series.series_id), BaseType::kDocument, type_id));
  plan.events.push_back(
      changes::Event("created", storage::VersionId(series.series_id, plan.label), BaseType::kDocument, type_id));
  if (!SameAcl(rec.acl, pwc.acl)) {
    // Entries changed with the check-in are an ACL change of the series, logged as
    // applyACL logs one (docs/API.md §7.12).
    plan.events.push_back(
        changes::Event("security", storage::VersionId(series.series_id, plan.label), BaseType::kDocument, type_id));
  }
  return plan;
}

}  // namespace folio::repo::versions
