// The JSON records of the format (docs/STORAGE.md) and their conversion to structs:
// folder.json, item.json, relationship files, series.json, <label>.json, pwc.json.
// Stored properties keep datetimes as ISO 8601 text so that a person can read them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "folio/object.h"
#include "storage/json_file.h"

namespace folio::repo {

// folder.json, item.json, relationships/<id>.json, <label>.json and pwc.json.
struct ObjectRecord {
  std::string id;     // folders, items, relationships; "" in version files
  std::string label;  // version files: "1.0"; pwc.json: "pwc"
  bool major = false; // version files
  Json properties = Json::object();  // stored properties (not derived ones), ISO datetimes
  std::optional<ContentInfo> content;  // documents
  std::vector<Ace> acl;
};

struct CheckOutRecord {
  std::string by;
  int64_t since_ms = 0;
  std::string from;  // the label that was checked out; "" for a document created checked out
};

// One archive of older version labels, as series.json describes it (docs/STORAGE.md
// §4, repo/versions/version_list.h): the file "versions-<number>.json" in the series directory
// lists `count` labels from `first` to `last`, oldest first.
struct VersionArchive {
  uint64_t number = 0;
  std::string first;
  std::string last;
  uint64_t count = 0;
  std::string latest_major;  // its newest major label; "" if it holds none
};

// series.json: the state of one document's version series.
struct SeriesRecord {
  std::string series_id;
  bool versionable = true;
  // The labels of the versions, oldest first: those archived, then `versions`, the
  // newest (the latest is versions.back(); `versions` is empty only when the series has
  // no version at all). Every archived label precedes versions.front().
  std::vector<VersionArchive> archived;  // oldest first
  std::vector<std::string> versions;
  std::optional<CheckOutRecord> checked_out;
  // The user-visible file as Folio last wrote it (filled in when the change is
  // applied, see storage::ChangeSet::PutStamped); a difference means an edit by hand.
  uint64_t file_size = 0;
  int64_t file_mtime_ns = 0;
  uint64_t file_inode = 0;
};

Json ToJson(const ObjectRecord& r);
Result<ObjectRecord> ObjectRecordFromJson(const Json& j, const std::string& what);
// The same, taking the properties out of `j` instead of copying them.
Result<ObjectRecord> ObjectRecordFromJson(Json&& j, const std::string& what);
Json ToJson(const SeriesRecord& r);
// Never throws; a malformed archive description (an archive file name that is not
// "versions-<n>.json", a missing field) is an error naming the field.
Result<SeriesRecord> SeriesRecordFromJson(const Json& j, const std::string& what);
// "versions-<n>.json": the labels of one archive.
Json VersionArchiveToJson(const std::string& series_id, const std::vector<std::string>& labels);
// The labels of archive `a` of series `series_id` as its file `j` lists them. Errors
// (kStorage naming `what`): not an archive of that series, or not the labels `a` says.
Result<std::vector<std::string>> VersionArchiveFromJson(const Json& j, const std::string& what,
                                                        const std::string& series_id, const VersionArchive& a);

Json AclToJson(const std::vector<Ace>& acl);
std::vector<Ace> AclFromJson(const Json& j);
// True when `a` and `b` hold the same entries in the same order.
bool SameAcl(const std::vector<Ace>& a, const std::vector<Ace>& b);
// acl::ApplyAces (repo/acl/ace_list.h): adds `add` then removes `remove`.
std::vector<Ace> ApplyAces(std::vector<Ace> acl, const std::vector<Ace>& add, const std::vector<Ace>& remove);

}  // namespace folio::repo
