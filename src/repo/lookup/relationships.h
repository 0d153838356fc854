// The relationships of an object. They are filed in no folder: each is a record in the
// repository's relationships directory (docs/STORAGE.md §5), so listing them reads that
// directory and keeps those with the object at the asked end.
#pragma once

#include <string>
#include <vector>

#include "folio/object.h"
#include "storage/layout.h"

namespace folio::repo::lookup {

class Locator;
class ObjectBuilder;

class Relationships {
 public:
  Relationships(Fs& fs, const storage::RepoLayout& layout, Locator& locator, ObjectBuilder& builder)
      : fs_(fs), layout_(layout), locator_(locator), builder_(builder) {}

  // The relationships whose source (or target, or either) is `id`, by relationship id.
  // A document's relationships are those of its series: any of its versions (or its
  // series id) at the relationship's end counts. Errors: kObjectNotFound.
  Result<std::vector<ObjectData>> Of(const std::string& id, RelationshipDirection direction);
  // Every relationship, by id.
  Result<std::vector<ObjectData>> All();

 private:
  Result<std::vector<std::string>> Ids();

  Fs& fs_;
  const storage::RepoLayout& layout_;
  Locator& locator_;
  ObjectBuilder& builder_;
};

}  // namespace folio::repo::lookup
