// Creating folders, documents, items and relationships. Each creation is one change:
// the new directory or file, its record, its index entry and its change-log event
// appear together.
#pragma once

#include <optional>
#include <string>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"
#include "repo/types/types.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::changes {

// Uses: layout, committer, locator, listings, types, staging, builder.
class Creator {
 public:
  explicit Creator(Engine& engine) : engine_(engine) {}

  // Errors (all): kObjectNotFound if the parent does not exist; kInvalidArgument if it
  // is not a folder or the type does not exist or is of another base type;
  // kNameConstraintViolation for a bad or taken name; kConstraint for properties the
  // type does not allow (naming them), or a type that is not creatable;
  // kPermissionDenied on a read-only repository, or `check`'s error (WriteCheck,
  // folio/repository.h; the parent folder is its kObject, a relationship's ends its
  // kSource and kTarget); kStorage.
  Result<ObjectData> CreateFolder(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                  const WriteCheck& check);
  // `state` kMajor -> 1.0, kMinor -> 0.1, kCheckedOut -> the working copy of a series
  // with no version yet, kNone -> an unversioned document. Also kStreamNotSupported for
  // content a type forbids, kConstraint for content a type requires but is missing.
  Result<ObjectData> CreateDocument(const std::string& parent_id, const NewObject& obj,
                                    const std::optional<ContentSource>& content, VersioningState state,
                                    const std::string& user, const WriteCheck& check);
  Result<ObjectData> CreateItem(const std::string& parent_id, const NewObject& obj, const std::string& user,
                                const WriteCheck& check);
  // `obj.properties` must hold "cmis:sourceId" and "cmis:targetId" of existing objects.
  Result<ObjectData> CreateRelationship(const NewObject& obj, const std::string& user, const WriteCheck& check);

 private:
  struct Filed;
  // Also runs `check` on the parent folder (WriteRole::kObject).
  Result<Filed> PrepareFiled(const std::string& parent_id, const NewObject& obj, BaseType base, char id_prefix,
                             const std::string& user, const WriteCheck& check);

  Engine& engine_;
};

// The type to create: `requested` (or the base type's own), which must be a creatable
// type of `base`. Errors: kInvalidArgument (unknown type, other base), kConstraint.
Result<types::TypeDef> CreatableType(types::TypeRegistry& types, const std::string& requested, BaseType base);
// Stored properties of a new object of `type`: the system ones plus the validated
// input, which may add secondary types (cmis:secondaryObjectTypeIds) and set their
// properties. Errors: those of types::GivenSecondaryTypeIds, types::WithSecondaryTypes,
// types::NormalizeProperties and types::CheckRequired.
Result<Json> InitialProperties(types::TypeRegistry& types, const types::TypeDef& type, const Json& input,
                               const std::string& user, int64_t now);

}  // namespace folio::repo::changes
