// Atomic replacement of one file: the only way Folio rewrites a file in place.
#pragma once

#include <string>
#include <string_view>

#include "folio/fs.h"

namespace folio::storage {

// A fresh temporary name beside `path` (same directory, so a rename is atomic), of a
// form no object can have (".folio-tmp-…", reserved).
std::string TempPathBeside(std::string_view path);

// Replaces `path` with `bytes` so that a reader, or a restart after a crash, sees the
// old bytes or the new ones, never a mix: writes a temp file beside `path`, syncs it,
// renames it over `path`, syncs the directory. On failure removes the temp file and
// leaves `path` untouched. Errors: kStorage (cause() from the filesystem).
Status WriteFileAtomically(Fs& fs, const std::string& path, std::string_view bytes);

// Writes `bytes` to a new temp file beside `target` and syncs it; returns its path.
// The caller renames it into place (directly, or as a journal action).
Result<std::string> WriteTempBeside(Fs& fs, const std::string& target, std::string_view bytes);
// Same, copying the rest of `src` (kernel copy where possible).
Result<std::string> CopyToTempBeside(Fs& fs, const std::string& target, ReadableFile& src);

// Creates the directory `path` if it does not exist (OK if it does), durably: a
// directory it creates is synced into its parent.
Status EnsureDir(Fs& fs, const std::string& path);

}  // namespace folio::storage
