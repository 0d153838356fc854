// folio export DATA DOMAIN/REPO DEST: the command line of exporter.h.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exporter.h"
#include "cli/inspect_render.h"
#include "cli/tool_args.h"

namespace folio::cli {
namespace {

struct ExportArgs {
  std::string data, target;
  ExportOptions options;
};

int RunExportCommand(ExportArgs& args) {
  auto target = SplitRepositoryArg(args.target);
  if (!target.ok()) {
    std::cerr << "folio export: " << target.status().message() << "\n";
    return 2;
  }
  ExportOptions& o = args.options;
  o.data_dir = args.data;
  o.domain = target->first;
  o.repository = target->second;
  InstallStopHandlers();
  auto report = RunExport(o);
  if (!report.ok()) {
    std::cerr << "folio export: " << report.status().message() << "\n";
    return g_stop_requested.load() ? kExitInterrupted : kExitFailed;
  }
  const ExportReport& r = *report;
  PrintLeftOut("export", r.left_out);
  if (r.interrupted) {
    std::cout << "interrupted after " << Thousands(r.written + r.already_there) << " of " << Thousands(r.files)
              << " files: run the same command again to finish" << std::endl;
    return kExitInterrupted;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f s", r.seconds);
  std::cout << "exported " << Thousands(r.documents) << " documents in " << Thousands(r.folders) << " folders from "
            << o.domain << "/" << o.repository << " to " << o.dest << " in " << secs << ": " << Thousands(r.files)
            << " files (" << HumanSize(r.bytes) << "), " << Thousands(r.written) << " written, "
            << Thousands(r.already_there) << " already there, " << Thousands(r.left_out.size()) << " left out";
  if (r.not_files > 0) std::cout << "; " << Thousands(r.not_files) << " items and relationships have no file form";
  std::cout << std::endl;
  return r.left_out.empty() ? kExitDone : kExitLeftOut;
}

}  // namespace

void RegisterExport(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "Write a repository out as plain directories and files");
  cmd->add_option("DATA", args->data, "The data directory")->required();
  cmd->add_option("DOMAIN/REPO", args->target, "The repository to export, e.g. demo/plain")->required();
  cmd->add_option("DEST", args->options.dest, "The directory to write (created if missing; existing files are kept)")
      ->required();
  cmd->add_flag("--all-versions", args->options.all_versions,
                "Also write every version of each document into "
                "<name>.versions/ beside it, as "
                "'<stem> v<label><ext>' (report.pdf, version 1.1: "
                "report.pdf.versions/report v1.1.pdf)");
  cmd->add_flag("--while-serving", args->options.while_serving,
                "Export even while a read-write folio serve holds DATA (a "
                "--read-only one never stops it)");
  AddProgressOptions(cmd, args->options.progress);
  cmd->footer(
      "Each document is written under its name with its latest "
      "version's content and modification\n"
      "time; items and relationships have no file form. Files already "
      "there with the same size and\n"
      "time are skipped, so an interrupted export is finished by "
      "running it again.\n"
      "Examples:\n"
      "  folio export data acme/docs ~/docs-copy\n"
      "  folio export data acme/docs ~/docs-history --all-versions\n"
      "Exit codes: 0 exported; 1 failed; 2 usage error; 3 exported, "
      "but some documents were left out\n"
      "(listed on standard error); 130 interrupted (run it again to "
      "finish).\n");
  cmd->callback([args, &exit_code] { exit_code = RunExportCommand(*args); });
}

}  // namespace folio::cli
