// The text `folio fsck` prints: one line per finding and a summary line.
#pragma once

#include <string>

#include "folio/fsck.h"

namespace folio::cli {

// "<severity> <id> <path>: <message>", plus " -> <repair>" when it was repaired.
std::string FormatFinding(const Finding& finding);
// "clean" when no error or warning is left, else "1 problem" / "N problems".
std::string FormatSummary(const FsckReport& report);

}  // namespace folio::cli
