// A page of a folder's children handed out one at a time; see children_cursor.h.
#include "repo/lookup/children_cursor.h"

#include <algorithm>
#include <utility>

#include "folio/cmis_ids.h"
#include "repo/hand_edits/seen_edits.h"
#include "repo/lookup/locator.h"
#include "storage/json_access.h"
#include "storage/layout.h"

namespace folio::repo::lookup {

Result<std::unique_ptr<ChildrenCursor>> PageCursor::Open(Listings& listings, Locator& locator,
                                                         const std::string& folder_id, uint64_t skip, uint64_t max,
                                                         ChildOrder order, Repository::ChildFilter admit) {
  FOLIO_ASSIGN_OR_RETURN(Loc folder, locator.LocateFolder(folder_id));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const Listing> listing, listings.List(folder.folder));
  // Hand edits to reconcile first (files added by hand, all adopted at once): the page
  // is built once, after (repo/hand_edits/seen_edits.h).
  if (hand_edits::SeenEdits::AnswerPending()) return hand_edits::ReconcileFirst();
  std::unique_ptr<PageCursor> c(new PageCursor(listings, folder.folder, listing, skip, max, std::move(admit)));
  const uint64_t n = listing->children.size();
  if (order.key == ChildOrderKey::kName) {
    c->descending_ = order.descending;
    if (c->admit_) {
      c->end_ = n;  // every child is asked; total_ and has_more_ are known at the end
    } else {
      c->position_ = std::min(skip, n);
      c->end_ = c->position_ + std::min(max, n - c->position_);
      c->total_ = n;
      c->has_more_ = c->end_ < n;
    }
    return std::unique_ptr<ChildrenCursor>(std::move(c));
  }
  // An order by date needs every child's date: each is built and dropped, its date and
  // position kept (16 bytes a child, not the 3 KB of a built child).
  c->sorted_.emplace();
  const char* key = order.key == ChildOrderKey::kCreationDate ? cmis::kCreationDate : cmis::kLastModificationDate;
  std::vector<std::pair<int64_t, uint32_t>> keyed;
  for (uint64_t i = 0; i < n; ++i) {
    FOLIO_ASSIGN_OR_RETURN(std::optional<ObjectData> o, c->Build(static_cast<size_t>(i)));
    if (!o || (c->admit_ && !c->admit_(*o))) continue;
    keyed.emplace_back(storage::IntField(o->properties, key).value_or(0), static_cast<uint32_t>(i));
  }
  // Equal dates in name order (the listing's), whichever the direction.
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    return order.descending ? a.first > b.first : a.first < b.first;
  });
  std::vector<uint32_t> sorted;
  sorted.reserve(keyed.size());
  for (const auto& k : keyed) sorted.push_back(k.second);
  c->total_ = sorted.size();
  c->has_more_ = c->PastPage(c->total_);
  c->position_ = std::min<uint64_t>(skip, sorted.size());
  c->end_ = c->position_ + std::min<uint64_t>(max, sorted.size() - c->position_);
  c->sorted_ = std::move(sorted);
  return std::unique_ptr<ChildrenCursor>(std::move(c));
}

size_t PageCursor::IndexAt(uint64_t position) const {
  if (sorted_) return (*sorted_)[static_cast<size_t>(position)];
  const size_t n = listing_->children.size();
  return descending_ ? n - 1 - static_cast<size_t>(position) : static_cast<size_t>(position);
}

Result<std::optional<ObjectData>> PageCursor::Build(size_t index) {
  const ListedChild& child = listing_->children[index];
  if (child.base == BaseType::kDocument && !folder_dir_opened_) {
    folder_dir_ = listings_.OpenFolderDir(folder_);
    folder_dir_opened_ = true;
  }
  auto o = listings_.BuildChild(folder_, child, folder_dir_.get());
  if (o.ok()) return std::optional<ObjectData>(std::move(*o));
  // Removed between listing and reading (by hand or another process): left out.
  if (o.status().kind() == ErrorKind::kObjectNotFound) return std::optional<ObjectData>();
  if (!Listings::IsDamage(o.status())) return o.status();
  // One damaged record spoils only itself: the folder lists the rest (a folder of
  // 10,000 documents is not lost to one bad byte). A page by name without a filter
  // counts the listing's children, less the damaged ones it met.
  if (!admit_ && !sorted_ && total_ > 0) --total_;
  damaged_.push_back(DamagedChild{child.name, child.base, o.status().message()});
  listings_.LogDamaged("/" + storage::JoinPath(folder_, child.name), o.status());
  return std::optional<ObjectData>();
}

Result<std::optional<ObjectData>> PageCursor::Next() {
  while (position_ < end_) {
    const size_t index = IndexAt(position_++);
    FOLIO_ASSIGN_OR_RETURN(std::optional<ObjectData> o, Build(index));
    if (!o) continue;
    if (admit_ && !sorted_) {
      if (!admit_(*o)) continue;
      ++admitted_;
      // Before the page, or past it: counted only.
      if (admitted_ <= skip_ || emitted_ >= max_) continue;
    }
    ++emitted_;
    return o;
  }
  if (admit_ && !sorted_) {
    total_ = admitted_;
    has_more_ = PastPage(admitted_);
  }
  return std::optional<ObjectData>();
}

}  // namespace folio::repo::lookup
