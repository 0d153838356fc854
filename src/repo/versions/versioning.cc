// Check-out, check-in, cancel and the version lists; see versioning.h.
#include "repo/versions/versioning.h"

#include <algorithm>

#include "repo/changes/staging.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/lookup/record_reader.h"
#include "repo/types/secondary_types.h"
#include "repo/types/types.h"
#include "repo/versions/check_in_plan.h"
#include "repo/versions/check_in_staging.h"
#include "repo/versions/check_out_plan.h"
#include "repo/versions/version_files.h"
#include "repo/versions/version_list.h"
#include "storage/committer.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo::versions {
namespace {

// The working copy named by `pwc_id`, with its series, or the failure the contract
// gives for each way it is not one.
Result<std::pair<lookup::Target, SeriesRecord>> WorkingCopy(lookup::Locator& locator, lookup::RecordReader& records,
                                                            const std::string& pwc_id) {
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, locator.ResolveId(pwc_id));
  if (!t.pwc) return folio::Versioning("object '" + pwc_id + "' is not a private working copy");
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records.ReadSeries(t.loc.folder, t.loc.name));
  if (!series.checked_out) {
    return ObjectNotFound("private working copy '" + pwc_id + "' does not exist: it was checked in or cancelled");
  }
  return std::make_pair(std::move(t), std::move(series));
}

}  // namespace

Result<ObjectData> Versioning::CheckOut(const std::string& id, const std::string& user, const WriteCheck& check) {
  lookup::Loc doc;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    auto allowed = [&](const lookup::Target& found) {
      return changes::CheckWrite(check, WriteRole::kObject, engine_.builder, found);
    };
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveIdToChange(id, allowed));
    const lookup::Loc& loc = t.loc;
    doc = loc;
    if (loc.base == BaseType::kDocument)
      FOLIO_RETURN_IF_ERROR(changes::CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    FOLIO_ASSIGN_OR_RETURN(CheckOutInputs in, CheckOutInputsOf(t, id, user));
    FOLIO_ASSIGN_OR_RETURN(CheckOutPlan plan, PlanCheckOut(in));
    if (plan.copies_content) {
      StageWorkingCopyContent(change, engine_.layout.PwcContent(loc.folder, loc.name),
                                        engine_.layout.VersionContent(loc.folder, loc.name, plan.label));
    }
    change.PutJson(engine_.layout.PwcProps(loc.folder, loc.name), ToJson(plan.pwc));
    change.PutJson(engine_.layout.SeriesFile(loc.folder, loc.name), ToJson(plan.series));
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageCheckedOutMarker(change, plan.series.series_id, true));
    for (const storage::ChangeEvent& e : plan.events) change.Record(e);
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.DocumentTarget(doc.folder, doc.name));
  t.pwc = true;
  t.label.reset();
  return engine_.builder.Build(t);
}

Result<CheckOutInputs> Versioning::CheckOutInputsOf(const lookup::Target& t, const std::string& id,
                                                    const std::string& user) {
  const lookup::Loc& loc = t.loc;
  CheckOutInputs in;
  in.id = id;
  in.base = loc.base;
  if (loc.base != BaseType::kDocument) return in;  // refused by the plan
  in.path = "/" + storage::JoinPath(loc.folder, loc.name);
  FOLIO_ASSIGN_OR_RETURN(in.series, engine_.records.ReadSeries(loc.folder, loc.name));
  if (!in.series.versionable || in.series.checked_out) return in;  // refused by the plan
  in.label = t.label ? *t.label : LatestLabel(in.series);
  FOLIO_ASSIGN_OR_RETURN(bool listed, engine_.versions.Lists(loc.folder, loc.name, in.series, in.label));
  if (!listed) return in;  // refused by the plan
  FOLIO_ASSIGN_OR_RETURN(in.version,
                         engine_.records.ReadRecord(engine_.layout.VersionProps(loc.folder, loc.name, in.label)));
  in.user = user;
  in.now_ms = storage::NowMs();
  if (in.version->content) {
    in.edited = EditedInPlace(engine_.fs, engine_.layout.Child(loc.folder, loc.name),
                                        engine_.layout.VersionContent(loc.folder, loc.name, in.label), in.series);
  }
  FOLIO_ASSIGN_OR_RETURN(in.latest_type_id, LatestTypeId(loc, in.series));
  return in;
}

