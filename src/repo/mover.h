// Moving an object to another folder (ids kept): one change renames its directory, or a
// document's visible file and series directory, and rewrites its index entry.
#pragma once

#include <string>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/location.h"

namespace folio::storage {
class Committer;
}

namespace folio::repo {

class Listings;
class RecordReader;
class Locator;
class ObjectBuilder;
class Staging;

class Mover {
 public:
  Mover(Fs& fs, const storage::RepoLayout& layout, storage::Committer& committer, Locator& locator,
        Listings& listings, RecordReader& records, Staging& staging, ObjectBuilder& builder)
      : fs_(fs), layout_(layout), committer_(committer), locator_(locator), listings_(listings), records_(records),
        staging_(staging), builder_(builder) {}

  // Moves `id` into `target_folder_id`. `source_folder_id`, when not empty, must be its
  // current parent. Errors: kInvalidArgument (not the parent; target not a folder);
  // kConstraint for the root folder, a folder into itself or below itself, or a
  // relationship; kNameConstraintViolation when the target holds the name; `check`'s
  // error (WriteCheck, folio/repository.h: the object, its folder and the target folder
  // are its kObject, kSource and kTarget).
  Result<ObjectData> Move(const std::string& id, const std::string& target_folder_id,
                          const std::string& source_folder_id, const std::string& user, const WriteCheck& check);

 private:
  Fs& fs_;
  const storage::RepoLayout& layout_;
  storage::Committer& committer_;
  Locator& locator_;
  Listings& listings_;
  RecordReader& records_;
  Staging& staging_;
  ObjectBuilder& builder_;
};

}  // namespace folio::repo
