// Check-out, check-in, cancel and the version lists; see versioning.h.
#include "repo/versioning.h"

#include <algorithm>

#include "folio/cmis_ids.h"
#include "repo/changes/relocation.h"
#include "repo/listings.h"
#include "repo/locator.h"
#include "repo/object_builder.h"
#include "repo/properties.h"
#include "repo/record_reader.h"
#include "repo/secondary_types.h"
#include "repo/staging.h"
#include "repo/types.h"
#include "repo/version_label.h"
#include "repo/version_list.h"
#include "repo/versions/version_files.h"
#include "repo/write_check.h"
#include "storage/datetime.h"
#include "storage/committer.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

std::string Holder(const CheckOutRecord& co) {
  return co.by + " (since " + storage::FormatIsoMs(co.since_ms) + ")";
}

// The working copy named by `pwc_id`, with its series, or the failure the contract
// gives for each way it is not one.
Result<std::pair<Target, SeriesRecord>> WorkingCopy(Locator& locator, RecordReader& records,
                                                    const std::string& pwc_id) {
  FOLIO_ASSIGN_OR_RETURN(Target t, locator.ResolveId(pwc_id));
  if (!t.pwc) return folio::Versioning("object '" + pwc_id + "' is not a private working copy");
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records.ReadSeries(t.loc.folder, t.loc.name));
  if (!series.checked_out) {
    return ObjectNotFound("private working copy '" + pwc_id + "' does not exist: it was checked in or cancelled");
  }
  return std::make_pair(std::move(t), std::move(series));
}

}  // namespace

