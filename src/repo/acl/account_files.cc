// Decoding and reading user and group files; see account_files.h.
#include "repo/acl/account_files.h"

#include <algorithm>

#include "repo/acl/secrets.h"
#include "repo/store_fs.h"
#include "storage/datetime.h"
#include "storage/layout.h"

namespace folio::acl {
namespace {

Status Bad(const std::string& what, const std::string& detail) {
  return StorageError("'" + what + "': " + detail);
}

Result<std::string> StringField(const Json& j, const char* key, const std::string& what) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return Bad(what, "field '" + std::string(key) + "' is missing or not a string");
  return it->get<std::string>();
}

int64_t TimeField(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return 0;
  return storage::StoredIsoMsOr(it->get_ref<const std::string&>(), 0);
}

Status CheckId(const std::string& id, std::string_view file_id, const char* field, const std::string& what) {
  if (id != file_id) {
    return Bad(what, "field '" + std::string(field) + "' is '" + id + "' but the file name says '" +
                         std::string(file_id) + "'");
  }
  Status s = CheckPrincipalId(id, field);
  if (!s.ok()) return Bad(what, s.message());
  return OkStatus();
}

// Lists `dir`, sorted by name; a missing directory is empty.
Result<std::vector<DirEntry>> ListSorted(Fs& fs, const std::string& dir) {
  auto entries = fs.List(dir);
  if (!entries.ok()) {
    if (IsMissing(entries.status())) return std::vector<DirEntry>();
    return entries.status();
  }
  std::sort(entries->begin(), entries->end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return std::move(*entries);
}

template <typename Record, typename Decode>
Status ReadDir(Fs& fs, const std::string& dir, Decode decode, std::vector<Record>& out, AccountFiles& files) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, ListSorted(fs, dir));
  for (const DirEntry& e : entries) {
    const std::string path = storage::JoinPath(dir, e.name);
    if (storage::IsTempName(e.name)) {
      files.temps.push_back(path);
      continue;
    }
    const std::optional<std::string> id = storage::PrincipalIdOfFile(e.name);
    if (!id || e.type != FileType::kFile) {
      files.bad.push_back({path, "'" + path + "' is not a '<id>.json' file"});
      continue;
    }
    auto stat = fs.Stat(path);
    if (stat.ok()) files.stats.emplace_back(path, *stat);
    auto j = storage::ReadJsonFile(fs, path);
    if (!j.ok()) {
      files.bad.push_back({path, j.status().message()});
      continue;
    }
    auto decoded = decode(*j, *id, path);
    if (!decoded.ok()) {
      files.bad.push_back({path, decoded.status().message()});
      continue;
    }
    out.push_back(std::move(*decoded));
  }
  return OkStatus();
}

}  // namespace

Json UserToJson(const UserRecord& user) {
  Json j = Json::object();
  j["userId"] = user.id;
  j["displayName"] = user.display_name;
  j["passwordHash"] = user.password_hash;
  j["apiKeyHash"] = user.api_key_hash.empty() ? Json(nullptr) : Json(user.api_key_hash);
  j["created"] = storage::FormatIsoMs(user.created_ms);
  j["lastModified"] = storage::FormatIsoMs(user.modified_ms);
  return j;
}

Json GroupToJson(const GroupRecord& group) {
  Json j = Json::object();
  j["groupId"] = group.id;
  j["members"] = group.members;
  j["created"] = storage::FormatIsoMs(group.created_ms);
  j["lastModified"] = storage::FormatIsoMs(group.modified_ms);
  return j;
}

Result<UserRecord> UserFromJson(const Json& j, std::string_view file_id, const std::string& what) {
  UserRecord u;
  FOLIO_ASSIGN_OR_RETURN(u.id, StringField(j, "userId", what));
  FOLIO_RETURN_IF_ERROR(CheckId(u.id, file_id, "userId", what));
  FOLIO_ASSIGN_OR_RETURN(u.display_name, StringField(j, "displayName", what));
  FOLIO_ASSIGN_OR_RETURN(u.password_hash, StringField(j, "passwordHash", what));
  // Never quote the field: it is a password hash.
  if (!IsPasswordHash(u.password_hash)) return Bad(what, "field 'passwordHash' is not an argon2id hash");
  auto key = j.find("apiKeyHash");
  if (key != j.end() && !key->is_null()) {
    if (!key->is_string() || !IsApiKeyHash(key->get_ref<const std::string&>())) {
      return Bad(what, "field 'apiKeyHash' is not a key hash (\"blake2b:\" and 64 hex digits)");
    }
    u.api_key_hash = key->get<std::string>();
  }
  u.created_ms = TimeField(j, "created");
  u.modified_ms = TimeField(j, "lastModified");
  return u;
}

Result<GroupRecord> GroupFromJson(const Json& j, std::string_view file_id, const std::string& what) {
  GroupRecord g;
  FOLIO_ASSIGN_OR_RETURN(g.id, StringField(j, "groupId", what));
  FOLIO_RETURN_IF_ERROR(CheckId(g.id, file_id, "groupId", what));
  auto members = j.find("members");
  if (members == j.end() || !members->is_array()) return Bad(what, "field 'members' is missing or not an array");
  for (const Json& m : *members) {
    if (!m.is_string()) return Bad(what, "field 'members' holds a value that is not a string: " + m.dump());
    Status s = CheckPrincipalId(m.get_ref<const std::string&>(), "member");
    if (!s.ok()) return Bad(what, s.message());
    g.members.push_back(m.get<std::string>());
  }
  g.created_ms = TimeField(j, "created");
  g.modified_ms = TimeField(j, "lastModified");
  return g;
}

Result<AccountFiles> ReadAccountFiles(Fs& fs, std::string_view domain_dir) {
  AccountFiles files;
  FOLIO_RETURN_IF_ERROR(ReadDir(fs, storage::UsersDir(domain_dir), UserFromJson, files.users, files));
  FOLIO_RETURN_IF_ERROR(ReadDir(fs, storage::GroupsDir(domain_dir), GroupFromJson, files.groups, files));
  return files;
}

Result<AccountFiles> ReadAccountFiles(Store& store, std::string_view domain_id) {
  return ReadAccountFiles(repo::StoreFs::Of(store), storage::DomainDir(domain_id));
}

}  // namespace folio::acl
