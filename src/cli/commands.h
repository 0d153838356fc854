// The sub-commands of the folio executable; each file registers one with CLI11.
#pragma once

#include <CLI/CLI.hpp>

namespace folio::cli {

// Each adds its sub-command to `app`; the callback runs the command and sets `exit_code`.
void RegisterServe(CLI::App& app, int& exit_code);
void RegisterInspect(CLI::App& app, int& exit_code);
void RegisterFsck(CLI::App& app, int& exit_code);
void RegisterImport(CLI::App& app, int& exit_code);
void RegisterExport(CLI::App& app, int& exit_code);

}  // namespace folio::cli
