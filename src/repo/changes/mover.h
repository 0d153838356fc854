// Moving an object to another folder (ids kept): moveObject's checks and event; the
// files and the index entry are staged by changes::Relocation (repo/changes/relocation.h).
#pragma once

#include <string>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::storage {
class Committer;
}

namespace folio::repo::lookup {
class Locator;
class ObjectBuilder;
class RecordReader;
}  // namespace folio::repo::lookup

namespace folio::repo::changes {

class Relocation;

class Mover {
 public:
  Mover(const storage::RepoLayout& layout, storage::Committer& committer, lookup::Locator& locator,
        lookup::RecordReader& records, Relocation& relocation, lookup::ObjectBuilder& builder)
      : layout_(layout), committer_(committer), locator_(locator), records_(records), relocation_(relocation),
        builder_(builder) {}

  // Moves `id` into `target_folder_id`. `source_folder_id`, when not empty, must be its
  // current parent. Errors: kInvalidArgument (not the parent; target not a folder);
  // kConstraint for the root folder, a folder into itself or below itself, or a
  // relationship; kNameConstraintViolation when the target holds the name; the other
  // limits of Relocation::Check (checked before anything is staged); `check`'s
  // error (WriteCheck, folio/repository.h: the object, its folder and the target folder
  // are its kObject, kSource and kTarget).
  Result<ObjectData> Move(const std::string& id, const std::string& target_folder_id,
                          const std::string& source_folder_id, const std::string& user, const WriteCheck& check);

 private:
  const storage::RepoLayout& layout_;
  storage::Committer& committer_;
  lookup::Locator& locator_;
  lookup::RecordReader& records_;
  Relocation& relocation_;
  lookup::ObjectBuilder& builder_;
};

}  // namespace folio::repo::changes
