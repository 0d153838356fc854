// Moving an object to another folder (ids kept): moveObject's checks and event; the
// files and the index entry are staged by changes::Relocation (repo/changes/relocation.h).
#pragma once

#include <string>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::changes {

// Uses: layout, committer, locator, records, relocation, builder.
class Mover {
 public:
  explicit Mover(Engine& engine) : engine_(engine) {}

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
  Engine& engine_;
};

}  // namespace folio::repo::changes
