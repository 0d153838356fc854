// The folio executable: picks the sub-command (serve, inspect, fsck, import,
// export) and nothing else.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Folio: a content repository server with plain files on disk", "folio"};
  app.set_version_flag("--version", std::string("folio ") + FOLIO_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  folio::cli::RegisterServe(app, exit_code);
  folio::cli::RegisterInspect(app, exit_code);
  folio::cli::RegisterFsck(app, exit_code);
  folio::cli::RegisterImport(app, exit_code);
  folio::cli::RegisterExport(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and exit 0; every usage error exits 2, as is customary.
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exit_code;
}
