// The on-disk id index; see id_index.h.
#include "storage/id_index.h"

#include "storage/atomic_write.h"

namespace folio::storage {

Json IndexEntryToJson(const IndexEntry& e) {
  return Json{{"kind", e.kind}, {"parent", e.parent}, {"name", e.name}, {"path", e.path}};
}

Result<IndexEntry> IndexEntryFromJson(const Json& j, const std::string& what) {
  IndexEntry e;
  for (const char* key : {"kind", "parent", "name", "path"}) {
    if (!j.contains(key) || !j[key].is_string()) {
      return StorageError("index entry '" + what + "' lacks the string field '" + key + "'");
    }
  }
  e.kind = j["kind"];
  e.parent = j["parent"];
  e.name = j["name"];
  e.path = j["path"];
  return e;
}

Result<IndexEntry> ReadIndexEntry(Fs& fs, const RepoLayout& layout, const std::string& id) {
  const std::string path = layout.IndexEntry(id);
  auto j = ReadJsonFile(fs, path);
  if (!j.ok()) {
    if (j.status().Is(std::errc::no_such_file_or_directory)) return ObjectNotFound("no object with id '" + id + "'");
    return j.status();
  }
  return IndexEntryFromJson(*j, path);
}

Status StageIndexEntry(Fs& fs, Transaction& tx, const RepoLayout& layout, const std::string& id,
                       const IndexEntry& entry) {
  FOLIO_RETURN_IF_ERROR(EnsureDir(fs, layout.IndexDir()));
  FOLIO_RETURN_IF_ERROR(EnsureDir(fs, layout.IndexShardDir(id)));
  return tx.WriteJson(layout.IndexEntry(id), IndexEntryToJson(entry)).status();
}

void StageIndexRemoval(Transaction& tx, const RepoLayout& layout, const std::string& id) {
  tx.Remove(layout.IndexEntry(id));
}

}  // namespace folio::storage
