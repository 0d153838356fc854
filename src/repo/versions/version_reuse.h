// Answers of getAllVersions given again without building the versions they were made of
// (api/ops/versioning_ops.cc, docs/API.md §7.10). A reader that keeps what it made of
// earlier versions installs a VersionReuse on its thread around Repository::
// VisitAllVersions. For each earlier version, ObjectBuilder then works out its stamp
// (what the version is made of: its record as a stat sees it, its series' state, its
// place, the builds of its types) and asks Has(id, stamp): when the reader holds an
// answer made from an equal stamp, the visitor is handed stand_in() instead of the
// version, which is neither read nor built. Otherwise the version is built and handed
// as usual, with stamp() telling the reader under which stamp to keep its answer.
//
// Two visits of a version with equal non-empty stamps are the same object, property for
// property, under the same type definitions. The latest version (it takes in hand edits
// of the document's file) and the working copy are always built, and so is the first
// object of every visit, which the guarded view checks (acl/guarded_repository.h).
//
// Thread-safety: an instance belongs to the thread that made it; one at a time per
// thread (the last made is the one asked).
#pragma once

#include <string>

#include "folio/object.h"

namespace folio::repo::versions {

class VersionReuse {
 public:
  VersionReuse();
  virtual ~VersionReuse();
  VersionReuse(const VersionReuse&) = delete;
  VersionReuse& operator=(const VersionReuse&) = delete;

  // The instance installed on the calling thread; null when there is none.
  static VersionReuse* Current();

  // Whether the reader holds an answer for version `id` made from `stamp`.
  virtual bool Has(const std::string& id, const std::string& stamp) = 0;

  // What the visitor is handed for a version the reader holds an answer for (its id
  // only): compare addresses.
  ObjectData& stand_in() { return stand_in_; }
  // The stamp of the version handed last: "" when it promises nothing.
  const std::string& stamp() const { return stamp_; }
  // Set by ObjectBuilder before it hands a version.
  void Handing(std::string stamp) { stamp_ = std::move(stamp); }

 private:
  ObjectData stand_in_;
  std::string stamp_;
  VersionReuse* outer_;
};

}  // namespace folio::repo::versions
