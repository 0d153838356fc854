// Writing the query index: an object's row (its properties, its full text), a document
// series' rows, a folder's subtree; and applying change events by re-reading what they
// name through the Repository API (the files are the truth; an event says only which
// object to look at again). Callers group calls into transactions (Begin/Commit).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "folio/repository.h"
#include "repo/query/change_event.h"
#include "repo/query/sqlite.h"

namespace folio::query {

// A value of the meta table (schema.h), or nullopt when the key is absent.
Result<std::optional<int64_t>> ReadMeta(Db& db, const std::string& key);

class IndexWriter {
 public:
  // `db` must hold the schema (schema.h). Not thread-safe: one writer per connection.
  IndexWriter(Db& db, Repository& repo) : db_(db), repo_(repo) {}

  // Bulk loading into empty tables (a build): Put inserts without looking for an existing
  // row first (falling back to the usual path if one exists after all).
  void SetBulk(bool bulk) { bulk_ = bulk; }

  Status Begin();  // BEGIN IMMEDIATE: other processes' writers wait
  Status Commit();
  void Rollback();

  // Inserts or replaces the row of `object` (a folder, item, relationship or document
  // version; a working copy is ignored), keeping its row id. Re-reads the content for
  // the full-text index only when the name, content or modification time changed; the
  // principals its ACL lets read always (an ACL changes without a new modification time).
  // A folder whose path changed takes the paths of the folders below it along.
  // `text`: the document's text when the caller has read it already (a build).
  Status Put(const ObjectData& object, const std::string* text = nullptr);
  // Replaces the rows of document series `series_id` with its versions as the
  // repository has them now (none if the series is gone). Reads every version.
  Status ReindexSeries(const std::string& series_id);
  // Brings the rows of the series of `changed` (a version or working copy just read)
  // in step after a change that removed no version: puts `changed`, the latest version,
  // and the versions the index holds as latest, latest major or current (whose flags a
  // new version turns off), and sets the series' check-out columns on the other rows,
  // which nothing else of theirs changes (an earlier version never changes:
  // docs/STORAGE.md §4.2). A version gone, the series in another folder than its rows
  // say, or one unreadable: ReindexSeries. So a check-in reads a few versions, not the
  // whole series.
  Status RefreshSeries(const ObjectData& changed);
  // Objects read from the repository by this writer so far (tests, benchmarks).
  uint64_t objects_read() const { return objects_read_; }
  // Removes folder `folder_id` and everything filed below it.
  Status RemoveSubtree(const std::string& folder_id);
  // The ids of the rows filed in folder `folder_id` under `name`.
  Result<std::vector<std::string>> IdsFiledAs(const std::string& folder_id, const std::string& name);
  // Brings the rows of the object `event` names in step with the repository. Events
  // are to be applied in token order, each one once: a creation of an object that has
  // a row already is then in it (see Apply).
  Status Apply(const ChangeEvent& event);

  // meta: a value, or nullopt when the key is absent.
  Result<std::optional<int64_t>> GetMeta(const std::string& key);
  Status SetMeta(const std::string& key, int64_t value);
  // Removes every key starting with `prefix`.
  Status ClearMeta(const std::string& prefix);
  // The keys starting with `prefix`, in order.
  Result<std::vector<std::string>> MetaKeys(const std::string& prefix);

 private:
  struct Existing {
    int64_t rid = 0;
    std::string text_key;
    std::string path;
    bool is_folder = false;
  };
  Result<std::optional<Existing>> Find(const std::string& object_id);
  Status RemoveRow(int64_t rid);
  // `fresh`: the row was just inserted, so it has no props or full-text row to replace.
  Status PutProps(int64_t rid, const ObjectData& object, bool fresh);
  // The principals `o`'s ACL lets read (schema.h, readers).
  Status PutReaders(int64_t rid, const ObjectData& o, bool fresh);
  Status PutText(int64_t rid, const ObjectData& object, const std::string& text_key, const std::string* text,
                 bool fresh);
  // The prepared statement for `sql`, reset; prepared once per writer (a rebuild runs
  // each of them for every object).
  Result<Stmt*> Cached(const std::string& sql);

  // Bulk: inserts the new row of `o`; false if a row of that id exists already.
  Result<bool> InsertNew(const ObjectData& o, const std::string* text);

  Db& db_;
  Repository& repo_;
  bool bulk_ = false;
  uint64_t objects_read_ = 0;
  std::map<std::string, Stmt> cache_;
};

}  // namespace folio::query
