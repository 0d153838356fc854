// `folio serve --exit-with-parent`: the server stops when the process that started it
// dies, so that a test runner that crashes leaves no server behind.
#pragma once

#include "folio/status.h"

namespace folio::cli {

// Asks the kernel to send `signal` to this process when its parent dies (Linux
// prctl(PR_SET_PDEATHSIG); strictly, when the parent *thread* that started it ends).
// Closes the race of a parent that died before the request: the parent seen when the
// program was loaded is compared with the current one.
// Errors: kConstraint naming the pid when the parent has already exited;
// kNotSupported where the kernel offers no parent-death signal; kRuntime if prctl fails.
// Requires: `signal` is blocked and waited for (sigwait), or handled.
Status ExitWithParent(int signal);

}  // namespace folio::cli
