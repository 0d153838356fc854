// Fuzz target: a document's series.json (docs/STORAGE.md §4).
#include "record_input.h"
#include "repo/records.h"
#include "storage/json_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  fuzz::PlaceFile(fs, "d/r/.folio/docs/a.txt/series.json", fuzz::Input(data, size));
  auto j = storage::ReadJsonFile(fs, "d/r/.folio/docs/a.txt/series.json");
  if (!j.ok()) return 0;
  auto series = repo::SeriesRecordFromJson(*j, "series.json");
  if (!series.ok()) return 0;
  auto again = repo::SeriesRecordFromJson(repo::ToJson(*series), "again");
  if (!again.ok() || again->versions != series->versions || again->series_id != series->series_id) {
    __builtin_trap();
  }
  return 0;
}
