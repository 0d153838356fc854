// The reader of getAllVersions installed on a thread; see version_reuse.h.
#include "repo/versions/version_reuse.h"

namespace folio::repo::versions {
namespace {

thread_local VersionReuse* t_current = nullptr;

}  // namespace

VersionReuse::VersionReuse() : outer_(t_current) { t_current = this; }

VersionReuse::~VersionReuse() { t_current = outer_; }

VersionReuse* VersionReuse::Current() { return t_current; }

}  // namespace folio::repo::versions
