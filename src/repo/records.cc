// JSON <-> record structs; see records.h and docs/STORAGE.md.
#include "repo/records.h"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "repo/acl/ace_list.h"
#include "storage/datetime.h"
#include "storage/json_access.h"
#include "storage/layout.h"

namespace folio::repo {
namespace {

using storage::BoolOr;
using storage::Member;
using storage::StringField;
using storage::StringOr;

Status Bad(const std::string& what, const std::string& field) {
  return StorageError("'" + what + "': field '" + field + "' is missing or has the wrong type");
}

}  // namespace

Json AclToJson(const std::vector<Ace>& acl) {
  Json out = Json::array();
  for (const Ace& a : acl) out.push_back({{"principal", a.principal}, {"permissions", a.permissions}});
  return out;
}

std::vector<Ace> AclFromJson(const Json& j) {
  std::vector<Ace> out;
  if (!j.is_array()) return out;
  for (const Json& e : j) {
    auto principal = StringField(e, "principal");
    if (!principal) continue;
    Ace a;
    a.principal = std::move(*principal);
    if (const Json* perms = Member(e, "permissions"); perms != nullptr && perms->is_array()) {
      for (const Json& p : *perms) {
        if (p.is_string()) a.permissions.push_back(p.get<std::string>());
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

bool SameAcl(const std::vector<Ace>& a, const std::vector<Ace>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].principal != b[i].principal || a[i].permissions != b[i].permissions) return false;
  }
  return true;
}

std::vector<Ace> ApplyAces(std::vector<Ace> acl, const std::vector<Ace>& add, const std::vector<Ace>& remove) {
  return acl::ApplyAces(std::move(acl), add, remove);
}

Json ToJson(const ObjectRecord& r) {
  Json j = Json::object();
  if (!r.id.empty()) j["id"] = r.id;
  if (!r.label.empty()) {
    j["label"] = r.label;
    if (r.label != "pwc") j["major"] = r.major;
  }
  j["properties"] = r.properties;
  if (!r.label.empty()) {
    if (r.content) {
      j["content"] = {{"length", r.content->length},
                      {"mimeType", r.content->mime_type},
                      {"fileName", r.content->file_name}};
      // Absent while unknown (docs/STORAGE.md §4.2, Rule V5).
      if (!r.content->sha256.empty()) j["content"]["sha256"] = r.content->sha256;
    } else {
      j["content"] = nullptr;
    }
  }
  j["acl"] = AclToJson(r.acl);
  return j;
}

namespace {

bool IsSha256Hex(std::string_view s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// ObjectRecordFromJson for a const record (copied out of it) or one the caller gives
// up (J = Json: the properties are moved out, not copied).
template <typename J>
Result<ObjectRecord> DecodeObjectRecord(J& j, const std::string& what) {
  ObjectRecord r;
  if (!j.is_object()) return StorageError("'" + what + "' is not a JSON object");
  if (auto id = j.find("id"); id != j.end()) {
    if (!id->is_string()) return Bad(what, "id");
    r.id = id->template get_ref<const std::string&>();
  }
  if (auto label = j.find("label"); label != j.end()) {
    if (!label->is_string()) return Bad(what, "label");
    r.label = label->template get_ref<const std::string&>();
    if (r.label != "pwc") {
      auto major = j.find("major");
      if (major == j.end() || !major->is_boolean()) return Bad(what, "major");
      r.major = major->template get<bool>();
    }
  }
  auto props = j.find("properties");
  if (props == j.end() || !props->is_object()) return Bad(what, "properties");
  if constexpr (std::is_const_v<J>) {
    r.properties = *props;
  } else {
    r.properties = std::move(*props);
  }
  if (auto c = j.find("content"); c != j.end() && !c->is_null()) {
    auto length = c->is_object() ? c->find("length") : c->end();
    if (!c->is_object() || length == c->end() || !length->is_number_unsigned()) return Bad(what, "content.length");
    ContentInfo info;
    info.length = length->template get<uint64_t>();
    info.mime_type = StringOr(*c, "mimeType", "application/octet-stream");
    info.file_name = StringOr(*c, "fileName", "");
    // A digest that is not 64 lowercase hex digits (edited by hand) is unknown: nothing
    // can be checked against it.
    if (std::string sha = StringOr(*c, "sha256", ""); IsSha256Hex(sha)) info.sha256 = std::move(sha);
    r.content = std::move(info);
  }
  if (auto acl = j.find("acl"); acl != j.end()) r.acl = AclFromJson(*acl);
  return r;
}

}  // namespace

Result<ObjectRecord> ObjectRecordFromJson(const Json& j, const std::string& what) {
  return DecodeObjectRecord(j, what);
}

Result<ObjectRecord> ObjectRecordFromJson(Json&& j, const std::string& what) { return DecodeObjectRecord(j, what); }

Json ToJson(const SeriesRecord& r) {
  Json j = Json::object();
  j["seriesId"] = r.series_id;
  j["versionable"] = r.versionable;
  if (!r.archived.empty()) {
    Json archived = Json::array();
    for (const VersionArchive& a : r.archived) {
      archived.push_back({{"file", storage::VersionArchiveName(a.number)},
                          {"first", a.first},
                          {"last", a.last},
                          {"count", a.count},
                          {"latestMajor", a.latest_major}});
    }
    j["archived"] = std::move(archived);
  }
  j["versions"] = r.versions;
  if (r.checked_out) {
    j["checkedOut"] = {{"by", r.checked_out->by},
                       {"since", storage::FormatIsoMs(r.checked_out->since_ms)},
                       {"from", r.checked_out->from}};
  } else {
    j["checkedOut"] = nullptr;
  }
  j["file"] = {{"size", r.file_size}, {"mtimeNs", r.file_mtime_ns}, {"inode", r.file_inode}};
  return j;
}

Result<SeriesRecord> SeriesRecordFromJson(const Json& j, const std::string& what) {
  SeriesRecord r;
  auto series_id = StringField(j, "seriesId");
  if (!series_id) return Bad(what, "seriesId");
  r.series_id = std::move(*series_id);
  r.versionable = BoolOr(j, "versionable", true);
  if (const Json* archived = Member(j, "archived"); archived != nullptr) {
    if (!archived->is_array()) return Bad(what, "archived");
    for (const Json& e : *archived) {
      VersionArchive a;
      auto file = StringField(e, "file");
      std::optional<uint64_t> number = file ? storage::VersionArchiveNumber(*file) : std::nullopt;
      if (!number) return Bad(what, "archived[].file");
      a.number = *number;
      auto first = StringField(e, "first");
      auto last = StringField(e, "last");
      auto count = storage::UintField(e, "count");
      if (!first || !last || !count || *count == 0) return Bad(what, "archived[] first, last, count");
      a.first = std::move(*first);
      a.last = std::move(*last);
      a.count = *count;
      a.latest_major = StringOr(e, "latestMajor", "");
      r.archived.push_back(std::move(a));
    }
  }
  const Json* versions = Member(j, "versions");
  if (versions == nullptr || !versions->is_array()) return Bad(what, "versions");
  r.versions.reserve(versions->size());
  for (const Json& v : *versions) {
    if (!v.is_string()) return Bad(what, "versions");
    r.versions.push_back(v.get_ref<const std::string&>());
  }
  if (const Json* c = Member(j, "checkedOut"); c != nullptr && !c->is_null()) {
    auto by = StringField(*c, "by");
    if (!by) return Bad(what, "checkedOut.by");
    CheckOutRecord co;
    co.by = std::move(*by);
    co.since_ms = storage::StoredIsoMsOr(StringOr(*c, "since", ""), 0);
    co.from = StringOr(*c, "from", "");
    r.checked_out = co;
  }
  if (const Json* f = Member(j, "file"); f != nullptr) {
    r.file_size = storage::UintField(*f, "size").value_or(0);
    r.file_mtime_ns = storage::IntField(*f, "mtimeNs").value_or(0);
    r.file_inode = storage::UintField(*f, "inode").value_or(0);
  }
  return r;
}

Json VersionArchiveToJson(const std::string& series_id, const std::vector<std::string>& labels) {
  Json j = Json::object();
  j["seriesId"] = series_id;
  j["versions"] = labels;
  return j;
}

Result<std::vector<std::string>> VersionArchiveFromJson(const Json& j, const std::string& what,
                                                        const std::string& series_id, const VersionArchive& a) {
  if (StringOr(j, "seriesId", "") != series_id) return Bad(what, "seriesId");
  const Json* versions = Member(j, "versions");
  if (versions == nullptr || !versions->is_array()) return Bad(what, "versions");
  std::vector<std::string> labels;
  labels.reserve(versions->size());
  for (const Json& v : *versions) {
    if (!v.is_string()) return Bad(what, "versions");
    labels.push_back(v.get_ref<const std::string&>());
  }
  if (labels.size() != a.count || labels.front() != a.first || labels.back() != a.last) {
    return StorageError("'" + what + "' does not list the " + std::to_string(a.count) + " labels from " + a.first +
                        " to " + a.last + " that series.json describes");
  }
  return labels;
}

}  // namespace folio::repo
