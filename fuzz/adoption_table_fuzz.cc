// Fuzz target: an adoption table (docs/STORAGE.md §4.1), read through AdoptedDocs as the
// engine reads it (by name and by id). Invariants: decoding never throws or crashes; a
// table that decodes encodes to one that decodes to the same documents.
#include "record_input.h"
#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/adoption_table.h"
#include "repo/lookup/record_reader.h"
#include "storage/ids.h"
#include "storage/json_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  storage::MemFs fs;
  const storage::RepoLayout layout("d/r");
  const std::string folder = "f0123456789abcdef";
  const std::string path = layout.AdoptionTable(folder, 1);
  fuzz::PlaceFile(fs, path, fuzz::Input(data, size));
  repo::lookup::RecordReader records(fs, layout);
  repo::hand_edits::AdoptedDocs adopted(fs, layout, records);
  (void)adopted.Find(folder, "a.txt");
  auto all = adopted.All(folder);
  if (all.ok()) {
    for (const auto& [name, doc] : *all) {
      auto again = adopted.FindId(doc->entry.series_id);
      if (!again.ok() || *again == nullptr || (*again)->name != name) __builtin_trap();
      (void)doc->SeriesJson();
      (void)repo::hand_edits::AdoptedVersion(name, doc->entry);  // its version 1.0, as the builder makes it
    }
  }
  auto j = storage::ReadJsonFile(fs, path);
  if (!j.ok()) return 0;
  auto table = repo::hand_edits::AdoptionTableFromJson(*j, path);
  if (!table.ok()) return 0;
  auto text = storage::ParseStoredJson(repo::hand_edits::AdoptionTableText(*table), "again");
  if (!text.ok()) __builtin_trap();
  auto round = repo::hand_edits::AdoptionTableFromJson(*text, "again");
  if (!round.ok() || round->documents.size() != table->documents.size() || round->folder_id != table->folder_id) {
    __builtin_trap();
  }
  return 0;
}