Result<ObjectData> Versioning::CheckOut(const std::string& id, const std::string& user, const WriteCheck& check) {
  Loc doc;
  FOLIO_RETURN_IF_ERROR(committer_.Run([&](storage::ChangeSet& change) -> Status {
    auto allowed = [&](const Target& found) { return CheckWrite(check, WriteRole::kObject, builder_, found); };
    FOLIO_ASSIGN_OR_RETURN(Target t, locator_.ResolveIdToChange(id, allowed));
    const Loc& loc = t.loc;
    doc = loc;
    if (loc.base != BaseType::kDocument) {
      return Constraint("object '" + id + "' is a " + std::string(BaseTypeId(loc.base)) +
                        "; only documents can be checked out");
    }
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(loc.folder, loc.name));
    const std::string path = "/" + storage::JoinPath(loc.folder, loc.name);
    if (!series.versionable) return Constraint("document '" + path + "' is not versionable");
    if (series.checked_out) {
      return folio::Versioning("document '" + path + "' is already checked out by " + Holder(*series.checked_out));
    }
    const std::string label = t.label ? *t.label : LatestLabel(series);
    FOLIO_ASSIGN_OR_RETURN(bool listed, versions_.Lists(loc.folder, loc.name, series, label));
    if (!listed) return ObjectNotFound("no object with id '" + id + "'");
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, records_.ReadRecord(layout_.VersionProps(loc.folder, loc.name, label)));
    const int64_t now = storage::NowMs();
    ObjectRecord pwc = rec;
    pwc.label = "pwc";
    pwc.major = false;
    pwc.properties.erase(cmis::kCheckinComment);
    pwc.properties[cmis::kCreatedBy] = user;
    pwc.properties[cmis::kCreationDate] = storage::FormatIsoMs(now);
    Touch(pwc.properties, user, now);
    series.checked_out = CheckOutRecord{user, now, label};
    // Its own file, never another name of the version's (Rule V3).
    if (rec.content) {
      const std::string version_content = layout_.VersionContent(loc.folder, loc.name, label);
      versions::StageWorkingCopyContent(change, layout_.PwcContent(loc.folder, loc.name), version_content);
      // An edit by hand not taken in yet is copied with the rest (Rule V2).
      const auto edited = versions::EditedInPlace(fs_, layout_.Child(loc.folder, loc.name), version_content, series);
      if (edited) versions::DescribeEdited(*pwc.content, *edited);
    }
    change.PutJson(layout_.PwcProps(loc.folder, loc.name), ToJson(pwc));
    change.PutJson(layout_.SeriesFile(loc.folder, loc.name), ToJson(series));
    FOLIO_RETURN_IF_ERROR(staging_.StageCheckedOutMarker(change, series.series_id, true));
    change.Record(Event("created", storage::PwcId(series.series_id), BaseType::kDocument,
                        StoredTypeId(pwc.properties, BaseType::kDocument)));
    FOLIO_RETURN_IF_ERROR(RecordSeriesUpdated(change, loc, series));
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(Target t, locator_.DocumentTarget(doc.folder, doc.name));
  t.pwc = true;
  t.label.reset();
  return builder_.Build(t);
}

Result<ObjectData> Versioning::CheckIn(const std::string& pwc_id, const CheckInRequest& req, const std::string& user,
                                      const WriteCheck& check) {
  Loc out;
  std::string label;
  FOLIO_RETURN_IF_ERROR(committer_.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(locator_, records_, pwc_id));
    auto& [t, series] = wc;
    const Loc loc = t.loc;
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord pwc, records_.ReadRecord(layout_.PwcProps(loc.folder, loc.name)));
    FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(StoredTypeId(pwc.properties, BaseType::kDocument)));
    Json given = req.properties;
    FOLIO_ASSIGN_OR_RETURN(SecondaryChange rules, PlanSecondaryChange(types_, type, pwc.properties, given));
    FOLIO_ASSIGN_OR_RETURN(Json norm,
                           NormalizeProperties(*rules.after, given, PropertyMode::kCheckIn, pwc.properties));
    if (req.content && type->content_stream_allowed == "notallowed") {
      return StreamNotSupported("type '" + type->id + "' does not allow content");
    }
    std::string new_name = storage::StringOr(pwc.properties, cmis::kName, loc.name);
    if (auto it = norm.find(cmis::kName); it != norm.end() && it->is_string()) new_name = it->get<std::string>();
    norm.erase(cmis::kName);
    norm.erase(cmis::kObjectTypeId);

    std::optional<VersionLabel> latest;
    if (!series.versions.empty()) latest = VersionLabel::Parse(LatestLabel(series));
    const VersionLabel next = VersionLabel::Next(latest, req.major);
    label = next.ToString();
    const int64_t now = storage::NowMs();

    ObjectRecord rec = pwc;
    rec.label = label;
    rec.major = next.IsMajor();
    for (auto& [k, v] : norm.items()) {
      if (v.is_null()) {
        rec.properties.erase(k);
      } else {
        rec.properties[k] = v;
      }
    }
    if (rules.listed) {
      ApplySecondaryTypes(rec.properties, rules.ids, *rules.before, *rules.after);
      FOLIO_RETURN_IF_ERROR(StageTypeUsages(staging_, change, type->id, rec.properties, loc.id));
    }
    FOLIO_RETURN_IF_ERROR(CheckRequiredWithSecondaryTypes(types_, *rules.after, rec.properties));
    rec.properties[cmis::kName] = new_name;
    rec.properties[cmis::kCreatedBy] = user;
    rec.properties[cmis::kCreationDate] = storage::FormatIsoMs(now);
    Touch(rec.properties, user, now);
    if (req.comment.empty()) {
      rec.properties.erase(cmis::kCheckinComment);
    } else {
      rec.properties[cmis::kCheckinComment] = req.comment;
    }
    rec.acl = ApplyAces(pwc.acl, req.add_aces, req.remove_aces);
    const bool renames = new_name != loc.name;
    // Rule V2: an edit in place of the visible file not taken in yet is the latest
    // version's; its record says so before that version becomes an earlier one.
    std::optional<FileStat> edited;
    const std::string before = series.versions.empty() ? "" : LatestLabel(series);
    if (!before.empty()) {
      edited = versions::EditedInPlace(fs_, layout_.Child(loc.folder, loc.name),
                                       layout_.VersionContent(loc.folder, loc.name, before), series);
    }

    // A rename comes first, and everything is written under the new name: applying this
    // change again after a crash never writes into a directory renamed away.
    Loc now_at = loc;
    if (renames) {
      FOLIO_ASSIGN_OR_RETURN(std::string parent_id, locator_.FolderIdAt(loc.folder));
      FOLIO_ASSIGN_OR_RETURN(now_at, relocation_.Stage(change, loc, {loc.folder, parent_id, new_name},
                                                       changes::VisibleFile::kRestaged));
    }
    const std::string version_content = layout_.VersionContent(now_at.folder, now_at.name, label);
    const std::string pwc_content = layout_.PwcContent(now_at.folder, now_at.name);
    bool has_content = false;
    if (req.content) {
      FOLIO_ASSIGN_OR_RETURN(ContentInfo info, staging_.StageContent(change, version_content, *req.content, new_name));
      rec.content = info;
      has_content = true;
    } else if (pwc.content) {
      // The working copy's bytes become the version's (Rule V3).
      FOLIO_RETURN_IF_ERROR(versions::StageCheckedInContent(change, fs_, layout_.PwcContent(loc.folder, loc.name),
                                                            pwc_content, version_content));
      has_content = true;
    }
    change.PutJson(layout_.VersionProps(now_at.folder, now_at.name, label), ToJson(rec));
    change.Remove(layout_.PwcProps(now_at.folder, now_at.name));
    if (!req.add_aces.empty() || !req.remove_aces.empty()) {
      // A version series shares one ACL (docs/API.md §11): the entries the check-in
      // changes reach every version.
      FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> all, versions_.AllLabels(loc.folder, loc.name, series));
      for (const std::string& older : all) {
        FOLIO_ASSIGN_OR_RETURN(ObjectRecord r, records_.ReadRecord(layout_.VersionProps(loc.folder, loc.name, older)));
        r.acl = rec.acl;
        if (edited && older == before && r.content) versions::DescribeEdited(*r.content, *edited);
        change.PutJson(layout_.VersionProps(now_at.folder, now_at.name, older), ToJson(r));
      }
    } else if (edited) {
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord r, records_.ReadRecord(layout_.VersionProps(loc.folder, loc.name, before)));
      if (r.content) versions::DescribeEdited(*r.content, *edited);
      change.PutJson(layout_.VersionProps(now_at.folder, now_at.name, before), ToJson(r));
    }
    if (edited) {
      change.Record(Event("updated", storage::VersionId(series.series_id, before), BaseType::kDocument, type->id));
    }
    if (req.content && pwc.content) {
      FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(layout_.PwcContent(loc.folder, loc.name)));
      change.Remove(pwc_content, storage::Guard::Inode(st));
    }
    series.versions.push_back(label);
    versions_.ArchiveOldest(change, now_at.folder, now_at.name, series);
    series.checked_out.reset();
    // The version checked in before is an earlier one now: the visible file becomes
    // another inode (Rule V4).
    staging_.StageVisibleAndSeries(change, now_at, has_content ? version_content : "", storage::Guard::None(),
                                   series);
    FOLIO_RETURN_IF_ERROR(staging_.StageCheckedOutMarker(change, series.series_id, false));
    change.Record(Event("deleted", storage::PwcId(series.series_id), BaseType::kDocument, type->id));
    change.Record(Event("created", storage::VersionId(series.series_id, label), BaseType::kDocument, type->id));
    if (!SameAcl(rec.acl, pwc.acl)) {
      // Entries changed with the check-in are an ACL change of the series, logged as
      // applyACL logs one (docs/API.md §7.12).
      change.Record(Event("security", storage::VersionId(series.series_id, label), BaseType::kDocument, type->id));
    }
    out = now_at;
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(Target t, locator_.DocumentTarget(out.folder, out.name));
  t.pwc = false;
  t.label = label;
  return builder_.Build(t);
}

