// Whether a custom type has objects; see type_usage.h.
#include "repo/types/type_usage.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "repo/engine.h"
#include "repo/types/secondary_types.h"

namespace folio::repo::types {
namespace {

// Whether `object` is of type `type_id` or lists it as a secondary type.
bool HasType(const ObjectData& object, const std::string& type_id) {
  if (object.type_id == type_id) return true;
  const std::vector<std::string> secondary = StoredSecondaryTypeIds(object.properties);
  return std::find(secondary.begin(), secondary.end(), type_id) != secondary.end();
}

// Stops a tree walk at the first object of the type.
class FindType : public TreeVisitor {
 public:
  // `check_versions` tells of a document without the type whether a version of it has
  // it (kConstraint).
  FindType(const std::string& type_id, std::function<Status(const ObjectData&)> check_versions)
      : type_id_(type_id), check_versions_(std::move(check_versions)) {}
  Status Enter(const ObjectData& object, int64_t) override {
    if (HasType(object, type_id_)) {
      found = object;
      return Constraint("found");  // stops the walk; CheckUnused reports `found`
    }
    if (object.base == BaseType::kDocument) {
      // An earlier version may have it still.
      Status versions = check_versions_(object);
      if (versions.kind() == ErrorKind::kConstraint) {
        in_use = versions;
        return Constraint("found");
      }
      return versions;
    }
    return OkStatus();
  }
  Status Leave() override { return OkStatus(); }
  std::optional<ObjectData> found;
  std::optional<Status> in_use;  // what check_versions_ found

 private:
  const std::string& type_id_;
  std::function<Status(const ObjectData&)> check_versions_;
};

}  // namespace

Status TypeUsage::InUse(const std::string& type_id, const ObjectData& object) {
  const std::string where = object.path.empty() ? "" : " at '/" + object.path + "'";
  const bool secondary = object.type_id != type_id;
  return Constraint("type '" + type_id + "' cannot be deleted while objects " + (secondary ? "that have" : "of") +
                    " it exist, such as '" + object.id + "'" + where);
}

Status TypeUsage::CheckUnused(const std::string& type_id, bool has_markers) {
  if (!has_markers) return ScanEverything(type_id);
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> markers, engine_.fs.List(engine_.layout.TypeUsageDir(type_id)));
  for (const DirEntry& m : markers) {
    if (m.type != FileType::kFile || storage::IsTempName(m.name)) continue;
    auto target = engine_.locator.ResolveId(m.name);
    if (!target.ok()) {
      if (target.status().kind() == ErrorKind::kObjectNotFound) continue;  // deleted since
      return target.status();
    }
    auto object = engine_.builder.Build(*target);
    if (!object.ok()) {
      if (object.status().kind() == ErrorKind::kObjectNotFound) continue;
      return object.status();
    }
    if (HasType(*object, type_id)) return InUse(type_id, *object);
    if (object->base == BaseType::kDocument) FOLIO_RETURN_IF_ERROR(AnyVersionUses(type_id, *target));
  }
  return OkStatus();
}

Status TypeUsage::AnyVersionUses(const std::string& type_id, const lookup::Target& t) {
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(t.loc));
  return engine_.builder.BuildAllVersions(t.loc, series, false, [&](ObjectData&& version) -> Status {
    if (HasType(version, type_id)) return InUse(type_id, version);
    return OkStatus();
  });
}

Status TypeUsage::ScanEverything(const std::string& type_id) {
  FindType finder(type_id, [&](const ObjectData& document) -> Status {
    FOLIO_ASSIGN_OR_RETURN(lookup::Target t, engine_.locator.ResolveId(document.series_id));
    return AnyVersionUses(type_id, t);
  });
  TreeRequest all;  // depth -1, every object, no limit
  Status walked = engine_.tree.Visit(engine_.info.root_folder_id, all, finder).status();
  if (finder.found) return InUse(type_id, *finder.found);
  if (finder.in_use) return *finder.in_use;
  FOLIO_RETURN_IF_ERROR(walked);
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> relationships, engine_.relationships.All());
  for (const ObjectData& r : relationships) {
    if (HasType(r, type_id)) return InUse(type_id, r);
  }
  return OkStatus();
}

}  // namespace folio::repo::types
