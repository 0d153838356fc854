// A bounded in-memory cache of parsed JSON files, validated on every read by the
// file's device, inode, size and modification time (Fs::IdentityStat) (Folio replaces files by rename, so any
// change of ours gives a new inode; a change by hand changes mtime or inode). A file
// modified within the last 100 ms is not cached: its mtime may not yet be distinct from
// a further change in the same clock tick (the "racy" case, as git's index has it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "folio/fs.h"
#include "storage/file_memo.h"
#include "storage/json_file.h"

namespace folio::storage {

class JsonCache {
 public:
  // At most `capacity` files, taking at most `max_bytes` of memory: each entry counted
  // by JsonFootprint of its parse plus its path and bookkeeping (kEntryOverhead). The
  // count alone would let large records (a series listing thousands of versions) take
  // any amount of memory, and a record's size on disk is a fifth or less of its parse.
  // The newest entry is kept even when it alone is over `max_bytes`.
  explicit JsonCache(size_t capacity, uint64_t max_bytes = kDefaultMaxBytes)
      : memo_(capacity, max_bytes) {}
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{4} << 20;  // 4 MiB
  // Per entry besides the parse and the path: the map's and the LRU list's nodes, the
  // shared_ptr's block holding the top node.
  static constexpr uint64_t kEntryOverhead = 192;
  // The parsed file, from the cache when its stat matches, else read and parsed.
  // Errors: as ReadJsonFile. Thread-safe.
  Result<std::shared_ptr<const Json>> Read(Fs& fs, const std::string& path);
  // The cached parse of `path` WITHOUT validating it (nullptr if none): only for hints
  // that the caller verifies by other means (an index entry checked against the record).
  std::shared_ptr<const Json> Peek(const std::string& path);
  // Keeps `json` as the parse of `path` with identity `st`: what this process has just
  // written there (no read back). Unlike Read, a recent file is kept: a later change by
  // hand still gives it another identity, unless it is made in place, to the same size,
  // within the file system's time stamp granularity of Folio's write: the same window a
  // read of a just-written file has.
  void Remember(const std::string& path, const FileStat& st, std::shared_ptr<const Json> json);
  void Clear();
  // What the cache holds: entries, and the memory they take as counted against
  // max_bytes. Thread-safe.
  size_t size();
  uint64_t bytes();

 private:
  // What an entry counts against max_bytes (O(size of `json`): computed outside the
  // memo's lock).
  static uint64_t CostOf(const std::string& path, const Json& json);

  FileMemo<Json> memo_;
};

}  // namespace folio::storage