Status Versioning::CancelCheckOut(const std::string& pwc_id, const WriteCheck& check) {
  return committer_.Run([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(locator_, records_, pwc_id));
    auto& [t, series] = wc;
    FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, builder_, t));
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord pwc, records_.ReadRecord(layout_.PwcProps(t.loc.folder, t.loc.name)));
    change.Record(Event("deleted", storage::PwcId(series.series_id), BaseType::kDocument,
                        StoredTypeId(pwc.properties, BaseType::kDocument)));
    if (series.versions.empty()) {
      // Created checked out: without its working copy the document has nothing left.
      return staging_.StageSeriesRemoval(change, t.loc);
    }
    FOLIO_RETURN_IF_ERROR(RecordSeriesUpdated(change, t.loc, series));
    series.checked_out.reset();
    change.PutJson(layout_.SeriesFile(t.loc.folder, t.loc.name), ToJson(series));
    change.Remove(layout_.PwcProps(t.loc.folder, t.loc.name));
    FOLIO_RETURN_IF_ERROR(staging_.StageRemoveFile(change, layout_.PwcContent(t.loc.folder, t.loc.name)));
    return staging_.StageCheckedOutMarker(change, series.series_id, false);
  });
}

Status Versioning::RecordSeriesUpdated(storage::ChangeSet& change, const Loc& doc, const SeriesRecord& series) {
  if (series.versions.empty()) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord latest, records_.ReadDocumentRecord(doc.folder, doc.name, series));
  change.Record(Event("updated", storage::VersionId(series.series_id, series.versions.back()), BaseType::kDocument,
                      StoredTypeId(latest.properties, BaseType::kDocument)));
  return OkStatus();
}

