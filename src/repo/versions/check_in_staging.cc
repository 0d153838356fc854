// Staging a planned check-in; see check_in_staging.h.
#include "repo/versions/check_in_staging.h"

#include "repo/changes/relocation.h"
#include "repo/changes/staging.h"
#include "repo/types/secondary_types.h"
#include "repo/versions/version_list.h"

namespace folio::repo::versions {

Result<lookup::Loc> CheckInStaging::Stage(storage::ChangeSet& change, const lookup::Loc& doc,
                                          const std::string& parent_id, const CheckInPlan& plan,
                                          const CheckInInputs& in, const std::optional<ContentSource>& content) {
  lookup::Loc at = doc;
  if (plan.renames) {
    FOLIO_ASSIGN_OR_RETURN(at, relocation_.Stage(change, doc, {doc.folder, parent_id, plan.name},
                                                 changes::VisibleFile::kRestaged));
  }
  ObjectRecord rec = plan.version;
  if (plan.type_usages) {
    FOLIO_RETURN_IF_ERROR(types::StageTypeUsages(staging_, change, in.type->id, rec.properties, doc.id));
  }
  const std::string version_content = layout_.VersionContent(at.folder, at.name, plan.label);
  // The working copy's content file: where it is now, and where the change has it once
  // its rename (if any) is applied.
  const std::string pwc_now = layout_.PwcContent(doc.folder, doc.name);
  const std::string pwc_at = layout_.PwcContent(at.folder, at.name);
  switch (plan.content) {
    case NewContent::kNone: break;
    case NewContent::kFromRequest: {
      if (!content) return RuntimeError("check-in planned with content but staged without");
      FOLIO_ASSIGN_OR_RETURN(ContentInfo info, staging_.StageContent(change, version_content, *content, plan.name));
      rec.content = info;
      break;
    }
    case NewContent::kWorkingCopyRenamed:
      change.Rename(pwc_at, version_content, storage::Guard::Inode(*in.pwc_content));
      break;
    case NewContent::kWorkingCopyCopied:
      // The copy's bytes are read when the change is prepared, before its renames.
      change.Copy(version_content, pwc_now);
      change.Remove(pwc_at, storage::Guard::Inode(*in.pwc_content));
      break;
  }
  change.PutJson(layout_.VersionProps(at.folder, at.name, plan.label), ToJson(rec));
  change.Remove(layout_.PwcProps(at.folder, at.name));
  for (const auto& [label, r] : plan.rewritten) {
    change.PutJson(layout_.VersionProps(at.folder, at.name, label), ToJson(r));
  }
  if (plan.content == NewContent::kFromRequest && in.pwc.content) {
    change.Remove(pwc_at, storage::Guard::Inode(*in.pwc_content));
  }
  SeriesRecord series = plan.series;
  versions_.ArchiveOldest(change, at.folder, at.name, series);
  // The version checked in before is an earlier one now: the visible file becomes
  // another inode (Rule V4).
  staging_.StageVisibleAndSeries(change, at, plan.content == NewContent::kNone ? "" : version_content,
                                 storage::Guard::None(), series);
  FOLIO_RETURN_IF_ERROR(staging_.StageCheckedOutMarker(change, series.series_id, false));
  for (const storage::ChangeEvent& e : plan.events) change.Record(e);
  return at;
}

}  // namespace folio::repo::versions
