// How `folio serve` sets glibc's malloc up before any thread allocates (docs/API.md §2.1).
#pragma once

namespace folio::cli {

// Blocks of this size and more are mapped apart, and unmapped when freed.
inline constexpr int kMmapThreshold = 256 * 1024;

// True when the operator set the mmap threshold: `mmap_threshold_env` is the environment's
// MALLOC_MMAP_THRESHOLD_ (nullptr when unset), `tunables` its GLIBC_TUNABLES (nullptr when
// unset), where a glibc.malloc.mmap_threshold setting counts.
bool OperatorSetsMmapThreshold(const char* mmap_threshold_env, const char* tunables);

// Fixes glibc's mmap threshold at kMmapThreshold unless the operator set one (read from
// the environment). Returns whether it did.
//
// Why: by default the threshold rises to the size of any mapped block freed (up to 32
// MiB), and the threshold for giving the top of a heap back rises with it: after the
// first large answer (a page of 1,000 children is 1 MB of JSON) or adoption table,
// every later one was carved out of a thread's heap and stayed there, in each thread
// that made one (bench/RESULTS.md: 34-35 MB against 28-29 MB at the peak of the
// replay of a first index build with listings). The hot paths allocate nothing that
// large.
bool TuneMalloc();

}  // namespace folio::cli
