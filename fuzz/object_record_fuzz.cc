// Fuzz target: a version record, working copy record or folder record
// (docs/STORAGE.md §3-§5), read as the engine reads it.
#include "record_input.h"
#include "repo/records.h"
#include "storage/json_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  fuzz::PlaceFile(fs, "d/r/.folio/docs/a.txt/1.0.json", fuzz::Input(data, size));
  auto j = storage::ReadJsonFile(fs, "d/r/.folio/docs/a.txt/1.0.json");
  if (!j.ok()) return 0;
  auto rec = repo::ObjectRecordFromJson(*j, "1.0.json");
  if (!rec.ok()) return 0;
  // What was accepted is written back and read again to the same record.
  auto again = repo::ObjectRecordFromJson(repo::ToJson(*rec), "again");
  if (!again.ok() || again->label != rec->label || again->properties != rec->properties) __builtin_trap();
  return 0;
}
