// Shared by the fuzz targets of the on-disk record decoders: each puts the input where
// Folio would find the file, in a MemFs, and reads it through the real reader; any
// result is fine (an error is the expected answer to garbage), a crash, a sanitizer
// report, a hang or unbounded memory is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "folio/fs.h"
#include "storage/atomic_write.h"
#include "storage/mem_fs.h"

namespace folio::fuzz {

inline std::string_view Input(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A MemFs holding `bytes` at `path` (its directories made).
inline void PlaceFile(storage::MemFs& fs, const std::string& path, std::string_view bytes) {
  for (size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    (void)fs.MakeDir(path.substr(0, slash));
  }
  auto file = fs.CreateNew(path);
  if (!file.ok()) __builtin_trap();  // the harness itself is wrong
  if (!(*file)->Append(bytes).ok() || !(*file)->Close().ok()) __builtin_trap();
}

}  // namespace folio::fuzz
