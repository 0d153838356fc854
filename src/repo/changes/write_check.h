// A caller's WriteCheck (folio/repository.h) run inside a change: on an object as the
// staging finds it, built as a reader would see it at that moment, so that the check
// and the write happen under one write exclusion (docs/API.md §11.3).
#pragma once

#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::repo::lookup {
class ObjectBuilder;
}  // namespace folio::repo::lookup

namespace folio::repo::changes {

// OK when `check` is empty (the object is then not even built) or allows `role` on the
// object `target` names; else the check's error. Errors: also those of building the
// object (kObjectNotFound, kStorage).
Status CheckWrite(const WriteCheck& check, WriteRole role, lookup::ObjectBuilder& builder,
                  const lookup::Target& target);
// The same for the object at `loc` (a folder; a document: its latest version).
Status CheckWrite(const WriteCheck& check, WriteRole role, lookup::ObjectBuilder& builder, const lookup::Loc& loc);

// The few members a check reads (WriteRole::kBelow) of an object that a change reads as
// records and never builds: deleteTree checks thousands of them.
ObjectData CheckedObject(BaseType base, std::string id, std::string type_id, std::string path, std::vector<Ace> acl);

}  // namespace folio::repo::changes
