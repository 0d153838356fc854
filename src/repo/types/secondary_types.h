// Secondary types on objects (docs/API.md §6.6): the ids an object lists in
// cmis:secondaryObjectTypeIds, and the type an object's properties are checked
// against: its own type with the properties of each secondary type added.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "folio/object.h"
#include "repo/changes/staging.h"
#include "repo/types/types.h"

namespace folio::repo::types {

// The CMIS base type id of `type`: its definition's baseId ("cmis:secondary" for a
// secondary type, whose `base` is kItem).
std::string BaseIdOf(const TypeDef& type);

// Whether `type` is cmis:secondary or a subtype: never the type of an object; its
// properties are added to the objects that list it in cmis:secondaryObjectTypeIds.
bool IsSecondaryType(const TypeDef& type);

// Staging::StageTypeUsage for `type_id` and for each secondary type `properties` lists.
Status StageTypeUsages(changes::Staging& staging, storage::ChangeSet& change, const std::string& type_id,
                       const Json& properties, const std::string& object_id);

// The secondary type ids `properties` (stored or in-memory form) lists, in order; none
// when cmis:secondaryObjectTypeIds is absent, null or not a list of strings.
std::vector<std::string> StoredSecondaryTypeIds(const Json& properties);

// The ids a request gives as the value of cmis:secondaryObjectTypeIds (null, one id or a
// list of ids), in order and without repeats. Errors: kInvalidArgument naming the
// property when a value is not a string or is empty.
Result<std::vector<std::string>> GivenSecondaryTypeIds(const Json& value);

// `primary` with the property definitions of the secondary types `ids` added (`primary`
// itself when `ids` is empty). With `strict`, every id must name a secondary type: an
// unknown id, or one of a type that is not secondary, is kInvalidArgument naming it;
// without it (ids read from a record, which a hand edit may have left stale) such ids
// are skipped. Errors: kConstraint naming a property that a secondary type defines and
// the primary type or another of `ids` defines too; kStorage.
Result<std::shared_ptr<const TypeDef>> WithSecondaryTypes(TypeRegistry& types,
                                                          std::shared_ptr<const TypeDef> primary,
                                                          const std::vector<std::string>& ids, bool strict);

// Converts the datetime values of the secondary types `properties` lists from stored
// form to memory form (StoredToMemory for those types); unknown ids are skipped.
Json SecondaryStoredToMemory(TypeRegistry& types, Json&& properties);

// Sets cmis:secondaryObjectTypeIds of `stored` to `ids` (removed when empty) and removes
// the properties that `before` has and `after` does not (those of secondary types
// taken off the object).
void ApplySecondaryTypes(Json& stored, const std::vector<std::string>& ids, const TypeDef& before,
                         const TypeDef& after);

// CheckRequired for each secondary type `stored` lists (naming it), then for `rules`
// (the object's type with them).
Status CheckRequiredWithSecondaryTypes(TypeRegistry& types, const TypeDef& rules, const Json& stored);

// The rules for changing an object whose stored properties are `stored`: `before` (its
// type with the secondary types it lists) and `after` (with those the change leaves it).
struct SecondaryChange {
  std::shared_ptr<const TypeDef> before;
  std::shared_ptr<const TypeDef> after;
  bool listed = false;             // the change gives cmis:secondaryObjectTypeIds
  std::vector<std::string> ids;    // with `listed`: the secondary types it gives
};

// Takes cmis:secondaryObjectTypeIds out of `changes` (if there) and returns the rules
// before and after the change; the caller checks the rest of `changes` against
// `after`, then calls ApplySecondaryTypes when `listed`. Errors: those of
// GivenSecondaryTypeIds and WithSecondaryTypes.
Result<SecondaryChange> PlanSecondaryChange(TypeRegistry& types, std::shared_ptr<const TypeDef> primary,
                                            const Json& stored, Json& changes);

}  // namespace folio::repo::types
