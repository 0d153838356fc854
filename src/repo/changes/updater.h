// Changing an object in place: its properties (a new name renames it) and a document's
// content. None of these makes a version; while a document is checked out, a change
// addressed to the document (its path or series id) goes to its working copy.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::storage {
class ChangeSet;
}

namespace folio::repo {
class Engine;
struct SeriesRecord;
}  // namespace folio::repo

namespace folio::repo::changes {

// Uses: layout, committer, locator, records, versions, types, staging, relocation, builder.
class Updater {
 public:
  explicit Updater(Engine& engine) : engine_(engine) {}

  // Sets the given properties (canonical ids; null unsets); a new "cmis:name" renames
  // (the file or directory too, through changes::Relocation, whose limits are checked
  // before anything is staged). Errors: kConstraint naming a read-only property or the
  // root folder; kInvalidArgument naming an unknown one; kNameConstraintViolation for a
  // bad or taken name; kObjectNotFound. Every change here also fails with `check`'s
  // error (WriteCheck, folio/repository.h: the object changed is its kObject), checked
  // inside the change.
  Result<ObjectData> UpdateProperties(const std::string& id, const Json& changes, const std::string& user,
                                      const WriteCheck& check);
  // Replaces (or, with nullopt, removes) a document's content. Errors:
  // kContentAlreadyExists if it has content and !overwrite; kConstraint for a
  // non-document or content a type requires; kStreamNotSupported for content a type
  // forbids.
  Result<ObjectData> SetContent(const std::string& id, const std::optional<ContentSource>& content, bool overwrite,
                                const std::string& user, const WriteCheck& check);
  // Sets the ACL of `id` to `change(its ACL as this change finds it)` (docs/API.md §11): of a document, of every version of
  // its series and its working copy (a version series shares one ACL). Nothing else
  // changes (no property, no change token); the change log records a "security" event.
  // An ACL equal to the current one writes nothing. With `below`, a folder's change
  // also reaches every object below it (each document's series whole, each object's
  // own ACL given to `change`), in the same change, a "security" event for each object
  // whose ACL changed; `check` is asked about each of them as a kBelow. Errors:
  // kObjectNotFound; `check`'s first error; kStorage naming a record below that
  // cannot be read (then nothing changes).
  using AclChange = std::function<std::vector<Ace>(const std::vector<Ace>& current)>;
  Result<ObjectData> ChangeAcl(const std::string& id, const AclChange& change, const WriteCheck& check,
                               bool below = false);
  // Gives every ACL of the repository (the tree from the root folder, relationships
  // too) to `change`, as one change with a "security" event per object whose ACL
  // changed. Returns how many changed. Errors: kStorage (nothing changes).
  Result<size_t> ChangeEveryAcl(const AclChange& change);

 private:
  struct AclObject;
  // The records and event of the document `name` in `folder`.
  Result<AclObject> DocumentAclObject(const std::string& folder, const std::string& name, const SeriesRecord& series);
  // Appends every object below `folder` (not the folder itself), depth first.
  Status CollectAclObjects(const std::string& folder, std::vector<AclObject>& out);
  // Stages `object`'s new ACL (and its event) if it differs; asks `below` (when given
  // and not empty) first. Returns whether it changed.
  Result<bool> StageAcl(storage::ChangeSet& change, const AclObject& object, const AclChange& acl_change,
                        const WriteCheck* below);
  // A document target without a label means the document; while it is checked out,
  // changes to it go to its working copy. An adopted document is checked with `check`
  // before it is given its files (Locator::ResolveIdToChange).
  Result<lookup::Target> WriteTarget(const std::string& id, const WriteCheck& check);

  Engine& engine_;
};

}  // namespace folio::repo::changes
