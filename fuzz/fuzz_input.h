// Helpers shared by the fuzz targets: split one fuzz input into pieces the way a socket
// would deliver them, so that every parser that takes its input in pieces is tried at
// every split point the fuzzer finds interesting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace folio::fuzz {

// The first byte of `data` (if any) seeds the piece sizes; the rest is the input. Pieces
// are 1 to 64 bytes, or the whole input when the seed is 0.
struct Split {
  std::string_view input;
  std::vector<std::string_view> pieces;
};

inline Split SplitInput(const uint8_t* data, size_t size) {
  Split s;
  if (size == 0) return s;
  const uint8_t seed = data[0];
  s.input = std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (seed == 0) {
    s.pieces.push_back(s.input);
    return s;
  }
  uint32_t state = seed;
  for (size_t at = 0; at < s.input.size();) {
    state = state * 1103515245u + 12345u;
    const size_t n = 1 + (state >> 16) % 64;
    s.pieces.push_back(s.input.substr(at, n));
    at += n;
  }
  return s;
}

// Aborts (a finding) when `condition` is false: an invariant a parser promises.
#define FOLIO_FUZZ_CHECK(condition)                                   \
  do {                                                                \
    if (!(condition)) {                                               \
      __builtin_trap();                                               \
    }                                                                 \
  } while (false)

}  // namespace folio::fuzz
