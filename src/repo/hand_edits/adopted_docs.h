// Reading and staging adoption tables (docs/STORAGE.md §4.1): the documents of a folder
// that were found there (added by hand, or by folio import) and not changed through
// Folio since. Each is one entry of a table named by its folder's id; it has no series
// directory and no index entry until its first change gives it those (Materialize, in
// repo/hand_edits/adopter.h).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "folio/fs.h"
#include "folio/repository_caches.h"
#include "repo/hand_edits/adoption_table.h"
#include "repo/lookup/record_reader.h"
#include "storage/change_set.h"
#include "storage/file_memo.h"
#include "storage/layout.h"

namespace folio::repo::hand_edits {

// One adopted document as a table holds it. Lives as long as the decoding of its table
// (or longer, held by a request).
struct AdoptedDoc {
  AdoptedDoc(std::string f, std::string n, uint64_t t, AdoptedEntry e)
      : folder_id(std::move(f)), name(std::move(n)), table(t), entry(std::move(e)) {}
  std::string folder_id;
  std::string name;
  uint64_t table = 0;  // the n of the table file holding it
  AdoptedEntry entry;

  // The series.json the entry stands for (AdoptedSeries): what the record cache would
  // hand out for a file. Made once, and then the same object for as long as anything
  // holds it (a request's Loc, the object builder's memo of the document built of it),
  // so that built documents and kept answers are reused while the table is unchanged.
  // (Its version 1.0 record needs no JSON: the builder takes AdoptedVersion.) Held here
  // only weakly: made for every document of a folder (the query index's scan), such
  // records were 60% of what a server kept after adopting 10,000 files. Thread-safe.
  std::shared_ptr<const storage::Json> SeriesJson() const;

 private:
  mutable std::weak_ptr<const storage::Json> series_json_;  // guarded by MadeLock(this) (adopted_docs.cc)
};

// Thread-safe. Each table is decoded once per state of its file: the decoding is kept
// (storage::FileMemo, validated by the file's identity) rather than its JSON, and a
// table this process writes is kept as staged, not read back. A folder's tables hold
// at most 1,000 documents each (the Adopter's batches), and a lookup by name or id
// decodes only a table that may hold what it looks for: each table's keys (the hashes
// of its names and series ids) are kept longer than its decoding. Without them, a
// folder of 10,000 adopted documents had ten tables, more than the decodings kept, and
// every lookup decoded the tables before its own: a listing of that folder took
// minutes (bench/RESULTS.md).
class AdoptedDocs {
 public:
  // Keeps what `caches` allows (the adoption_* bounds).
  AdoptedDocs(Fs& fs, const storage::RepoLayout& layout, lookup::RecordReader& records,
              const RepositoryCaches& caches = {})
      : fs_(fs), layout_(layout), records_(records),
        tables_(std::make_shared<storage::FileMemo<Decoded>>(caches.adoption_tables, caches.adoption_table_bytes)),
        keys_(std::make_shared<storage::FileMemo<Keys>>(caches.adoption_keys, caches.adoption_key_bytes)),
        max_folders_(caches.adoption_folders) {}

  // The adopted document `name` of the folder `folder_id`; null when none. Errors:
  // kStorage when a table of the folder cannot be read or decoded (naming it).
  Result<std::shared_ptr<const AdoptedDoc>> Find(const std::string& folder_id, const std::string& name);
  // True when `file` (the identity of a file opened as a document's) is still the
  // content of the adopted document `series_id`: its entry under `name` in the tables
  // of the folder `folder_id` describes that very file. False once the document has
  // been given its own files (its first change through Folio, after which its file may
  // hold a later version) or its file was edited by hand. Errors: as Find.
  Result<bool> IsCurrentFile(const std::string& folder_id, const std::string& name, const std::string& series_id,
                             const FileStat& file);
  // The adopted document whose series id is `series_id` (its folder is named in the id,
  // storage::AdoptedFolderOf); null when none (also for an id of another form). Errors:
  // as Find.
  Result<std::shared_ptr<const AdoptedDoc>> FindId(const std::string& series_id);
  // Every adopted document of the folder, by name (a name in two tables, which only a
  // hand edit makes: the lowest-numbered table's). Errors: as Find.
  Result<std::map<std::string, std::shared_ptr<const AdoptedDoc>>> All(const std::string& folder_id);
  // As Find and All for the folder at the repository-relative path `folder`, whose id
  // its record holds: none when it has no record yet (a directory made by hand). Errors:
  // as Find; kStorage when the record cannot be read.
  Result<std::shared_ptr<const AdoptedDoc>> FindAt(const std::string& folder, const std::string& name);
  Result<std::map<std::string, std::shared_ptr<const AdoptedDoc>>> AllAt(const std::string& folder);

  // Staging, inside a Committer stage (the reads are the stage's own, so a change in
  // flight that rewrites a table makes the stage run again):
  // At commit, a new table of `folder_id`, numbered one above its highest, holds
  // `documents`. Errors: kStorage (the folder's tables unreadable).
  Status StageNewTable(storage::ChangeSet& change, const std::string& folder_id,
                       std::map<std::string, AdoptedEntry> documents);
  // At commit, `doc` is no longer in its table (a table left empty is removed). Several
  // documents of one table in one change: pass them together. Errors: kStorage.
  Status StageWithout(storage::ChangeSet& change, const std::vector<std::shared_ptr<const AdoptedDoc>>& docs);
  // At commit, `doc`'s entry is `entry` (an edit by hand taken in). Errors: kStorage.
  Status StageReplace(storage::ChangeSet& change, const AdoptedDoc& doc, const AdoptedEntry& entry);
  // At commit, the folder has no adoption tables (its tree deleted or removed).
  void StageRemoveFolder(storage::ChangeSet& change, const std::string& folder_id);

