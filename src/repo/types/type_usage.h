// Whether objects of a custom type exist, exactly, without reading every record: each
// object made of a custom type leaves a marker `.folio/typed/<type>/<id>` in the change
// that creates it (Staging::StageTypeUsage; docs/STORAGE.md §7), so the markers are a
// superset of the type's objects. Deleting an object leaves its marker (a delete stays
// one small change); a marker is verified against its object when read.
#pragma once

#include <string>

#include "folio/object.h"
#include "folio/status.h"
#include "repo/lookup/location.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::types {

// Uses: fs, layout, info, locator, records, builder, tree, relationships.
class TypeUsage {
 public:
  explicit TypeUsage(Engine& engine) : engine_(engine) {}

  // OK when no object of custom type `type_id` exists, nor a version of a document
  // that has it (an earlier version keeps the secondary types it had). With markers, reads them in
  // order and stops at the first that names an existing object of the type (markers of
  // objects deleted since cost a failed lookup each); a type created before markers
  // existed (`has_markers` false) is checked by walking the whole tree and the
  // relationships. Errors: kConstraint naming the type and one of its objects (id and
  // path); kStorage. Requires: called while the repository's changes are excluded (in a
  // Committer stage), so that the answer holds until the change commits.
  Status CheckUnused(const std::string& type_id, bool has_markers);

 private:
  Status InUse(const std::string& type_id, const ObjectData& object);
  // InUse for the first version (or working copy) of the document at `t` that has
  // `type_id`; OK when none has it.
  Status AnyVersionUses(const std::string& type_id, const lookup::Target& t);
  Status ScanEverything(const std::string& type_id);

  Engine& engine_;
};

}  // namespace folio::repo::types
