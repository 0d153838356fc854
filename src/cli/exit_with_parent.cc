// ExitWithParent: prctl(PR_SET_PDEATHSIG) plus a check of getppid() for a parent that
// was already gone.
#include "cli/exit_with_parent.h"

#include <unistd.h>

#include <cerrno>
#include <string>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace folio::cli {
namespace {

// Read as early as possible (static initialisation, before main): the later it is
// read, the longer the window in which a dead parent goes unnoticed.
const pid_t kParentAtStart = ::getppid();

}  // namespace

Status ExitWithParent(int signal) {
#ifdef __linux__
  if (::prctl(PR_SET_PDEATHSIG, signal) != 0) {
    return RuntimeError("prctl(PR_SET_PDEATHSIG) failed: errno " + std::to_string(errno));
  }
  // After the prctl, a parent that dies sends the signal; one that died before did not,
  // and this process has been handed to another (init or a subreaper) since.
  if (::getppid() != kParentAtStart) {
    return Constraint("the process that started folio (pid " + std::to_string(kParentAtStart) +
                      ") has already exited");
  }
  return OkStatus();
#else
  (void)signal;
  (void)kParentAtStart;
  return NotSupported("--exit-with-parent needs Linux (prctl PR_SET_PDEATHSIG)");
#endif
}

}  // namespace folio::cli
