// The hooks of a thread about to wait; see wait_hooks.h.
#include "storage/wait_hooks.h"

#include <atomic>

namespace folio::storage {
namespace {

std::atomic<void (*)()> wait_begin{nullptr};
std::atomic<void (*)()> wait_end{nullptr};

}  // namespace

void SetWaitHooks(WaitHooks hooks) {
  wait_begin = hooks.begin;
  wait_end = hooks.end;
}

WaitHooks CurrentWaitHooks() { return WaitHooks{wait_begin.load(), wait_end.load()}; }

ScopedWait::ScopedWait() : hooks_(CurrentWaitHooks()) {
  if (hooks_.begin != nullptr) hooks_.begin();
}

ScopedWait::~ScopedWait() {
  if (hooks_.end != nullptr) hooks_.end();
}

}  // namespace folio::storage
