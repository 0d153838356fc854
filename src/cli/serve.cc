// folio serve: placeholder until the HTTP service lands (issue 3).
#include <iostream>

#include "cli/commands.h"

namespace folio::cli {

void RegisterServe(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("serve", "Serve a data directory over HTTP (not yet available)");
  cmd->callback([&exit_code] {
    std::cerr << "folio serve: the HTTP service is not built yet\n";
    exit_code = 2;
  });
}

}  // namespace folio::cli
