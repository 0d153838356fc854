// The relationships of an object. They are filed in no folder: each is a record in the
// repository's relationships directory (docs/STORAGE.md §5), so listing them reads that
// directory and keeps those with the object at the asked end.
#include <algorithm>

#include "repo/repo_impl.h"
#include "storage/ids.h"
#include "storage/layout.h"

namespace folio::repo {
namespace {

constexpr std::string_view kSuffix = ".json";

// The indexed id an end of a relationship stands for: a document version's or working
// copy's series, or the object itself.
std::string EndBase(const Json& end) {
  if (!end.is_string()) return "";
  auto parsed = storage::ParseObjectId(end.get_ref<const std::string&>());
  return parsed ? parsed->base : "";
}

}  // namespace

Result<std::vector<ObjectData>> RepoImpl::Relationships(const std::string& id, RelationshipDirection direction) {
  FOLIO_ASSIGN_OR_RETURN(Target target, ResolveId(id));
  const std::string& base = target.loc.id;
  std::vector<ObjectData> out;
  auto entries = fs_.List(layout_.RelationshipsDir());
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return out;
    return entries.status();
  }
  std::vector<std::string> ids;
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kFile || storage::IsReservedName(e.name) || storage::IsTempName(e.name) ||
        e.name.size() <= kSuffix.size() || !e.name.ends_with(kSuffix)) {
      continue;
    }
    ids.push_back(e.name.substr(0, e.name.size() - kSuffix.size()));
  }
  std::sort(ids.begin(), ids.end());
  for (const std::string& rid : ids) {
    auto rel = ResolveId(rid);
    if (!rel.ok() || rel->loc.base != BaseType::kRelationship) continue;  // not indexed: fsck reports it
    FOLIO_ASSIGN_OR_RETURN(ObjectData o, Build(*rel));
    const bool source = EndBase(o.properties.value("cmis:sourceId", Json())) == base;
    const bool target_end = EndBase(o.properties.value("cmis:targetId", Json())) == base;
    const bool wanted = direction == RelationshipDirection::kSource   ? source
                        : direction == RelationshipDirection::kTarget ? target_end
                                                                      : source || target_end;
    if (wanted) out.push_back(std::move(o));
  }
  return out;
}

}  // namespace folio::repo
