// The racy window of storage/datetime.h's IsRacy, widened for filesystems whose
// timestamps move by more than a local disk's tick (whole seconds on MooseFS).
#pragma once

#include <cstdint>

namespace folio::storage {

// Makes IsRacy's window `tick_ns` + kRacyNs, for a filesystem whose timestamps move by
// `tick_ns` (whole seconds: 1'000'000'000; storage/fs_probe.h finds out). Process-wide
// and thread-safe; never narrows the window.
void WidenRacyWindow(int64_t tick_ns);
// Back to kRacyNs (tests that widened it).
void ResetRacyWindowForTest();

}  // namespace folio::storage
