// The upload area of a repository (`.folio/uploads/`): content streamed to disk before
// the change that links it into place. See folio::Upload.
#pragma once

#include <memory>
#include <string>

#include "folio/repository.h"
#include "storage/layout.h"

namespace folio::repo::changes {

class Uploads {
 public:
  Uploads(Fs& fs, const storage::RepoLayout& layout, bool read_only)
      : fs_(fs), layout_(layout), read_only_(read_only) {}
  // A new, empty upload. Errors: kPermissionDenied when read-only; kStorage.
  Result<std::unique_ptr<Upload>> New();

 private:
  Fs& fs_;
  const storage::RepoLayout& layout_;
  bool read_only_;
};

}  // namespace folio::repo::changes
