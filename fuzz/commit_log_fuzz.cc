// Fuzz target: the commit log (docs/STORAGE.md §8). The first input byte chooses what
// the rest is: 0 = the whole log file (header slots and frames, CRCs and all), read and
// scanned as recovery does; otherwise one record's JSON, framed with a valid CRC after
// a valid header, so that the record decoder itself is reached.
#include "record_input.h"
#include "storage/change_set.h"
#include "storage/commit_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace folio;
  if (size == 0) return 0;
  std::string_view rest = fuzz::Input(data + 1, size - 1);
  storage::MemFs fs;
  const std::string path = "d/r/.folio/log";
  if (data[0] == 0) {
    fuzz::PlaceFile(fs, path, rest);
  } else {
    auto j = storage::Json::parse(rest.begin(), rest.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return 0;
    // The decoder on its own, then inside a log as recovery meets it.
    (void)storage::DecodeChangeSet(j, "fuzz");
    fuzz::PlaceFile(fs, "d/r/.folio/keep", "");
    auto log = storage::CommitLog::Open(fs, path);
    if (!log.ok()) __builtin_trap();
    storage::LogHeader header;
    if (!(*log)->WriteHeader(header).ok()) __builtin_trap();
    if (!(*log)->Write(storage::kLogHeaderBytes, storage::Frame(j)).ok()) __builtin_trap();
  }
  auto log = storage::CommitLog::OpenExisting(fs, path);
  if (!log.ok()) return 0;
  auto header = (*log)->ReadHeader();
  if (!header.ok()) return 0;
  (void)(*log)->Scan(header->epoch, storage::kLogHeaderBytes, 0);
  (void)(*log)->Scan(header->epoch, header->applied_end, header->applied_lsn);
  return 0;
}
