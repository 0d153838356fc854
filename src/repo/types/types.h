// Object types: the built-in CMIS base types (docs/API.md §6.1, §4.5) and custom
// types stored as JSON files in R/.folio/types/. Property definitions drive validation
// (updatability, value types) and the stored form of datetimes.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "folio/object.h"
#include "folio/repository.h"
#include "storage/layout.h"

namespace folio::storage {
class Committer;
}

namespace folio::repo::types {

enum class PropertyType { kString, kBoolean, kId, kInteger, kDecimal, kDateTime, kUri, kHtml };
enum class Updatability { kReadOnly, kReadWrite, kWhenCheckedOut, kOnCreate };

struct PropertyDef {
  std::string id;
  PropertyType type = PropertyType::kString;
  bool multi = false;
  Updatability updatability = Updatability::kReadWrite;
  bool required = false;
};

struct TypeDef {
  std::string id;
  std::string parent_id;  // "" for base types
  BaseType base = BaseType::kDocument;
  bool versionable = false;
  std::string content_stream_allowed = "allowed";  // documents: notallowed | allowed | required
  bool creatable = true;
  std::map<std::string, PropertyDef> properties;  // own and inherited
  Json json;  // the CMIS type JSON (with propertyDefinitions)
};

std::string_view PropertyTypeName(PropertyType t);
std::optional<PropertyType> ParsePropertyType(std::string_view name);

// The built-in types: cmis:document, cmis:folder, cmis:item, cmis:relationship,
// cmis:policy, cmis:secondary. nullopt for other ids.
std::shared_ptr<const TypeDef> BuiltInType(std::string_view id);
const std::vector<std::string>& BuiltInTypeIds();

class TypeRegistry {
 public:
  // `committer` may be null for a reader (fsck): Create and Delete are then refused.
  TypeRegistry(Fs& fs, const storage::RepoLayout& layout, storage::Committer* committer = nullptr)
      : fs_(fs), layout_(layout), committer_(committer) {}
  // kObjectNotFound naming the id if no such type; kStorage if its file is unreadable.
  // Shared and immutable: built-in types are made once; custom ones are rebuilt only
  // when their file changes.
  Result<std::shared_ptr<const TypeDef>> Get(const std::string& id);
  // The property definitions of type `id` with their index, built once per version of
  // the type (a custom type rebuilt from a changed file gets a new one). Errors: those
  // of Get.
  Result<std::shared_ptr<const PropertyDefinitionIndex>> Definitions(const std::string& id);
  // Type JSONs whose parent is `parent_id` ("" -> the base types).
  Result<std::vector<Json>> Children(const std::string& parent_id);
  // Validates and stores a custom type (one change) with the attributes the definition
  // gives; those it leaves out take the parent's values (queryName and localName, of the
  // type and of its properties: the id). Returns its JSON with inherited definitions.
  // Errors: kInvalidArgument for a malformed definition (naming what);
  // kContentAlreadyExists if the id is taken; kConstraint if its parent is unknown, or
  // naming an attribute Folio cannot honour (fileable, controllableACL or
  // controllablePolicy other than the base type's, fulltextIndexed on a type that is
  // not a document's, an orderable multi-valued property, choices, defaultValue,
  // limits of values).
  // `allowed` (when given) runs first inside every change below, while no other writer
  // runs: what refuses the change (the caller's permission), nothing written then.
  Result<Json> Create(const Json& definition, const std::function<Status()>& allowed = {});
  // Changes custom type `definition.id`: its display attributes (displayName,
  // description, localName, localNamespace, also of its own property definitions) and
  // new optional property definitions; attributes equal to the stored ones (a type read
  // back and sent again) are accepted as they are. One change. Errors: kObjectNotFound
  // for an unknown type; kConstraint for a built-in type, one whose
  // typeMutability.update is false, any other attribute changed, a new property that is
  // required, or an inherited property changed (each naming the attribute);
  // kInvalidArgument for a malformed definition or new property (as Create).
  Result<Json> Update(const Json& definition, const std::function<Status()>& allowed = {});
  // Removes custom type `id` (one change) after `check_unused`, run while the change
  // is staged (no object can be created meanwhile) with whether the type keeps usage
  // markers, says no object of it exists. Errors: kConstraint for a built-in type or
  // one with subtypes (naming one); kObjectNotFound; those of `check_unused`.
  Status Delete(const std::string& id, const std::function<Status(bool has_markers)>& check_unused,
                const std::function<Status()>& allowed = {});

 private:
  Result<std::shared_ptr<const TypeDef>> Load(const std::string& id, int depth);

  Fs& fs_;
  const storage::RepoLayout& layout_;
  storage::Committer* committer_;
  std::mutex mu_;
  // Custom types built from their file, keyed by id; valid while the file is unchanged.
  std::map<std::string, std::pair<FileStat, std::shared_ptr<const TypeDef>>> custom_;
  // Definitions() by type id, with the TypeDef they were built from (guarded by mu_).
  std::map<std::string, std::pair<std::shared_ptr<const TypeDef>, std::shared_ptr<const PropertyDefinitionIndex>>>
      definitions_;
};

}  // namespace folio::repo::types