Result<ObjectData> Versioning::CheckIn(const std::string& pwc_id, const CheckInRequest& req, const std::string& user,
                                      const WriteCheck& check) {
  lookup::Loc out;
  std::string label;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(engine_.locator, engine_.records, pwc_id));
    auto& [t, series] = wc;
    const lookup::Loc loc = t.loc;
    FOLIO_RETURN_IF_ERROR(changes::CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    FOLIO_ASSIGN_OR_RETURN(CheckInInputs in, CheckInInputsOf(loc, std::move(series), req, user));
    FOLIO_ASSIGN_OR_RETURN(CheckInPlan plan, PlanCheckIn(in, req));
    std::string parent_id;  // the index entry of a renamed document names its folder
    if (plan.renames) {
      FOLIO_ASSIGN_OR_RETURN(parent_id, engine_.locator.FolderIdAt(loc.folder));
    }
    CheckInStaging check_in_staging(engine_.layout, engine_.staging, engine_.relocation, engine_.versions);
    FOLIO_ASSIGN_OR_RETURN(out, check_in_staging.Stage(change, loc, parent_id, plan, in, req.content));
    label = plan.label;
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.DocumentTarget(out.folder, out.name));
  t.pwc = false;
  t.label = label;
  return engine_.builder.Build(t);
}

Result<CheckInInputs> Versioning::CheckInInputsOf(const lookup::Loc& loc, SeriesRecord series,
                                                  const CheckInRequest& req, const std::string& user) {
  CheckInInputs in;
  in.name = loc.name;
  in.user = user;
  in.now_ms = storage::NowMs();
  FOLIO_ASSIGN_OR_RETURN(in.pwc, engine_.records.ReadRecord(engine_.layout.PwcProps(loc.folder, loc.name)));
  FOLIO_ASSIGN_OR_RETURN(in.type, engine_.types.Get(changes::StoredTypeId(in.pwc.properties, BaseType::kDocument)));
  Json given = req.properties;
  FOLIO_ASSIGN_OR_RETURN(in.rules, types::PlanSecondaryChange(engine_.types, in.type, in.pwc.properties, given));
  for (const std::string& id : SecondaryTypeIdsAfterCheckIn(in.pwc.properties, in.rules)) {
    auto secondary = engine_.types.Get(id);
    if (secondary.ok()) in.secondary.push_back(std::move(*secondary));  // a stale id is skipped
  }
  if (in.pwc.content) {
    FOLIO_ASSIGN_OR_RETURN(FileStat st, engine_.fs.Stat(engine_.layout.PwcContent(loc.folder, loc.name)));
    in.pwc_content = st;
  }
  const std::string before = series.versions.empty() ? "" : LatestLabel(series);
  if (!before.empty()) {
    in.edited = EditedInPlace(engine_.fs, engine_.layout.Child(loc.folder, loc.name),
                                        engine_.layout.VersionContent(loc.folder, loc.name, before), series);
  }
  std::vector<std::string> rewritten;
  if (!req.add_aces.empty() || !req.remove_aces.empty()) {
    FOLIO_ASSIGN_OR_RETURN(rewritten, engine_.versions.AllLabels(loc.folder, loc.name, series));
  } else if (in.edited) {
    rewritten.push_back(before);
  }
  for (const std::string& l : rewritten) {
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord r,
                           engine_.records.ReadRecord(engine_.layout.VersionProps(loc.folder, loc.name, l)));
    in.versions.emplace(l, std::move(r));
  }
  in.series = std::move(series);
  return in;
}

