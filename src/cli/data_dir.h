// What kind of directory a sub-command was given, so that a wrong one (a repository
// directory, the home directory, a typo) is named instead of being served or printed
// as an empty tree.
#pragma once

#include <string>

#include "folio/store.h"

namespace folio::cli {

using folio::ClassifyDirectory;
using folio::DirKind;

enum class HintFor { kInspect, kServe };

// Why `dir`, of `kind` (not kDataDirectory), is not a Folio data directory, and what to
// give instead, as the command of `hint` would take it: "'sample-data/demo/plain' is a
// repository directory, not a data directory: try folio inspect /abs/sample-data demo/plain".
std::string NotADataDirectory(const std::string& dir, DirKind kind, HintFor hint);

}  // namespace folio::cli
