// The tree below a folder; see tree.h.
#include "repo/lookup/tree.h"

#include "repo/engine.h"
#include "repo/hand_edits/seen_edits.h"

#include "storage/layout.h"

#include <vector>

namespace folio::repo::lookup {
namespace {

// One folder being walked: its listing and the next child to visit. Kept on an
// explicit stack: a deep tree must not exhaust the thread's stack.
struct Frame {
  std::string folder;  // repository-relative path
  std::shared_ptr<const Listing> listing;
  size_t next = 0;
  int64_t level = 1;  // the level of its children (1: children of the start folder)
};

bool Deeper(const TreeRequest& request, int64_t level) { return request.depth < 0 || level < request.depth; }

Status TooMany(const Loc& folder, const TreeRequest& request) {
  return Constraint(std::string(request.folders_only ? "the folder tree" : "the descendants") + " of '/" +
                    folder.folder + "' hold more than " + std::to_string(request.max_objects) +
                    " objects, the limit of one answer (docs/API.md §9): ask for a smaller depth, or "
                    "walk the tree with children");
}

}  // namespace

Status Tree::CheckSize(const Loc& folder, const TreeRequest& request) {
  // Also without a limit: its listings note every hand edit of the tree to reconcile
  // before anything is told (repo/hand_edits/seen_edits.h); the walk then finds them kept.
  uint64_t count = 0;
  std::vector<std::pair<std::string, int64_t>> todo = {{folder.folder, 1}};
  while (!todo.empty()) {
    auto [path, level] = std::move(todo.back());
    todo.pop_back();
    auto listing = engine_.listings.List(path);
    if (!listing.ok()) {
      // Removed meanwhile, or unreadable (the walk leaves it out, and logs it).
      if (listing.status().Is(std::errc::no_such_file_or_directory) || Listings::IsDamage(listing.status())) continue;
      return listing.status();
    }
    for (const ListedChild& c : (*listing)->children) {
      const bool folder_child = c.base == BaseType::kFolder;
      if (request.folders_only && !folder_child) continue;
      if (++count > request.max_objects && request.max_objects != 0) return TooMany(folder, request);
      if (folder_child && Deeper(request, level)) todo.emplace_back(storage::JoinPath(path, c.name), level + 1);
    }
  }
  return OkStatus();
}

Result<uint64_t> Tree::Visit(const std::string& folder_id, const TreeRequest& request, TreeVisitor& visitor) {
  if (request.depth == 0 || request.depth < -1) {
    return InvalidArgument("depth must be -1 (all levels) or at least 1, got " + std::to_string(request.depth));
  }
  FOLIO_ASSIGN_OR_RETURN(Loc start, engine_.locator.LocateFolder(folder_id));
  FOLIO_RETURN_IF_ERROR(CheckSize(start, request));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const Listing> top, engine_.listings.List(start.folder));
  // Hand edits to reconcile before anything is told (repo/hand_edits/seen_edits.h): CheckSize has
  // listed the whole tree when the answer is bounded.
  if (hand_edits::SeenEdits::AnswerPending()) return hand_edits::ReconcileFirst();
  std::vector<Frame> stack;
  stack.push_back(Frame{start.folder, std::move(top), 0, 1});
  uint64_t visited = 0;
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next == f.listing->children.size()) {
      stack.pop_back();
      // Every frame but the first was opened by a folder that is still entered.
      if (!stack.empty()) FOLIO_RETURN_IF_ERROR(visitor.Leave());
      continue;
    }
    const ListedChild& c = f.listing->children[f.next++];
    if (request.folders_only && c.base != BaseType::kFolder) continue;
    const std::string folder = f.folder;
    const int64_t level = f.level;
    auto object = engine_.listings.BuildChild(folder, c);
    if (!object.ok()) {
      // Removed between the listing and now (by hand or another process): left out.
      if (object.status().kind() == ErrorKind::kObjectNotFound) continue;
      if (!Listings::IsDamage(object.status())) return object.status();
      // A damaged record spoils only its object (docs/STORAGE.md §10): the walk goes on
      // without it (a damaged folder's record: without what is below it too).
      engine_.listings.LogDamaged("/" + storage::JoinPath(folder, c.name), object.status());
      continue;
    }
    if (++visited > request.max_objects && request.max_objects != 0) return TooMany(start, request);
    if (visited == 1 && hand_edits::SeenEdits::AnswerPending()) return hand_edits::ReconcileFirst();
    FOLIO_RETURN_IF_ERROR(visitor.Enter(*object, level));
    if (c.base != BaseType::kFolder || !Deeper(request, level)) {
      FOLIO_RETURN_IF_ERROR(visitor.Leave());
      continue;
    }
    auto listing = engine_.listings.List(object->path);
    if (!listing.ok()) {
      if (Listings::IsDamage(listing.status())) {
        engine_.listings.LogDamaged("/" + object->path, listing.status());
      } else if (!listing.status().Is(std::errc::no_such_file_or_directory)) {
        return listing.status();
      }
      FOLIO_RETURN_IF_ERROR(visitor.Leave());  // removed meanwhile, or unreadable: a leaf
      continue;
    }
    stack.push_back(Frame{object->path, std::move(*listing), 0, level + 1});  // `f` is invalid from here
  }
  return visited;
}

}  // namespace folio::repo::lookup
