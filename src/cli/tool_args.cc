// Shared command-line pieces of import and export; see tool_args.h.
#include "cli/tool_args.h"

#include <iostream>

namespace folio::cli {

Result<std::pair<std::string, std::string>> SplitRepositoryArg(const std::string& arg) {
  std::string a = arg;
  if (!a.empty() && a.back() == '/') a.pop_back();
  const size_t slash = a.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == a.size() ||
      a.find('/', slash + 1) != std::string::npos) {
    return InvalidArgument("'" + arg +
                           "' is not DOMAIN/REPO (a domain id and a repository "
                           "id, e.g. demo/plain)");
  }
  return std::make_pair(a.substr(0, slash), a.substr(slash + 1));
}

void AddProgressOptions(CLI::App* cmd, ProgressOptions& options) {
  using Style = ProgressOptions::Style;
  const std::map<std::string, Style> styles = {
      {"auto", Style::kAuto}, {"bar", Style::kBar}, {"lines", Style::kLines}, {"none", Style::kNone}};
  cmd->add_option("--progress", options.style,
                  "auto (a bar on a terminal, else a line every few seconds), "
                  "bar, lines or none")
      ->transform(CLI::CheckedTransformer(styles, CLI::ignore_case))
      ->default_str("auto");
  cmd->add_option_function<double>(
         "--progress-interval",
         [&options](double seconds) {
           options.line_interval = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
         },
         "seconds between two progress lines (when not a bar)")
      ->check(CLI::Range(0.1, 3600.0))
      ->default_str("5");
}

void PrintLeftOut(const std::string& command, const std::vector<LeftOut>& left_out, size_t max) {
  for (size_t i = 0; i < left_out.size() && i < max; ++i) {
    std::cerr << "folio " << command << ": left out '" << left_out[i].path << "': " << left_out[i].reason << "\n";
  }
  if (left_out.size() > max) {
    std::cerr << "folio " << command << ": ... and " << left_out.size() - max << " more left out\n";
  }
}

}  // namespace folio::cli
