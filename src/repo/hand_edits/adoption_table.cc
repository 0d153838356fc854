// Adoption tables; see adoption_table.h.
#include "repo/hand_edits/adoption_table.h"

#include <charconv>
#include <limits>

#include "folio/cmis_ids.h"
#include "repo/changes/staging.h"
#include "storage/datetime.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/json_text.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {
namespace {

constexpr int64_t kNoDate = std::numeric_limits<int64_t>::min();

Status Bad(const std::string& what, const std::string& field) {
  return StorageError("adoption table '" + what + "' has a missing or invalid field '" + field + "'");
}

}  // namespace

std::string AdoptionTableText(const AdoptionTable& table) {
  // As storage::SerializeJson would print the table's JSON value, written directly: a
  // table lists up to kAdoptionBatch documents, and its value took four times the
  // memory of its text while a folder of new files was adopted (bench/RESULTS.md).
  // Reserved whole (a string grown by doubling holds up to twice its text): an entry
  // takes 233 bytes besides its strings and numbers, each number at most 20.
  constexpr size_t kPerEntry = 233 + 3 * 20;
  size_t size = 64 + table.folder_id.size();
  for (const auto& [name, e] : table.documents) {
    size += kPerEntry + name.size() + e.series_id.size() + e.mime_type.size();
  }
  std::string out;
  out.reserve(size);
  const auto number = [&out](auto n) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
  };
  out += "{\n  \"folder\": ";
  storage::AppendJsonString(out, table.folder_id);
  out += ",\n  \"documents\": {";
  bool first = true;
  for (const auto& [name, e] : table.documents) {
    out += first ? "\n    " : ",\n    ";
    first = false;
    storage::AppendJsonString(out, name);
    out += ": {\n      \"seriesId\": ";
    storage::AppendJsonString(out, e.series_id);
    out += ",\n      \"mimeType\": ";
    storage::AppendJsonString(out, e.mime_type);
    out += ",\n      \"created\": ";
    storage::AppendJsonString(out, storage::FormatIsoMs(e.created_ms));
    out += ",\n      \"modified\": ";
    storage::AppendJsonString(out, storage::FormatIsoMs(e.modified_ms));
    out += ",\n      \"file\": {\n        \"size\": ";
    number(e.file_size);
    out += ",\n        \"mtimeNs\": ";
    number(e.file_mtime_ns);
    out += ",\n        \"inode\": ";
    number(e.file_inode);
    out += "\n      }\n    }";
  }
  out += first ? "}\n}\n" : "\n  }\n}\n";
  return out;
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
  rec.properties = changes::NewObjectProperties(cmis::kDocument, kAdoptingUser, entry.created_ms);
  rec.properties[cmis::kName] = name;
  changes::Touch(rec.properties, kAdoptingUser, entry.modified_ms);
  rec.content = ContentInfo{entry.file_size, entry.mime_type, name, ""};  // digest unknown
  return rec;
}

}  // namespace folio::repo::hand_edits
