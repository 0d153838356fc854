// Versioning (seed §3, §9; CONTRACT §5): check-out makes pwc.json/pwc.content beside
// the version files; check-in turns them into the next numbered version; cancel
// removes them. series.json records the check-out and the list of versions, and its
// replacement is part of the same transaction as the files it describes.
#include "repo/repo_impl.h"
#include "repo/version_label.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

std::string Holder(const CheckOutRecord& co) {
  return co.by + " (since " + storage::FormatIsoMs(co.since_ms) + ")";
}

}  // namespace

Result<ObjectData> RepoImpl::CheckOut(const std::string& id, const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  const Loc& loc = t.loc;
  if (loc.base != BaseType::kDocument) {
    return Constraint("object '" + id + "' is a " + std::string(BaseTypeId(loc.base)) +
                      "; only documents can be checked out");
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, ReadSeries(loc.folder, loc.name));
  const std::string path = "/" + storage::JoinPath(loc.folder, loc.name);
  if (!series.versionable) return Constraint("document '" + path + "' is not versionable");
  if (series.checked_out) {
    return Versioning("document '" + path + "' is already checked out by " + Holder(*series.checked_out));
  }
  const std::string label = t.label ? *t.label : LatestLabel(series);
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ReadRecord(layout_.VersionProps(loc.folder, loc.name, label)));
  const int64_t now = storage::NowMs();
  ObjectRecord pwc = rec;
  pwc.label = "pwc";
  pwc.major = false;
  pwc.properties.erase("cmis:checkinComment");
  pwc.properties["cmis:createdBy"] = user;
  pwc.properties["cmis:creationDate"] = storage::FormatIsoMs(now);
  Touch(pwc.properties, user, now);
  series.checked_out = CheckOutRecord{user, now, label};

  storage::Transaction tx(fs_, layout_.JournalDir());
  if (rec.content) {
    FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(layout_.VersionContent(loc.folder, loc.name, label)));
    FOLIO_RETURN_IF_ERROR(tx.Copy(layout_.PwcContent(loc.folder, loc.name), *src).status());
  }
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.PwcProps(loc.folder, loc.name), ToJson(pwc)).status());
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(loc.folder, loc.name), ToJson(series)).status());
  FOLIO_RETURN_IF_ERROR(StageCheckedOutMarker(tx, series.series_id, true));
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildDocument(loc, series, std::nullopt, /*pwc=*/true);
}

// The working copy named by `pwc_id`, with its series, or the failure CONTRACT §5 gives.
static Result<std::pair<Target, SeriesRecord>> WorkingCopy(RepoImpl& r, const std::string& pwc_id) {
  auto t = r.ResolveId(pwc_id);
  if (!t.ok()) return t.status();
  if (!t->pwc) return Versioning("object '" + pwc_id + "' is not a private working copy");
  auto series = r.ReadSeries(t->loc.folder, t->loc.name);
  if (!series.ok()) return series.status();
  if (!series->checked_out) {
    return ObjectNotFound("private working copy '" + pwc_id +
                          "' does not exist: it was checked in or cancelled");
  }
  return std::make_pair(*t, *series);
}

