// JSON <-> record structs; see records.h and docs/STORAGE.md.
#include "repo/records.h"

#include <algorithm>
#include <type_traits>

#include "repo/acl/ace_list.h"
#include "storage/clock.h"

namespace folio::repo {
namespace {

Status Bad(const std::string& what, const std::string& field) {
  return StorageError("'" + what + "': field '" + field + "' is missing or has the wrong type");
}

// Optional fields: the default when absent or of another type (nlohmann's value()
// throws on a type mismatch, and stored files may have been edited by hand).
std::string StringOr(const Json& j, const char* key, const std::string& fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}
bool BoolOr(const Json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}
template <typename T>
T NumberOr(const Json& j, const char* key, T fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<T>() : fallback;
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
    if (!e.is_object() || !e.contains("principal") || !e["principal"].is_string()) continue;
    Ace a;
    a.principal = e["principal"];
    auto perms = e.find("permissions");
    if (perms != e.end() && perms->is_array()) {
      for (const Json& p : *perms) {
        if (p.is_string()) a.permissions.push_back(p);
      }
    }
    out.push_back(std::move(a));
  }
  return out;
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
    } else {
      j["content"] = nullptr;
    }
  }
  j["acl"] = AclToJson(r.acl);
  return j;
}

namespace {

// ObjectRecordFromJson for a const record (copied out of it) or one the caller gives
// up (J = Json: the properties are moved out, not copied).
template <typename J>
Result<ObjectRecord> DecodeObjectRecord(J& j, const std::string& what) {
  ObjectRecord r;
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
  j["versions"] = r.versions;
  if (r.checked_out) {
    j["checkedOut"] = {{"by", r.checked_out->by},
                       {"since", storage::FormatIsoMs(r.checked_out->since_ms)},
                       {"from", r.checked_out->from}};
  } else {
    j["checkedOut"] = nullptr;
  }
  j["file"] = {{"size", r.file_size}, {"mtimeNs", r.file_mtime_ns}};
  return j;
}

Result<SeriesRecord> SeriesRecordFromJson(const Json& j, const std::string& what) {
  SeriesRecord r;
  if (!j.contains("seriesId") || !j["seriesId"].is_string()) return Bad(what, "seriesId");
  r.series_id = j["seriesId"];
  r.versionable = BoolOr(j, "versionable", true);
  if (!j.contains("versions") || !j["versions"].is_array()) return Bad(what, "versions");
  for (const Json& v : j["versions"]) {
    if (!v.is_string()) return Bad(what, "versions");
    r.versions.push_back(v);
  }
  if (j.contains("checkedOut") && !j["checkedOut"].is_null()) {
    const Json& c = j["checkedOut"];
    if (!c.is_object() || !c.contains("by") || !c["by"].is_string()) return Bad(what, "checkedOut.by");
    CheckOutRecord co;
    co.by = c["by"];
    co.since_ms = storage::ParseIsoMs(StringOr(c, "since", "")).value_or(0);
    co.from = StringOr(c, "from", "");
    r.checked_out = co;
  }
  if (j.contains("file") && j["file"].is_object()) {
    r.file_size = NumberOr<uint64_t>(j["file"], "size", 0);
    r.file_mtime_ns = NumberOr<int64_t>(j["file"], "mtimeNs", 0);
  }
  return r;
}

}  // namespace folio::repo
