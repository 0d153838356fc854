// Adoption tables; see adoption_table.h.
#include "repo/adoption_table.h"

#include <limits>

#include "folio/cmis_ids.h"
#include "repo/staging.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/name_rules.h"

namespace folio::repo {
namespace {

constexpr const char* kSystemUser = "system";
constexpr int64_t kNoDate = std::numeric_limits<int64_t>::min();

Status Bad(const std::string& what, const std::string& field) {
  return StorageError("adoption table '" + what + "' has a missing or invalid field '" + field + "'");
}

}  // namespace

Json ToJson(const AdoptionTable& table) {
  Json docs = Json::object();
  for (const auto& [name, e] : table.documents) {
    docs[name] = Json{{"seriesId", e.series_id},
                      {"mimeType", e.mime_type},
                      {"created", storage::FormatIsoMs(e.created_ms)},
                      {"modified", storage::FormatIsoMs(e.modified_ms)},
                      {"file", {{"size", e.file_size}, {"mtimeNs", e.file_mtime_ns}, {"inode", e.file_inode}}}};
  }
  return Json{{"folder", table.folder_id}, {"documents", std::move(docs)}};
}

Result<AdoptionTable> AdoptionTableFromJson(const Json& j, const std::string& what) {
  AdoptionTable table;
  auto folder = storage::StringField(j, "folder");
  // A folder's id names the table's directory: it must be a path-safe object id.
  auto folder_id = folder ? storage::ParseObjectId(*folder) : std::nullopt;
  if (!folder_id || folder_id->label || folder_id->base != *folder) return Bad(what, "folder");
  table.folder_id = std::move(*folder);
  const Json* docs = storage::Member(j, "documents");
  if (docs == nullptr || !docs->is_object()) return Bad(what, "documents");
  for (const auto& [name, d] : docs->items()) {
    const std::string field = "documents." + name;
    // A name is a file of the folder: never a path, nor a name the format reserves.
    if (!storage::ValidateName(name).ok() || !d.is_object()) return Bad(what, field);
    AdoptedEntry e;
    auto series_id = storage::StringField(d, "seriesId");
    if (!series_id || storage::AdoptedFolderOf(*series_id) != table.folder_id) return Bad(what, field + ".seriesId");
    e.series_id = std::move(*series_id);
    auto mime = storage::StringField(d, "mimeType");
    if (!mime) return Bad(what, field + ".mimeType");
    e.mime_type = std::move(*mime);
    const int64_t created = storage::StoredIsoMsOr(storage::StringOr(d, "created", ""), kNoDate);
    const int64_t modified = storage::StoredIsoMsOr(storage::StringOr(d, "modified", ""), kNoDate);
    if (created == kNoDate) return Bad(what, field + ".created");
    if (modified == kNoDate) return Bad(what, field + ".modified");
    e.created_ms = created;
    e.modified_ms = modified;
    const Json* f = storage::Member(d, "file");
    auto size = f ? storage::UintField(*f, "size") : std::nullopt;
    auto mtime = f ? storage::IntField(*f, "mtimeNs") : std::nullopt;
    auto inode = f ? storage::UintField(*f, "inode") : std::nullopt;
    if (!size || !mtime || !inode) return Bad(what, field + ".file");
    e.file_size = *size;
    e.file_mtime_ns = *mtime;
    e.file_inode = *inode;
    table.documents.emplace(name, std::move(e));
  }
  return table;
}

bool SameIdentity(const AdoptedEntry& entry, const FileStat& st) {
  return st.size == entry.file_size && st.mtime_ns == entry.file_mtime_ns && st.inode == entry.file_inode;
}

void TakeIdentity(AdoptedEntry& entry, const FileStat& st) {
  entry.file_size = st.size;
  entry.file_mtime_ns = st.mtime_ns;
  entry.file_inode = st.inode;
  entry.modified_ms = st.mtime_ns / 1000000;
}

SeriesRecord AdoptedSeries(const AdoptedEntry& entry) {
  SeriesRecord s;
  s.series_id = entry.series_id;
  s.versions = {"1.0"};
  s.file_size = entry.file_size;
  s.file_mtime_ns = entry.file_mtime_ns;
  s.file_inode = entry.file_inode;
  return s;
}

ObjectRecord AdoptedVersion(const std::string& name, const AdoptedEntry& entry) {
  ObjectRecord rec;
  rec.label = "1.0";
  rec.major = true;
  rec.properties = NewObjectProperties(cmis::kDocument, kSystemUser, entry.created_ms);
  rec.properties[cmis::kName] = name;
  Touch(rec.properties, kSystemUser, entry.modified_ms);
  rec.content = ContentInfo{entry.file_size, entry.mime_type, name};
  return rec;
}

}  // namespace folio::repo
