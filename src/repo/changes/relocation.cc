// Moving or renaming an object; see relocation.h.
#include "repo/changes/relocation.h"

#include "repo/changes/staging.h"
#include "repo/engine.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/lookup/listings.h"
#include "storage/id_index.h"
#include "storage/ids.h"

namespace folio::repo::changes {

Status Relocation::Check(const lookup::Loc& object, const Destination& to) {
  if (object.base == BaseType::kFolder &&
      (to.folder == object.folder || to.folder.rfind(object.folder + "/", 0) == 0)) {
    return Constraint("folder '/" + object.folder + "' cannot be moved into itself or below itself");
  }
  FOLIO_RETURN_IF_ERROR(engine_.listings.CheckNameFree(to.folder, to.name));
  if (object.base == BaseType::kFolder) {
    FOLIO_RETURN_IF_ERROR(engine_.listings.CheckTreeFits(object.folder, to.folder, to.name));
  }
  return OkStatus();
}

Result<lookup::Loc> Relocation::Stage(storage::ChangeSet& change, const lookup::Loc& object, const Destination& to,
                                      VisibleFile visible) {
  if (object.base == BaseType::kRelationship || (object.base == BaseType::kFolder && object.folder.empty())) {
    return RuntimeError("relocation of '" + object.id + "': neither a relationship nor the root folder can be relocated");
  }
  FOLIO_RETURN_IF_ERROR(Check(object, to));
  const std::string new_path = storage::JoinPath(to.folder, to.name);
  const bool other_folder = to.folder != object.ParentFolder();
  switch (object.base) {
    case BaseType::kFolder:
      FOLIO_RETURN_IF_ERROR(hand_edits::StageFolderMarkerRemoval(change, engine_.fs, engine_.layout, object.folder));
      change.Rename(engine_.layout.Dir(object.folder), engine_.layout.Dir(new_path),
                    storage::Guard::RecordId(storage::FolderFileInDir(), "id", object.id));
      storage::StageIndexEntry(change, engine_.layout, object.id, {"folder", to.folder_id, to.name, new_path});
      FOLIO_RETURN_IF_ERROR(hand_edits::StageFolderMarker(change, engine_.staging, new_path, object.id));
      return lookup::Loc{BaseType::kFolder, object.id, new_path, to.name};
    case BaseType::kItem:
      if (other_folder) FOLIO_RETURN_IF_ERROR(engine_.staging.StageFolderMeta(change, to.folder, true));
      change.Rename(engine_.layout.ItemDir(object.folder, object.name), engine_.layout.ItemDir(to.folder, to.name),
                    storage::Guard::RecordId(std::string(storage::kItemFileName), "id", object.id));
      storage::StageIndexEntry(change, engine_.layout, object.id, {"item", to.folder_id, to.name, new_path});
      return lookup::Loc{BaseType::kItem, object.id, to.folder, to.name};
    case BaseType::kDocument: {
      if (other_folder) FOLIO_RETURN_IF_ERROR(engine_.staging.StageFolderMeta(change, to.folder, false));
      const std::string shown = engine_.layout.Child(object.folder, object.name);
      FOLIO_ASSIGN_OR_RETURN(FileStat st, engine_.fs.Stat(shown));
      if (visible == VisibleFile::kMoved) {
        change.Rename(shown, engine_.layout.Child(to.folder, to.name), storage::Guard::Inode(st));
      } else {
        change.Remove(shown, storage::Guard::Inode(st));
      }
      change.Rename(engine_.layout.SeriesDir(object.folder, object.name), engine_.layout.SeriesDir(to.folder, to.name),
                    storage::Guard::RecordId(std::string(storage::kSeriesFileName), "seriesId", object.id));
      storage::StageIndexEntry(change, engine_.layout, object.id, {"document", to.folder_id, to.name, new_path});
      return lookup::Loc{BaseType::kDocument, object.id, to.folder, to.name};
    }
    case BaseType::kRelationship: break;
  }
  return RuntimeError("relocation of '" + object.id + "': unknown base type");
}

}  // namespace folio::repo::changes
