// The on-disk id index; see id_index.h.
#include "storage/id_index.h"

#include "storage/json_access.h"

namespace folio::storage {

Json IndexEntryToJson(const IndexEntry& e) {
  return Json{{"kind", e.kind}, {"parent", e.parent}, {"name", e.name}, {"path", e.path}};
}

Result<IndexEntry> IndexEntryFromJson(const Json& j, const std::string& what) {
  IndexEntry e;
  std::string* fields[] = {&e.kind, &e.parent, &e.name, &e.path};
  const char* keys[] = {"kind", "parent", "name", "path"};
  for (int i = 0; i < 4; ++i) {
    auto v = StringField(j, keys[i]);
    if (!v) return StorageError("index entry '" + what + "' lacks the string field '" + keys[i] + "'");
    *fields[i] = std::move(*v);
  }
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

void StageIndexEntry(ChangeSet& change, const RepoLayout& layout, const std::string& id, const IndexEntry& entry) {
  change.MakeDir(layout.IndexDir());
  change.MakeDir(layout.IndexShardDir(id));
  change.PutJson(layout.IndexEntry(id), IndexEntryToJson(entry));
}

void StageIndexRemoval(ChangeSet& change, const RepoLayout& layout, const std::string& id) {
  change.Remove(layout.IndexEntry(id));
}

}  // namespace folio::storage
