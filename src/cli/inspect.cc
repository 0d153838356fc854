// folio inspect DIR [PATH] [--json]: reads the tree (inspect_model) through a
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
  auto tree = BuildInspectTree(**store, args.dir, args.path);
  if (!tree.ok()) {
    std::cerr << "folio inspect: " << tree.status().message() << "\n";
    return 1;
  }
  std::cout << (args.json ? RenderInspectJson(*tree) : RenderInspectText(*tree)) << std::flush;
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
  cmd->add_flag("--json", args->json, "Print the same information as JSON (with object ids)");
  cmd->footer(
      "Examples:\n"
      "  folio inspect sample-data\n"
      "  folio inspect sample-data demo/cmis/Projects --json\n"
      "Exit codes: 0 printed; 1 DIR is not a Folio data directory, or DIR or PATH does not exist or\n"
      "cannot be read.\n");
  cmd->callback([args, &exit_code] { exit_code = RunInspect(*args); });
}

}  // namespace folio::cli
