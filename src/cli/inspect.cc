// Placeholder; see helper task.
#include "cli/commands.h"
namespace folio::cli {
void RegisterInspect(CLI::App& app, int& exit_code) { (void)app; (void)exit_code; }
}  // namespace folio::cli
