// A page of a folder's children handed out one at a time (folio::ChildrenCursor, made by
// Repository::OpenChildren; Listings::Children collects one into a ChildrenPage).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "folio/object.h"
#include "folio/repository.h"
#include "repo/lookup/listings.h"
#include "repo/lookup/locator.h"

namespace folio::repo::lookup {

class PageCursor final : public ChildrenCursor {
 public:
  // Locates the folder `folder_id` and lists it (Listings::List). For an order by date,
  // builds every child once now, keeping only its date and position: the order needs
  // them all; the page's children are built again as they are handed out. Errors:
  // kObjectNotFound; kInvalidArgument if it is not a folder; kStorage.
  static Result<std::unique_ptr<ChildrenCursor>> Open(Listings& listings, Locator& locator,
                                                      const std::string& folder_id, uint64_t skip, uint64_t max,
                                                      ChildOrder order, Repository::ChildFilter admit);

  Result<std::optional<ObjectData>> Next() override;
  uint64_t total() const override { return total_; }
  bool has_more() const override { return has_more_; }
  const std::vector<DamagedChild>& damaged() const override { return damaged_; }

 private:
  PageCursor(Listings& listings, std::string folder, std::shared_ptr<const Listing> listing, uint64_t skip,
             uint64_t max, Repository::ChildFilter admit)
      : listings_(listings),
        folder_(std::move(folder)),
        listing_(std::move(listing)),
        skip_(skip),
        max_(max),
        admit_(std::move(admit)) {}
  // The listing's child `index`, built; nullopt when it is gone or damaged (recorded).
  // Errors: other failures.
  Result<std::optional<ObjectData>> Build(size_t index);
  // The listing's index of the walk's position `position`.
  size_t IndexAt(uint64_t position) const;
  // True when `n` admitted children lie past the page's first skip_ + max_.
  bool PastPage(uint64_t n) const { return n > skip_ && n - skip_ > max_; }

  Listings& listings_;
  const std::string folder_;  // repository-relative
  const std::shared_ptr<const Listing> listing_;
  const uint64_t skip_;
  const uint64_t max_;
  const Repository::ChildFilter admit_;
  bool descending_ = false;
  // An order by date: the listing's indices of the children the page is cut from, in
  // that order (all of them counted: total_ is set at Open); empty while Open builds.
  std::optional<std::vector<uint32_t>> sorted_;
  uint64_t position_ = 0;  // the walk's next position
  uint64_t end_ = 0;       // where the walk stops
  uint64_t emitted_ = 0;   // children handed out
  uint64_t admitted_ = 0;  // with a filter: children admitted so far
  uint64_t total_ = 0;
  bool has_more_ = false;
  std::vector<DamagedChild> damaged_;
  // The folder's directory, opened once, for the first document built (null when it
  // could not be: Listings::OpenFolderDir).
  std::unique_ptr<Directory> folder_dir_;
  bool folder_dir_opened_ = false;
};

}  // namespace folio::repo::lookup