Status Versioning::CancelCheckOut(const std::string& pwc_id, const WriteCheck& check) {
  return engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(engine_.locator, engine_.records, pwc_id));
    auto& [t, series] = wc;
    const lookup::Loc& loc = t.loc;
    FOLIO_RETURN_IF_ERROR(changes::CheckWrite(check, WriteRole::kObject, engine_.builder, t));
    CancelCheckOutInputs in;
    FOLIO_ASSIGN_OR_RETURN(in.pwc, engine_.records.ReadRecord(engine_.layout.PwcProps(loc.folder, loc.name)));
    FOLIO_ASSIGN_OR_RETURN(in.latest_type_id, LatestTypeId(loc, series));
    in.series = std::move(series);
    FOLIO_ASSIGN_OR_RETURN(CancelCheckOutPlan plan, PlanCancelCheckOut(in));
    if (plan.removes_document) {
      FOLIO_RETURN_IF_ERROR(engine_.staging.StageSeriesRemoval(change, loc));
    } else {
      change.PutJson(engine_.layout.SeriesFile(loc.folder, loc.name), ToJson(plan.series));
      change.Remove(engine_.layout.PwcProps(loc.folder, loc.name));
      FOLIO_RETURN_IF_ERROR(engine_.staging.StageRemoveFile(change, engine_.layout.PwcContent(loc.folder, loc.name)));
      FOLIO_RETURN_IF_ERROR(engine_.staging.StageCheckedOutMarker(change, plan.series.series_id, false));
    }
    for (const storage::ChangeEvent& e : plan.events) change.Record(e);
    return OkStatus();
  });
}

Result<std::string> Versioning::LatestTypeId(const lookup::Loc& doc, const SeriesRecord& series) {
  if (series.versions.empty()) return std::string();
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord latest, engine_.records.ReadDocumentRecord(doc.folder, doc.name, series));
  return changes::StoredTypeId(latest.properties, BaseType::kDocument);
}

Result<ObjectData> Versioning::LatestVersion(const std::string& id, bool major) {
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveId(id));
  if (t.loc.base != BaseType::kDocument) return engine_.builder.Build(t);
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(t.loc));
  if (!major) {
    if (series.versions.empty()) return ObjectNotFound("document '" + t.loc.name + "' has no version yet");
    return engine_.builder.BuildDocument(t.loc, series, std::nullopt, false);
  }
  const std::string label = LatestMajorLabel(series);
  if (label.empty()) return ObjectNotFound("document '" + t.loc.name + "' has no major version");
  return engine_.builder.BuildDocument(t.loc, series, label, false);
}

Result<size_t> Versioning::VisitAllVersions(const std::string& id, bool newest_first,
                                            const std::function<void(size_t)>& start,
                                            const std::function<Status(ObjectData&&)>& visit) {
  FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveId(id));
  if (t.loc.base != BaseType::kDocument) {
    return InvalidArgument("object '" + id + "' is a " + std::string(BaseTypeId(t.loc.base)) + ": not versioned");
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(t.loc));
  start(VersionCount(series) + (series.checked_out ? 1 : 0));
  size_t count = 0;
  FOLIO_RETURN_IF_ERROR(engine_.builder.BuildAllVersions(t.loc, series, newest_first, [&](ObjectData&& o) {
    ++count;
    return visit(std::move(o));
  }));
  return count;
}

Result<std::vector<ObjectData>> Versioning::CheckedOut(const std::string& folder_id) {
  std::string folder_path;
  const bool filter = !folder_id.empty();
  if (filter) {
    FOLIO_ASSIGN_OR_RETURN(lookup::Loc f, engine_.locator.LocateFolder(folder_id));
    folder_path = f.folder;
  }
  std::vector<ObjectData> out;
  auto markers = engine_.fs.List(engine_.layout.CheckedOutDir());
  if (!markers.ok()) {
    if (markers.status().Is(std::errc::no_such_file_or_directory)) return out;
    return markers.status();
  }
  std::vector<std::string> ids;
  for (const DirEntry& e : *markers) {
    if (!storage::IsTempName(e.name)) ids.push_back(e.name);
  }
  std::sort(ids.begin(), ids.end());
  for (const std::string& series_id : ids) {
    auto loc = engine_.locator.Locate(series_id);
    if (!loc.ok() || loc->base != BaseType::kDocument) continue;  // a stale marker: fsck reports it
    if (filter && loc->folder != folder_path) continue;
    auto series = engine_.records.ReadSeries(loc->folder, loc->name);
    if (!series.ok() || !series->checked_out) continue;
    auto o = engine_.builder.BuildDocument(*loc, *series, std::nullopt, true);
    if (!o.ok()) {
      // A damaged record (its own, its folder's) spoils only this working copy.
      if (!lookup::Listings::IsDamage(o.status())) return o.status();
      engine_.listings.LogDamaged("/" + storage::JoinPath(loc->folder, loc->name), o.status());
      continue;
    }
    out.push_back(std::move(*o));
  }
  return out;
}

}  // namespace folio::repo::versions
