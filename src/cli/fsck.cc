// folio fsck DIR [--repair]: runs folio::RunFsck (src/fsck) and prints its findings
// (fsck_output) one per line, then a summary line.
#include "folio/fsck.h"

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/fsck_output.h"

namespace folio::cli {
namespace {

struct FsckArgs {
  std::string dir;
  bool repair = false;
};

// Exit codes: 0 clean (notes allowed); 1 errors or warnings remain; 2 DIR missing or
// unreadable.
int RunFsckCommand(const FsckArgs& args) {
  auto report = RunFsck(args.dir, FsckOptions{.repair = args.repair});
  if (!report.ok()) {
    std::cerr << "folio fsck: " << report.status().message() << "\n";
    return 2;
  }
  for (const Finding& f : report->findings) std::cout << FormatFinding(f) << "\n";
  std::cout << FormatSummary(*report) << std::endl;
  return report->clean() ? 0 : 1;
}

}  // namespace

void RegisterFsck(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FsckArgs>();
  auto* cmd = app.add_subcommand(
      "fsck", "Check a data directory against every invariant of docs/STORAGE.md; --repair fixes what it can");
  cmd->add_option("DIR", args->dir, "The data directory to check")->required();
  cmd->add_flag("--repair", args->repair,
                "Fix what can be fixed without losing data: complete interrupted changes, rebuild the id index, "
                "move doubtful files to the repository's .folio/lost+found/");
  cmd->footer(
      "Prints one line per finding: <severity> <id> <path>: <message> [-> <repair done>],\n"
      "then 'clean' or 'N problems' (errors and warnings; notes do not count).\n"
      "Exit codes: 0 clean; 1 problems remain; 2 DIR does not exist or cannot be read.\n");
  cmd->callback([args, &exit_code] { exit_code = RunFsckCommand(*args); });
}

}  // namespace folio::cli
