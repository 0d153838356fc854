// Moves; see mover.h.
#include "repo/changes/mover.h"

#include "folio/cmis_ids.h"
#include "repo/changes/relocation.h"
#include "repo/changes/staging.h"
#include "repo/changes/write_check.h"
#include "repo/engine.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "repo/lookup/record_reader.h"
#include "storage/committer.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"

namespace folio::repo::changes {

Result<ObjectData> Mover::Move(const std::string& id, const std::string& target_folder_id,
                               const std::string& source_folder_id, const std::string& user,
                               const WriteCheck& check) {
  (void)user;
  lookup::Target out;
  FOLIO_RETURN_IF_ERROR(engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    // The object, the folder it leaves (with its id) and the folder it goes to.
    auto allowed = [&](const lookup::Target& found, const std::string& parent_id, const lookup::Loc& target) -> Status {
      const std::string parent = found.loc.ParentFolder();
      FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kObject, engine_.builder, found));
      FOLIO_RETURN_IF_ERROR(CheckWrite(check, WriteRole::kSource, engine_.builder,
                                       lookup::Loc{BaseType::kFolder, parent_id, parent, storage::BaseName(parent)}));
      return CheckWrite(check, WriteRole::kTarget, engine_.builder, target);
    };
    // Asked of an adopted document before it is given its files.
    auto allowed_as_found = [&](const lookup::Target& found) -> Status {
      FOLIO_ASSIGN_OR_RETURN(lookup::Loc target, engine_.locator.LocateFolder(target_folder_id));
      FOLIO_ASSIGN_OR_RETURN(std::string parent_id, engine_.locator.FolderIdAt(found.loc.ParentFolder()));
      return allowed(found, parent_id, target);
    };
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveIdToChange(id, allowed_as_found));
    out = t;
    const lookup::Loc& loc = t.loc;
    if (loc.base == BaseType::kRelationship) return Constraint("relationships are not filed in folders");
    FOLIO_ASSIGN_OR_RETURN(lookup::Loc target, engine_.locator.LocateFolder(target_folder_id));
    const std::string from_folder = loc.ParentFolder();
    if (loc.base == BaseType::kFolder && loc.folder.empty()) return Constraint("the root folder cannot be moved");
    FOLIO_ASSIGN_OR_RETURN(std::string current_parent_id, engine_.locator.FolderIdAt(from_folder));
    if (!source_folder_id.empty() && source_folder_id != current_parent_id) {
      return InvalidArgument("object '" + id + "' is not in folder '" + source_folder_id + "' (sourceFolderId)");
    }
    FOLIO_RETURN_IF_ERROR(allowed(t, current_parent_id, target));
    if (target.folder == from_folder) return OkStatus();  // already there: nothing changes
    FOLIO_ASSIGN_OR_RETURN(lookup::Loc moved,
                           engine_.relocation.Stage(change, loc, {target.folder, target.id, loc.name}));
    out.loc.folder = moved.folder;
    std::string event_id = loc.id, type_id;
    if (loc.base == BaseType::kFolder) {
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(engine_.layout.FolderFile(loc.folder)));
      type_id = StoredTypeId(rec.properties, BaseType::kFolder);
    } else if (loc.base == BaseType::kItem) {
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec,
                             engine_.records.ReadRecord(engine_.layout.ItemFile(loc.folder, loc.name)));
      type_id = StoredTypeId(rec.properties, BaseType::kItem);
    } else {
      // The event names the latest version (its working copy before the first check-in),
      // as the other changes of a document do, so that a client following the log can
      // match it with the object it has.
      FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(loc.folder, loc.name));
      FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadDocumentRecord(loc.folder, loc.name, series));
      type_id = StoredTypeId(rec.properties, BaseType::kDocument);
      event_id = series.versions.empty() ? storage::PwcId(loc.id) : storage::VersionId(loc.id, series.versions.back());
    }
    change.Record(Event("updated", event_id, loc.base, type_id));
    return OkStatus();
  }));
  out.loc.record.reset();
  out.loc.visible.reset();
  if (out.loc.base == BaseType::kDocument) {
    FOLIO_ASSIGN_OR_RETURN(lookup::Target fresh, engine_.locator.DocumentTarget(out.loc.folder, out.loc.name));
    fresh.label = out.label;
    fresh.pwc = out.pwc;
    return engine_.builder.Build(fresh);
  }
  return engine_.builder.Build(out);
}

}  // namespace folio::repo::changes
