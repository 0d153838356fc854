// What folio import and export share on their command lines: DOMAIN/REPO,
// --progress, and how they report what was left out.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/host_files.h"
#include "cli/progress.h"
#include "folio/status.h"

namespace folio::cli {

// "demo/plain" -> {"demo", "plain"}. Errors: kInvalidArgument naming `arg`
// unless it is two non-empty parts separated by one '/' (a trailing '/' is
// allowed).
Result<std::pair<std::string, std::string>> SplitRepositoryArg(const std::string& arg);

// Adds --progress (auto, bar, lines, none) and --progress-interval to `cmd`.
void AddProgressOptions(CLI::App* cmd, ProgressOptions& options);

// Prints "folio COMMAND: left out 'path': reason" lines to stderr, at most
// `max`, then how many more.
void PrintLeftOut(const std::string& command, const std::vector<LeftOut>& left_out, size_t max = 50);

// Exit codes shared by import and export.
inline constexpr int kExitDone = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitLeftOut = 3;
inline constexpr int kExitInterrupted = 130;

}  // namespace folio::cli
