// The name of a file within a directory opened with Fs::OpenDirectory (folio/fs.h): one
// path segment, so that nothing can lead outside the directory.
#pragma once

#include <string>

#include "folio/status.h"

namespace folio::storage {

// `dir`/`name` (`name` when `dir` is ""), as errors show the file, when `name` is one
// segment: not empty, "." or "..", without '/' and NUL. kInvalidArgument naming it
// otherwise.
inline Result<std::string> EntryPath(const std::string& dir, const std::string& name) {
  std::string path = dir.empty() ? name : dir + "/" + name;
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos) {
    return InvalidArgument("invalid storage path '" + path + "'");
  }
  return path;
}

}  // namespace folio::storage
