// The on-disk form of a domain's users and groups (docs/STORAGE.md, "Users and
// groups"): one pretty-printed JSON file per user in <domain>/.folio/users/ and per
// stored group in <domain>/.folio/groups/, named "<id>.json". Reading and decoding
// only; accounts.h changes them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "folio/fs.h"
#include "folio/store.h"
#include "repo/acl/principals.h"
#include "storage/json_file.h"

namespace folio::acl {

using storage::Json;

Json UserToJson(const UserRecord& user);
Json GroupToJson(const GroupRecord& group);
// Decodes a user file. `file_id` is the id its file name gives; `what` names the file
// in messages. Errors: kStorage naming the file and the field that is missing, of the
// wrong type or malformed (userId must equal `file_id` and match the id pattern;
// passwordHash must be an argon2id hash; apiKeyHash, when present, a key hash).
Result<UserRecord> UserFromJson(const Json& j, std::string_view file_id, const std::string& what);
// Decodes a group file; members must be an array of valid ids. Errors as UserFromJson.
Result<GroupRecord> GroupFromJson(const Json& j, std::string_view file_id, const std::string& what);

// One file of users/ or groups/ that could not be used, and why.
struct BadAccountFile {
  std::string path;  // data-directory-relative
  std::string message;
};

// What a domain's users/ and groups/ hold.
struct AccountFiles {
  std::vector<UserRecord> users;    // in file name order
  std::vector<GroupRecord> groups;  // in file name order
  std::vector<BadAccountFile> bad;  // unreadable or malformed: left out of the lists
  std::vector<std::string> temps;   // temp files of interrupted writes
  // The identity of every file read (Fs::Stat before reading it), to notice an edit
  // made in place later.
  std::vector<std::pair<std::string, FileStat>> stats;
};

// Reads every user and group file of the domain whose directory is `domain_dir`. A
// missing users/ or groups/ directory holds nothing. Errors: kStorage when a directory
// cannot be listed (a file that cannot be read or decoded goes to `bad` instead).
Result<AccountFiles> ReadAccountFiles(Fs& fs, std::string_view domain_dir);
// The same for the domain `domain_id` of `store`'s data directory (folio inspect).
Result<AccountFiles> ReadAccountFiles(Store& store, std::string_view domain_id);

}  // namespace folio::acl
