// Fuzz target: a segment of the change log (docs/STORAGE.md §8), one JSON event per
// line, read as getContentChanges reads it.
#include "record_input.h"
#include "storage/change_log_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  fuzz::PlaceFile(fs, "d/r/.folio/changes/00000000000000000001.jsonl", fuzz::Input(data, size));
  storage::ChangeLogStore store(fs, "d/r/.folio/changes");
  (void)store.LastToken();
  (void)store.FirstToken();
  (void)store.Read(0, 100);
  (void)store.Read(5, 3);
  (void)store.Truncated();
  return 0;
}
