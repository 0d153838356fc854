// folio inspect DIR [PATH] [--json] [--depth N] [--history]: reads the tree (inspect_model) through a
// read-only Store and prints it (inspect_render).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/data_dir.h"
#include "cli/inspect_model.h"
#include "cli/inspect_render.h"
#include "folio/store.h"

namespace folio::cli {
namespace {

struct InspectArgs {
  std::string dir;
  std::string path;
  bool json = false;
  bool history = false;
  int depth = -1;
};

// Exit codes: 0 printed; 1 DIR is not a data directory, or DIR or PATH does not exist or
// cannot be read.
int RunInspect(const InspectArgs& args) {
  if (const DirKind kind = ClassifyDirectory(args.dir); kind != DirKind::kDataDirectory) {
    std::cerr << "folio inspect: " << NotADataDirectory(args.dir, kind, HintFor::kInspect) << "\n";
    return 1;
  }
  auto store = Store::Open(args.dir, {.read_only = true, .create = false});
  if (!store.ok()) {
    std::cerr << "folio inspect: " << store.status().message() << "\n";
    return 1;
  }
  auto tree = BuildInspectTree(**store, args.dir, args.path, InspectLimits{.max_depth = args.depth});
  if (!tree.ok()) {
    std::cerr << "folio inspect: " << tree.status().message() << "\n";
    return 1;
  }
  std::cout << (args.json ? RenderInspectJson(*tree) : RenderInspectText(*tree, TextOptions{.history = args.history}))
            << std::flush;
  return 0;
}

}  // namespace

void RegisterInspect(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<InspectArgs>();
  auto* cmd = app.add_subcommand(
      "inspect", "Print a data directory as a tree: repositories, folders, documents with versions and check-outs");
  cmd->add_option("DIR", args->dir, "The data directory (as for folio serve --data)")->required();
  cmd->add_option("PATH", args->path,
                  "Show only this part: domain, domain/repository or domain/repository/folder/path");
  cmd->add_flag("--json", args->json,
                "Print the same information as JSON (with object ids and each node's domain, repository and path; "
                "see docs/INSPECT.md)");
  cmd->add_option("--depth", args->depth, "Show N levels below PATH (0: PATH alone); deeper levels are counted, not read")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--history", args->history,
                "Show each document's history as a table (label, date, author, size, comment, id, check-out); "
                "always shown when PATH is a document");
  cmd->footer(
      "Examples:\n"
      "  folio inspect sample-data\n"
      "  folio inspect sample-data demo/cmis/Projects --json\n"
      "  folio inspect sample-data demo/plain/readme.md      (its history as a table)\n"
      "  folio inspect sample-data --depth 2                 (domains and repositories only)\n"
      "Damaged records are shown in place (DAMAGED: ...), never stopping the tree; run folio fsck.\n"
      "Exit codes: 0 printed; 1 DIR is not a Folio data directory, or DIR or PATH does not exist or\n"
      "cannot be read.\n");
  cmd->callback([args, &exit_code] { exit_code = RunInspect(*args); });
}

}  // namespace folio::cli
