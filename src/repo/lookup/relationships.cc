// Relationship lists; see relationships.h.
#include "repo/lookup/relationships.h"

#include <algorithm>

#include "folio/cmis_ids.h"
#include "repo/engine.h"
#include "repo/lookup/locator.h"
#include "repo/lookup/object_builder.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/layout.h"

namespace folio::repo::lookup {
namespace {

// The indexed id an end of a relationship stands for: a document version's or working
// copy's series, or the object itself.
std::string EndBase(const storage::Json& properties, const char* end) {
  auto id = storage::StringField(properties, end);
  if (!id) return "";
  auto parsed = storage::ParseObjectId(*id);
  return parsed ? parsed->base : "";
}

}  // namespace

Result<std::vector<std::string>> Relationships::Ids() {
  std::vector<std::string> ids;
  auto entries = engine_.fs.List(engine_.layout.RelationshipsDir());
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return ids;
    return entries.status();
  }
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kFile) continue;
    if (auto id = storage::IdOfRecordFileName(e.name)) ids.push_back(std::move(*id));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<std::vector<ObjectData>> Relationships::All() {
  FOLIO_ASSIGN_OR_RETURN(std::vector<std::string> ids, Ids());
  std::vector<ObjectData> out;
  for (const std::string& rid : ids) {
    auto rel = engine_.locator.ResolveId(rid);
    if (!rel.ok() || rel->loc.base != BaseType::kRelationship) continue;  // not indexed: fsck reports it
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, engine_.builder.Build(*rel));
    out.push_back(std::move(o));
  }
  return out;
}

Result<std::vector<ObjectData>> Relationships::Of(const std::string& id, RelationshipDirection direction) {
  FOLIO_ASSIGN_OR_RETURN(Target target, engine_.locator.ResolveId(id));
  const std::string& base = target.loc.id;
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> all, All());
  std::vector<ObjectData> out;
  for (ObjectData& o : all) {
    const bool source = EndBase(o.properties, cmis::kSourceId) == base;
    const bool target_end = EndBase(o.properties, cmis::kTargetId) == base;
    const bool wanted = direction == RelationshipDirection::kSource   ? source
                        : direction == RelationshipDirection::kTarget ? target_end
                                                                      : source || target_end;
    if (wanted) out.push_back(std::move(o));
  }
  return out;
}

}  // namespace folio::repo::lookup
