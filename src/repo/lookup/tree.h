// The tree below a folder, walked for getDescendants and getFolderTree (docs/API.md
// §7.6): depth first, children in name order, each object built, handed to a visitor
// and dropped, so a walk holds one listing per level and one object at a time.
#pragma once

#include <cstdint>
#include <string>

#include "folio/repository.h"
#include "repo/lookup/location.h"

namespace folio::repo {
class Engine;
}  // namespace folio::repo

namespace folio::repo::lookup {

// Uses: locator, listings.
class Tree {
 public:
  explicit Tree(Engine& engine) : engine_(engine) {}

  // Counts the objects the walk would visit (listings only, nothing built), then visits
  // them. Returns how many were visited. Errors: kObjectNotFound for an unknown
  // `folder_id`; kInvalidArgument if it is not a folder or request.depth is 0 or below
  // -1; kConstraint naming request.max_objects when the walk would visit more (found
  // before any object is visited, or while visiting if the tree grew meanwhile);
  // the first error `visitor` returns; kStorage; ReconcileFirst when, before the first
  // object is visited, its lookups met hand edits that change the answer (the caller
  // has them reconciled and walks again, repo/hand_edits/reconciler.h). Objects removed during the
  // walk are left out. Thread-safe; takes no lock.
  Result<uint64_t> Visit(const std::string& folder_id, const TreeRequest& request, TreeVisitor& visitor);

 private:
  Status CheckSize(const Loc& folder, const TreeRequest& request);

  Engine& engine_;
};

}  // namespace folio::repo::lookup
