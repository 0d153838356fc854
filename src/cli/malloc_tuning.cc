// glibc's malloc set up for a long-running server; see malloc_tuning.h.
#include "cli/malloc_tuning.h"

#include <malloc.h>
#include <stdlib.h>

#include <string_view>

namespace folio::cli {

bool OperatorSetsMmapThreshold(const char* mmap_threshold_env, const char* tunables) {
  if (mmap_threshold_env != nullptr) return true;
  if (tunables == nullptr) return false;
  // GLIBC_TUNABLES is a ':'-separated list of name=value; the name is glibc.malloc.mmap_threshold.
  std::string_view rest(tunables);
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string_view item = rest.substr(0, colon);
    if (item.starts_with("glibc.malloc.mmap_threshold=")) return true;
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return false;
}

bool TuneMalloc() {
  if (OperatorSetsMmapThreshold(std::getenv("MALLOC_MMAP_THRESHOLD_"), std::getenv("GLIBC_TUNABLES"))) return false;
  return ::mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1;
}

}  // namespace folio::cli