Result<ObjectData> Versioning::LatestVersion(const std::string& id, bool major) {
  FOLIO_ASSIGN_OR_RETURN(Target t, locator_.ResolveId(id));
  if (t.loc.base != BaseType::kDocument) return builder_.Build(t);
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(t.loc));
  if (!major) {
    if (series.versions.empty()) return ObjectNotFound("document '" + t.loc.name + "' has no version yet");
    return builder_.BuildDocument(t.loc, series, std::nullopt, false);
  }
  const std::string label = LatestMajorLabel(series);
  if (label.empty()) return ObjectNotFound("document '" + t.loc.name + "' has no major version");
  return builder_.BuildDocument(t.loc, series, label, false);
}

Result<size_t> Versioning::VisitAllVersions(const std::string& id, bool newest_first,
                                            const std::function<void(size_t)>& start,
                                            const std::function<Status(ObjectData&&)>& visit) {
  FOLIO_ASSIGN_OR_RETURN(Target t, locator_.ResolveId(id));
  if (t.loc.base != BaseType::kDocument) {
    return InvalidArgument("object '" + id + "' is a " + std::string(BaseTypeId(t.loc.base)) + ": not versioned");
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, records_.ReadSeries(t.loc));
  start(VersionCount(series) + (series.checked_out ? 1 : 0));
  size_t count = 0;
  FOLIO_RETURN_IF_ERROR(builder_.BuildAllVersions(t.loc, series, newest_first, [&](ObjectData&& o) {
    ++count;
    return visit(std::move(o));
  }));
  return count;
}

Result<std::vector<ObjectData>> Versioning::CheckedOut(const std::string& folder_id) {
  std::string folder_path;
  const bool filter = !folder_id.empty();
  if (filter) {
    FOLIO_ASSIGN_OR_RETURN(Loc f, locator_.LocateFolder(folder_id));
    folder_path = f.folder;
  }
  std::vector<ObjectData> out;
  auto markers = fs_.List(layout_.CheckedOutDir());
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
    auto loc = locator_.Locate(series_id);
    if (!loc.ok() || loc->base != BaseType::kDocument) continue;  // a stale marker: fsck reports it
    if (filter && loc->folder != folder_path) continue;
    auto series = records_.ReadSeries(loc->folder, loc->name);
    if (!series.ok() || !series->checked_out) continue;
    auto o = builder_.BuildDocument(*loc, *series, std::nullopt, true);
    if (!o.ok()) {
      // A damaged record (its own, its folder's) spoils only this working copy.
      if (!Listings::IsDamage(o.status())) return o.status();
      listings_.LogDamaged("/" + storage::JoinPath(loc->folder, loc->name), o.status());
      continue;
    }
    out.push_back(std::move(*o));
  }
  return out;
}

}  // namespace folio::repo
