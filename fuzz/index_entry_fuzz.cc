// Fuzz target: an entry of the id index (docs/STORAGE.md §6), read by id.
#include "record_input.h"
#include "storage/id_index.h"
#include "storage/layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  const storage::RepoLayout layout("d/r");
  const std::string id = "d0123456789abcdef";
  fuzz::PlaceFile(fs, layout.IndexEntry(id), fuzz::Input(data, size));
  (void)storage::ReadIndexEntry(fs, layout, id);
  return 0;
}
