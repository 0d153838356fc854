// The one escape from the guarded view (see ops.h, UnguardedRepository): the only file
// of api/ops that may reach a Repository itself (tests/api/ops/guard_test.cc).
#include "api/ops/ops.h"

namespace folio::api::ops {

Result<std::shared_ptr<Repository>> UnguardedRepository(const Context& ctx, const std::string& repository_id) {
  if (ctx.level != Level::kDomain) {
    const std::string level = ctx.level == Level::kServer ? "server" : "repository";
    return RuntimeError("an unguarded repository asked for at " + level + " level");
  }
  return ctx.store.GetRepository(ctx.domain_id, repository_id);
}

}  // namespace folio::api::ops