Result<ObjectData> RepoImpl::CheckIn(const std::string& pwc_id, const CheckInRequest& req, const std::string& user) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(*this, pwc_id));
  auto& [t, series] = wc;
  const Loc loc = t.loc;
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord pwc, ReadRecord(layout_.PwcProps(loc.folder, loc.name)));
  FOLIO_ASSIGN_OR_RETURN(auto type, types_.Get(pwc.properties.value("cmis:objectTypeId", "cmis:document")));
  FOLIO_ASSIGN_OR_RETURN(Json norm, NormalizeProperties(*type, req.properties, PropertyMode::kCheckIn, pwc.properties));
  if (req.content && type->content_stream_allowed == "notallowed") {
    return StreamNotSupported("type '" + type->id + "' does not allow content");
  }
  std::string new_name = pwc.properties.value("cmis:name", loc.name);
  if (norm.contains("cmis:name") && norm["cmis:name"].is_string()) new_name = norm["cmis:name"];
  norm.erase("cmis:name");
  norm.erase("cmis:objectTypeId");

  std::optional<VersionLabel> latest;
  if (!series.versions.empty()) latest = VersionLabel::Parse(LatestLabel(series));
  const VersionLabel next = VersionLabel::Next(latest, req.major);
  const std::string label = next.ToString();
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
  FOLIO_RETURN_IF_ERROR(CheckRequired(*type, rec.properties));
  rec.properties["cmis:name"] = new_name;
  rec.properties["cmis:createdBy"] = user;
  rec.properties["cmis:creationDate"] = storage::FormatIsoMs(now);
  Touch(rec.properties, user, now);
  if (req.comment.empty()) {
    rec.properties.erase("cmis:checkinComment");
  } else {
    rec.properties["cmis:checkinComment"] = req.comment;
  }
  rec.acl = ApplyAces(pwc.acl, req.add_aces, req.remove_aces);
  const bool renames = new_name != loc.name;
  if (renames) FOLIO_RETURN_IF_ERROR(CheckNameFree(loc.folder, new_name));

  storage::Transaction tx(fs_, layout_.JournalDir());
  const std::string version_content = layout_.VersionContent(loc.folder, loc.name, label);
  std::string visible_source;
  if (req.content) {
    FOLIO_ASSIGN_OR_RETURN(visible_source, StageContent(tx, version_content, *req.content));
    FOLIO_ASSIGN_OR_RETURN(rec.content, DescribeContent(req.content, visible_source, new_name));
  } else if (pwc.content) {
    visible_source = layout_.PwcContent(loc.folder, loc.name);
    tx.Rename(visible_source, version_content);  // the working copy's bytes become the version's
  }
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.VersionProps(loc.folder, loc.name, label), ToJson(rec)).status());
  FOLIO_RETURN_IF_ERROR(StageVisible(tx, layout_.Child(loc.folder, new_name), visible_source, series));
  series.versions.push_back(label);
  series.checked_out.reset();
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(loc.folder, loc.name), ToJson(series)).status());
  tx.Remove(layout_.PwcProps(loc.folder, loc.name));
  tx.Remove(layout_.PwcContent(loc.folder, loc.name));
  FOLIO_RETURN_IF_ERROR(StageCheckedOutMarker(tx, series.series_id, false));
  Loc out = loc;
  if (renames) {
    tx.Remove(layout_.Child(loc.folder, loc.name));
    tx.Rename(layout_.SeriesDir(loc.folder, loc.name), layout_.SeriesDir(loc.folder, new_name));
    FOLIO_ASSIGN_OR_RETURN(std::string parent_id, FolderIdAt(loc.folder));
    FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, series.series_id,
                                                   {"document", parent_id, new_name,
                                                    storage::JoinPath(loc.folder, new_name)}));
    out.name = new_name;
  }
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return BuildDocument(out, series, label, false);
}

Status RepoImpl::CancelCheckOut(const std::string& pwc_id) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite());
  FOLIO_ASSIGN_OR_RETURN(auto wc, WorkingCopy(*this, pwc_id));
  auto& [t, series] = wc;
  storage::Transaction tx(fs_, layout_.JournalDir());
  if (series.versions.empty()) {
    // Created checked out: without its working copy the document has nothing left.
    FOLIO_RETURN_IF_ERROR(StageSeriesRemoval(tx, t.loc));
    return tx.Commit();
  }
  series.checked_out.reset();
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(t.loc.folder, t.loc.name), ToJson(series)).status());
  tx.Remove(layout_.PwcProps(t.loc.folder, t.loc.name));
  tx.Remove(layout_.PwcContent(t.loc.folder, t.loc.name));
  FOLIO_RETURN_IF_ERROR(StageCheckedOutMarker(tx, series.series_id, false));
  return tx.Commit();
}

Result<std::vector<ObjectData>> RepoImpl::AllVersions(const std::string& id) {
  std::vector<ObjectData> out;
  const auto start = [&out](size_t count) { out.reserve(count); };
  const auto collect = [&out](ObjectData&& o) {
    out.push_back(std::move(o));
    return OkStatus();
  };
  FOLIO_RETURN_IF_ERROR(VisitAllVersions(id, false, start, collect).status());
  return out;
}

Result<size_t> RepoImpl::VisitAllVersions(const std::string& id, bool newest_first,
                                          const std::function<void(size_t)>& start, const VersionVisitor& visit) {
  FOLIO_ASSIGN_OR_RETURN(Target t, ResolveId(id));
  if (t.loc.base != BaseType::kDocument) {
    return InvalidArgument("object '" + id + "' is a " + std::string(BaseTypeId(t.loc.base)) + ": not versioned");
  }
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, ReadSeries(t.loc.folder, t.loc.name));
  start(series.versions.size() + (series.checked_out ? 1 : 0));
  size_t count = 0;
  FOLIO_RETURN_IF_ERROR(BuildAllVersions(t.loc, series, newest_first, [&](ObjectData&& o) {
    ++count;
    return visit(std::move(o));
  }));
  return count;
}

Result<std::vector<ObjectData>> RepoImpl::CheckedOut(const std::string& folder_id) {
  std::string folder_path;
  bool filter = !folder_id.empty();
  if (filter) {
    FOLIO_ASSIGN_OR_RETURN(Loc f, LocateFolder(folder_id));
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
    auto loc = Locate(series_id);
    if (!loc.ok() || loc->base != BaseType::kDocument) continue;  // stale marker: fsck reports it
    if (filter && loc->folder != folder_path) continue;
    auto series = ReadSeries(loc->folder, loc->name);
    if (!series.ok() || !series->checked_out) continue;
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, BuildDocument(*loc, *series, std::nullopt, true));
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace folio::repo
