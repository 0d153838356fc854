// What kind of directory a sub-command was given, so that a wrong one (a repository
// directory, the home directory, a typo) is named instead of being served or printed
// as an empty tree.
#pragma once

#include <string>

namespace folio::cli {

enum class DirKind {
  kMissing,        // nothing there
  kNotADirectory,  // a file or something else
  kEmpty,          // an empty directory: a new data directory may start there
  kDataDirectory,  // .folio/folio.json, or (marker missing) at least one domain
  kDomain,         // a domain directory (.folio/domain.json): its parent is the data directory
  kRepository,     // a repository directory (.folio/repository.json)
  kOther,          // a directory with other things in it
  kUnreadable,     // cannot be opened or listed
};

// Looks at `dir` (never changes it). Symbolic links are followed only for `dir` itself.
DirKind ClassifyDirectory(const std::string& dir);

enum class HintFor { kInspect, kServe };

// Why `dir`, of `kind` (not kDataDirectory), is not a Folio data directory, and what to
// give instead, as the command of `hint` would take it: "'sample-data/demo/plain' is a
// repository directory, not a data directory: try folio inspect /abs/sample-data demo/plain".
std::string NotADataDirectory(const std::string& dir, DirKind kind, HintFor hint);

}  // namespace folio::cli
