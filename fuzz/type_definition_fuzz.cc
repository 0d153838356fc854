// Fuzz target: a custom type definition (docs/STORAGE.md §7), loaded by the type
// registry with its parents (the input may name itself or a built-in type as parent).
#include "record_input.h"
#include "repo/types/types.h"
#include "storage/layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  const storage::RepoLayout layout("d/r");
  fuzz::PlaceFile(fs, layout.TypeFile("acme:doc"), fuzz::Input(data, size));
  repo::types::TypeRegistry types(fs, layout, nullptr);
  (void)types.Get("acme:doc");
  (void)types.Children("cmis:document");
  return 0;
}
