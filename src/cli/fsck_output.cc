// Text of `folio fsck`; see fsck_output.h.
#include "cli/fsck_output.h"

namespace folio::cli {

std::string FormatFinding(const Finding& finding) {
  std::string line =
      std::string(SeverityName(finding.severity)) + " " + finding.id + " " + finding.path + ": " + finding.message;
  if (!finding.repair.empty()) line += " -> " + finding.repair;
  return line;
}

std::string FormatSummary(const FsckReport& report) {
  const size_t n = report.problems();
  if (n == 0) return "clean";
  return std::to_string(n) + (n == 1 ? " problem" : " problems");
}

}  // namespace folio::cli
