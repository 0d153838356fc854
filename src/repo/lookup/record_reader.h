// Reading the records of a repository (docs/STORAGE.md §3-§6) through one cache of
// parsed JSON, validated by file identity on every read, and decoding them. Every part
// of the engine reads records here, so a record read twice in one request is parsed once
// (adoption tables excepted: repo/hand_edits/adopted_docs.h keeps their decodings, not their JSON).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "folio/fs.h"
#include "folio/repository_caches.h"
#include "repo/lookup/location.h"
#include "repo/lookup/memo_sweep.h"
#include "repo/records.h"
#include "storage/json_cache.h"
#include "storage/layout.h"

namespace folio::repo::lookup {

class RecordReader {
 public:
  // Keeps what `caches` allows (records, series).
  RecordReader(Fs& fs, const storage::RepoLayout& layout, const RepositoryCaches& caches = {})
      : fs_(fs), layout_(layout), cache_(caches.records, caches.record_bytes), max_series_(caches.series) {}

  // The parsed file (shared, immutable). Errors: kStorage (cause() from the filesystem;
  // no_such_file_or_directory when missing), kStorage naming an unparseable file.
  Result<std::shared_ptr<const storage::Json>> Read(const std::string& path);
  // The cached parse of `path` WITHOUT validation (nullptr if none): only a hint the
  // caller verifies by other means.
  std::shared_ptr<const storage::Json> Peek(const std::string& path);
  // What the engine's commit path has just written at `path` (see JsonCache::Remember).
  void Remember(const std::string& path, const FileStat& st, std::shared_ptr<const storage::Json> json) {
    cache_.Remember(path, st, std::move(json));
  }
  // Forgets every parse and decoding kept (see Repository::DropCaches).
  void DropCaches();

  // A folder, item, relationship, version or working-copy record. Errors: as Read, and
  // kStorage naming a field that is missing or of the wrong type.
  Result<ObjectRecord> ReadRecord(const std::string& path);
  // A document's series.json.
  Result<SeriesRecord> ReadSeries(const std::string& folder, const std::string& name);
  // The series of the document at `loc`: that of an adopted document (docs/STORAGE.md
  // §4.1) is the one `loc.record` holds, as its table's entry says; any other's is its
  // series.json.
  Result<SeriesRecord> ReadSeries(const Loc& loc);
  // The series record `json` decodes to, decoded once per cached JSON object (a long
  // series lists thousands of labels and every request by path needs the record).
  Result<std::shared_ptr<const SeriesRecord>> DecodeSeries(const std::shared_ptr<const storage::Json>& json,
                                                           const std::string& what);
  // How many decodings the memo holds (for tests of its bound).
  size_t SeriesMemoSize();
  // The record that stands for the document `name` in `folder` (its type, its ACL): its
  // latest version's, or its working copy's when it has no version yet. Errors: as
  // ReadRecord.
  Result<ObjectRecord> ReadDocumentRecord(const std::string& folder, const std::string& name,
                                          const SeriesRecord& series);
  // The id a folder's folder.json holds. Errors: as Read; kStorage if it has none.
  Result<std::string> FolderId(const std::string& folder);

 private:
  // A decoding lives as long as the parsed JSON it came from, no longer: the memo does
  // not keep the JSON alive (each write of a series.json makes a new one, and a memo
  // that held them kept every state of a busy document, each as long as its version
  // list). Entries whose JSON is gone are swept when the memo has doubled.
  struct SeriesMemo {
    std::weak_ptr<const storage::Json> json;  // its address is the key
    std::shared_ptr<const SeriesRecord> series;
  };

  Fs& fs_;
  const storage::RepoLayout& layout_;
  storage::JsonCache cache_;
  const size_t max_series_;
  std::mutex series_mu_;
  std::unordered_map<const storage::Json*, SeriesMemo> series_memo_;
  size_t sweep_at_ = kFirstMemoSweep;  // see repo/lookup/memo_sweep.h
};

}  // namespace folio::repo::lookup
