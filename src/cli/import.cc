// folio import SRC DATA DOMAIN/REPO: the command line of importer.h.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/importer.h"
#include "cli/inspect_render.h"
#include "cli/tool_args.h"

namespace folio::cli {
namespace {

struct ImportArgs {
  std::string source, data, target;
  ImportOptions options;
};

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

int RunImportCommand(ImportArgs& args) {
  auto target = SplitRepositoryArg(args.target);
  if (!target.ok()) {
    std::cerr << "folio import: " << target.status().message() << "\n";
    return 2;
  }
  ImportOptions& o = args.options;
  o.source = args.source;
  o.data_dir = args.data;
  o.domain = target->first;
  o.repository = target->second;
  InstallStopHandlers();
  auto report = RunImport(o);
  if (!report.ok()) {
    std::cerr << "folio import: " << report.status().message() << "\n";
    if (g_stop_requested.load()) {
      std::cerr << "folio import: interrupted; run the same command again to "
                   "finish\n";
      return kExitInterrupted;
    }
    return kExitFailed;
  }
  const ImportReport& r = *report;
  PrintLeftOut("import", r.left_out);
  const std::string where = o.domain + "/" + o.repository;
  if (r.created_domain) std::cout << "created domain " << o.domain << "\n";
  if (r.created_repository) std::cout << "created repository " << where << "\n";
  const uint64_t done = r.copied + r.already_there;
  if (r.interrupted) {
    std::cout << "interrupted after " << Thousands(done) << " of " << Thousands(r.files)
              << " files: run the same command again to finish (nothing is "
                 "imported twice)"
              << std::endl;
    return kExitInterrupted;
  }
  std::cout << "imported " << Thousands(r.files) << " files (" << HumanSize(r.bytes) << ") in " << Thousands(r.folders)
            << " folders into " << where << " in " << Seconds(r.seconds) << ": " << Thousands(r.copied) << " copied, "
            << Thousands(r.already_there) << " already there, " << Thousands(r.left_out.size()) << " left out"
            << std::endl;
  return r.left_out.empty() ? kExitDone : kExitLeftOut;
}

}  // namespace

void RegisterImport(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ImportArgs>();
  auto* cmd = app.add_subcommand("import",
                                 "Bring a directory tree into a repository as "
                                 "folders and documents (version 1.0 each)");
  cmd->add_option("SRC", args->source, "The directory to import (links and special files are left out)")->required();
  cmd->add_option("DATA", args->data, "The data directory (created if missing, as for folio serve --data)")->required();
  cmd->add_option("DOMAIN/REPO", args->target, "The repository to import into, e.g. demo/plain (created if missing)")
      ->required();
  cmd->add_option("--variant", args->options.variant, "Variant of a repository this creates (default B)")
      ->transform(CLI::IsMember({"A", "B"}, CLI::ignore_case));
  cmd->add_flag("--while-serving", args->options.while_serving,
                "Import even while a folio serve holds DATA (changes are "
                "serialised with the server's)");
  AddProgressOptions(cmd, args->options.progress);
  cmd->footer(
      "Each file becomes a document, version 1.0, created by 'system' at the "
      "file's modification time,\n"
      "its MIME type from its extension or else from its content (libmagic). "
      "Files already imported\n"
      "(same size and time) are skipped, so an interrupted import is finished "
      "by running it again.\n"
      "Examples:\n"
      "  folio import ~/reports data acme/docs\n"
      "  folio import ./site data web/pages --variant A --progress lines\n"
      "Exit codes: 0 imported; 1 failed; 2 usage error; 3 imported, but some "
      "entries were left out\n"
      "(listed on standard error); 130 interrupted (run it again to "
      "finish).\n");
  cmd->callback([args, &exit_code] { exit_code = RunImportCommand(*args); });
}

}  // namespace folio::cli