  // How many table decodings the memo holds, and what they take as it counts them
  // (for tests of its bound).
  size_t TableMemoSize();
  uint64_t TableMemoBytes();
  // How many tables were decoded (read and parsed, not found kept) by this object: for
  // tests that a lookup decodes only the table it needs.
  uint64_t TablesDecoded() const { return decoded_count_.load(std::memory_order_relaxed); }
  // Forgets the tables' decodings and numbers (see Repository::DropCaches).
  void DropCaches();

 private:
  struct Decoded {
    std::map<std::string, std::shared_ptr<const AdoptedDoc>> by_name;
    // The same documents by series id (FindId: a lookup by id, as a listing's every
    // child and the query index's scan make, must not walk the folder).
    std::unordered_map<std::string, std::shared_ptr<const AdoptedDoc>> by_series;
  };
  // A table in brief: the hashes (std::hash) of its documents' names and series ids,
  // each sorted. A table whose keys lack a hash does not hold what has it.
  struct Keys {
    std::vector<uint64_t> names;
    std::vector<uint64_t> series;
  };
  static std::shared_ptr<const Keys> KeysOf(const Decoded& decoded);
  static uint64_t CostOf(const Keys& keys);
  static uint64_t Hash(std::string_view s);
  // Which of a folder's tables a lookup reads: "names" or "series" keys.
  enum class KeyKind { kName, kSeries };
  // The decoding of the folder's table n when it may hold `hash` (a name's or series
  // id's, as `kind` says); nullptr when its keys, kept for the table file's present
  // state, say it does not. Errors: as Table.
  Result<std::shared_ptr<const Decoded>> TableIfMayHold(const std::string& folder_id, uint64_t n, KeyKind kind,
                                                        uint64_t hash);
  // A folder's table numbers as its directory listed them, kept while the directory's
  // inode and mtime stay the same (one stat instead of a listing per lookup).
  struct NumbersMemo {
    uint64_t dir_inode = 0;
    int64_t dir_mtime_ns = 0;
    std::vector<uint64_t> numbers;
  };

  // The folder's table numbers, ascending (none when it has no table directory). A
  // staging lists the directory every time: one that does so while a change in flight
  // adds or removes a table of the folder runs again (storage::Committer::CheckConflict),
  // which a listing kept from before could not tell.
  Result<std::vector<uint64_t>> Numbers(const std::string& folder_id);
  // The decoding of the folder's table n: kept, or read. Errors: kStorage (cause() from
  // the filesystem; no_such_file_or_directory when missing), kStorage naming a table
  // that does not parse or decode, or names another folder.
  Result<std::shared_ptr<const Decoded>> Table(const std::string& folder_id, uint64_t n);
  // As Table, given the identity stat of the table's file just taken (a lookup's).
  Result<std::shared_ptr<const Decoded>> Table(const std::string& folder_id, uint64_t n, const std::string& path,
                                               const FileStat& st);
  // The same as a table to change and stage again. Errors: as Table.
  Result<AdoptionTable> ReadTable(const std::string& folder_id, uint64_t n);
  // The table held by `bytes` (read from `path`); kStorage if it names another folder.
  static Result<AdoptionTable> Decode(std::string_view bytes, const std::string& folder_id, const std::string& path);
  static std::shared_ptr<const Decoded> MakeDecoded(const std::string& folder_id, uint64_t n, AdoptionTable table);
  // What a decoding counts against RepositoryCaches::adoption_table_bytes: its documents, their strings and the
  // nodes of both maps.
  static uint64_t CostOf(const Decoded& decoded);
  // At commit, the folder's table n holds `table` (written as AdoptionTableText), and
  // its decoding is kept once the apply has put the file (Action::written).
  void StageTable(storage::ChangeSet& change, const std::string& folder_id, uint64_t n, AdoptionTable table);
  // The id of the folder at `folder`; nullopt when it has no record.
  Result<std::optional<std::string>> FolderIdAt(const std::string& folder);

  Fs& fs_;
  const storage::RepoLayout& layout_;
  lookup::RecordReader& records_;
  // By the table's path. Shared with the reports of the changes staged (StageTable),
  // which hold it weakly: a change may be applied after its stager is gone (fsck
  // stages through an AdoptedDocs of its own).
  std::shared_ptr<storage::FileMemo<Decoded>> tables_;
  // The tables' keys, by the table's path; shared as tables_ is.
  std::shared_ptr<storage::FileMemo<Keys>> keys_;
  const size_t max_folders_;  // in numbers_memo_
  std::atomic<uint64_t> decoded_count_{0};
  std::mutex mu_;
  std::unordered_map<std::string, NumbersMemo> numbers_memo_;  // by folder id, guarded by mu_
};

}  // namespace folio::repo::hand_edits
