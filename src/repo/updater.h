// Changing an object in place: its properties (a new name renames it) and a document's
// content. None of these makes a version; while a document is checked out, a change
// addressed to the document (its path or series id) goes to its working copy.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/location.h"
#include "repo/types.h"

namespace folio::storage {
class Committer;
}

namespace folio::repo {

class Listings;
class Locator;
class ObjectBuilder;
class RecordReader;
class VersionList;
class Staging;

class Updater {
 public:
  Updater(const storage::RepoLayout& layout, storage::Committer& committer, Locator& locator, Listings& listings,
          RecordReader& records, VersionList& versions, TypeRegistry& types, Staging& staging, ObjectBuilder& builder)
      : layout_(layout), committer_(committer), locator_(locator), listings_(listings), records_(records),
        versions_(versions), types_(types), staging_(staging), builder_(builder) {}

  // Sets the given properties (canonical ids; null unsets); a new "cmis:name" renames
  // (the file or directory too). Errors: kConstraint naming a read-only property or the
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
  // An ACL equal to the current one writes nothing. Errors: kObjectNotFound.
  using AclChange = std::function<std::vector<Ace>(const std::vector<Ace>& current)>;
  Result<ObjectData> ChangeAcl(const std::string& id, const AclChange& change, const WriteCheck& check);

 private:
  // A document target without a label means the document; while it is checked out,
  // changes to it go to its working copy. An adopted document is checked with `check`
  // before it is given its files (Locator::ResolveIdToChange).
  Result<Target> WriteTarget(const std::string& id, const WriteCheck& check);

  const storage::RepoLayout& layout_;
  storage::Committer& committer_;
  Locator& locator_;
  Listings& listings_;
  RecordReader& records_;
  VersionList& versions_;
  TypeRegistry& types_;
  Staging& staging_;
  ObjectBuilder& builder_;
};

}  // namespace folio::repo
