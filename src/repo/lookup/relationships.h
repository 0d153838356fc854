// The relationships of an object. They are filed in no folder: each is a record in the
// repository's relationships directory (docs/STORAGE.md §5), so listing them reads that
// directory and keeps those with the object at the asked end.
#pragma once

#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/status.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::lookup {

// Uses: fs, layout, locator, builder.
class Relationships {
 public:
  explicit Relationships(Engine& engine) : engine_(engine) {}

  // The relationships whose source (or target, or either) is `id`, by relationship id.
  // A document's relationships are those of its series: any of its versions (or its
  // series id) at the relationship's end counts. Errors: kObjectNotFound.
  Result<std::vector<ObjectData>> Of(const std::string& id, RelationshipDirection direction);
  // Every relationship, by id.
  Result<std::vector<ObjectData>> All();

 private:
  Result<std::vector<std::string>> Ids();

  Engine& engine_;
};

}  // namespace folio::repo::lookup
