// folio serve's malloc set-up: the operator's own setting wins, and otherwise a large
// block is mapped apart however large a block freed before it was.
#include "cli/malloc_tuning.h"

#include <doctest/doctest.h>
#include <malloc.h>
#include <stdlib.h>

#include <algorithm>
#include <cstring>

#include "support/sanitizers.h"

namespace folio::cli {
namespace {

TEST_CASE("TuneMalloc: the operator's MALLOC_MMAP_THRESHOLD_ or glibc.malloc.mmap_threshold wins") {
  CHECK_FALSE(OperatorSetsMmapThreshold(nullptr, nullptr));
  CHECK(OperatorSetsMmapThreshold("131072", nullptr));
  CHECK(OperatorSetsMmapThreshold("", nullptr));  // set, even empty: left to the operator
  CHECK(OperatorSetsMmapThreshold(nullptr, "glibc.malloc.mmap_threshold=65536"));
  CHECK(OperatorSetsMmapThreshold(nullptr, "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536"));
  // Other tunables, and names that only contain the word, leave it to Folio.
  CHECK_FALSE(OperatorSetsMmapThreshold(nullptr, ""));
  CHECK_FALSE(OperatorSetsMmapThreshold(nullptr, "glibc.malloc.arena_max=2"));
  CHECK_FALSE(OperatorSetsMmapThreshold(nullptr, "glibc.malloc.trim_threshold=1:glibc.malloc.tcache_count=0"));
  CHECK_FALSE(OperatorSetsMmapThreshold(nullptr, "glibc.elision.enable=1:xmmap_threshold=5"));
}

#ifndef FOLIO_OTHER_ALLOCATOR
// Called through a volatile pointer so that the compiler cannot pair and drop them.
void* (*volatile g_malloc)(size_t) = ::malloc;
void (*volatile g_free)(void*) = ::free;

// Whether a block of `size` bytes allocated now is mapped apart (mallinfo2 counts mapped
// blocks). glibc serves any request the top of the heap can hold from there, whatever
// the threshold; `size` is raised above the top (the main arena's keepcost), so that
// malloc must choose between growing the heap and mapping the block.
bool MappedApart(size_t size) {
  size = std::max(size, mallinfo2().keepcost + 64 * 1024);
  const size_t before = mallinfo2().hblks;
  void* block = g_malloc(size);
  std::memset(block, 1, size);
  const bool mapped = mallinfo2().hblks == before + 1;
  g_free(block);
  return mapped;
}

TEST_CASE("TuneMalloc: after it, a block of 300 KiB is mapped apart even after a block of 4 MiB was freed") {
  if (OperatorSetsMmapThreshold(std::getenv("MALLOC_MMAP_THRESHOLD_"), std::getenv("GLIBC_TUNABLES"))) {
    MESSAGE("the environment sets the mmap threshold: TuneMalloc leaves it");
    CHECK_FALSE(TuneMalloc());
    return;
  }
  REQUIRE(TuneMalloc());
  // glibc's default would raise its threshold to 4 MiB here, and grow the heap for the
  // next block under 4 MiB, where it stays once freed.
  void* large = g_malloc(4u << 20);
  std::memset(large, 1, 4u << 20);
  g_free(large);
  CHECK(MappedApart(300 * 1024));
  CHECK(MappedApart(kMmapThreshold));
}
#endif

}  // namespace
}  // namespace folio::cli
