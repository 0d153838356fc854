// Every on-disk name of the Folio format (docs/STORAGE.md). One function builds each
// kind of path; no other file concatenates storage paths. Paths are relative to the
// data directory, '/'-separated; a "folder path" is relative to the repository ("" is
// the root folder).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace folio::storage {

// The hidden metadata directory of every data, domain, repository and folder directory.
inline constexpr std::string_view kMetaDir = ".folio";
// Every name starting with this (ASCII case-insensitively) belongs to the format:
// metadata directories, temporary files of interrupted writes, trash.
inline constexpr std::string_view kReservedPrefix = ".folio";
inline constexpr std::string_view kTempPrefix = ".folio-tmp-";
// Temporary files of a tool that copies files into the tree (folio import): .folio-tmp-import-<pid>-...
inline constexpr std::string_view kToolTempPrefix = ".folio-tmp-import-";

// True for names the storage format reserves (refused as object names).
bool IsReservedName(std::string_view name);
// True for temporary files and directories of unfinished writes.
bool IsTempName(std::string_view name);

// Joins non-empty parts with '/'.
std::string JoinPath(std::string_view a, std::string_view b);
std::string JoinPath(std::string_view a, std::string_view b, std::string_view c);
// "a/b/c" -> "a/b"; "c" -> "".
std::string ParentPath(std::string_view path);
// "a/b/c" -> "c".
std::string BaseName(std::string_view path);
// True when `path` is `dir` itself or a path below it ("a/b" is at or below "a", "ab" is not).
bool IsAtOrBelow(std::string_view path, std::string_view dir);

// Data-directory level.
std::string ServerMetaDir();                        // .folio
std::string ServerLockFile();                       // .folio/lock
std::string DataMarkerFile();                       // .folio/folio.json (marks a data directory)
// Held (shared flock) by every `folio serve` of the data directory for its life:
// .folio/serving, or .folio/serving-read-only for a --read-only server.
std::string ServingLockFile(bool read_only);
std::string ServerTrash(std::string_view id);       // .folio/trash-<id> (a deleted domain or repository)
bool IsServerTrashName(std::string_view name);      // "trash-<id>", a name in .folio
std::string DomainDir(std::string_view domain);     // demo
std::string DomainMetaDir(std::string_view domain); // demo/.folio
std::string DomainFile(std::string_view domain);    // demo/.folio/domain.json

// A domain's users and groups (docs/STORAGE.md §11). `domain` is the
// domain's directory (a temp directory while the domain is being created).
std::string DomainLockFile(std::string_view domain);    // demo/.folio/lock
std::string DomainJournalDir(std::string_view domain);  // demo/.folio/journal (format 1's, read for recovery)
std::string UsersDir(std::string_view domain);          // demo/.folio/users
std::string UserFile(std::string_view domain, std::string_view user_id);     // .../users/<id>.json
std::string GroupsDir(std::string_view domain);         // demo/.folio/groups
std::string GroupFile(std::string_view domain, std::string_view group_id);  // .../groups/<id>.json
// The user or group id a file name in UsersDir or GroupsDir stands for ("alice.json" ->
// "alice"); nullopt for temp files and names not ending in ".json".
std::optional<std::string> PrincipalIdOfFile(std::string_view file_name);

// Paths inside one repository: `base` is "domain/repository".
class RepoLayout {
 public:
  explicit RepoLayout(std::string base) : base_(std::move(base)) {}
  const std::string& base() const { return base_; }

  std::string MetaDir() const;                       // R/.folio
  std::string RepositoryFile() const;                // R/.folio/repository.json
  std::string LockFile() const;                      // R/.folio/lock
  std::string JournalDir() const;                    // R/.folio/journal (format 1's, read for recovery)
  std::string LogFile() const;                       // R/.folio/log (the commit log)
  std::string ChangesDir() const;                    // R/.folio/changes (the change log)
  std::string QueryIndexFile() const;                // R/.folio/query.sqlite (rebuilt when missing)
  std::string QueryIndexLockFile() const;            // R/.folio/query.lock
  std::string IndexDir() const;                      // R/.folio/index
  std::string IndexShardDir(std::string_view id) const;  // R/.folio/index/xy
  std::string IndexEntry(std::string_view id) const;     // R/.folio/index/xy/<id>.json
  std::string TypesDir() const;                      // R/.folio/types
  std::string TypeFile(std::string_view type_id) const;  // R/.folio/types/<escaped id>.json
  std::string TypeUsageDir() const;                  // R/.folio/typed
  // R/.folio/typed/<escaped id>: one marker per object of a custom type
  std::string TypeUsageDir(std::string_view type_id) const;
  std::string TypeUsageMarker(std::string_view type_id, std::string_view object_id) const;
  std::string RelationshipsDir() const;              // R/.folio/relationships
  std::string RelationshipFile(std::string_view id) const;
  std::string UploadsDir() const;                    // R/.folio/uploads
  std::string TrashDir() const;                      // R/.folio/trash
  std::string SpareDir() const;                      // R/.folio/spare (storage/spare_pool.h)
  std::string LostFoundDir() const;                  // R/.folio/lost+found
  std::string CheckedOutDir() const;                 // R/.folio/checkedout
  std::string CheckedOutMarker(std::string_view series_id) const;  // .../checkedout/<series id>
  // Adoption tables (docs/STORAGE.md §4.1): documents found in a folder and not changed
  // since, named by the folder's id (which must be a valid object id).
  std::string AdoptedDir() const;                                   // R/.folio/adopted
  std::string AdoptedFolderDir(std::string_view folder_id) const;   // R/.folio/adopted/<folderId>
  std::string AdoptionTable(std::string_view folder_id, uint64_t n) const;  // .../<folderId>/<n>.json

  // A folder (by repository-relative path) and what its .folio holds.
  // R/<folder>; given a document's path, its file (as Child of its parent gives it).
  std::string Dir(std::string_view folder) const;
  std::string FolderMeta(std::string_view folder) const;     // R/<folder>/.folio
  std::string FolderFile(std::string_view folder) const;     // .../.folio/folder.json
  std::string DocsDir(std::string_view folder) const;        // .../.folio/docs
  std::string ItemsDir(std::string_view folder) const;       // .../.folio/items
  // R/<folder>/.folio/folders: one marker per subfolder, named after it, holding its id
  // (docs/STORAGE.md §3).
  std::string FolderMarkersDir(std::string_view folder) const;
  // The marker of the folder at `folder_path` (not the root) in its parent:
  // R/<parent>/.folio/folders/<name>.
  std::string FolderMarker(std::string_view folder_path) const;
  // The user-visible file of a document, or a child folder's directory.
  std::string Child(std::string_view folder, std::string_view name) const;

  // A document series `name` in `folder`.
  std::string SeriesDir(std::string_view folder, std::string_view name) const;
  std::string SeriesFile(std::string_view folder, std::string_view name) const;  // series.json
  std::string VersionProps(std::string_view folder, std::string_view name, std::string_view label) const;
  std::string VersionContent(std::string_view folder, std::string_view name, std::string_view label) const;
  // versions-<number>.json: an archive of older labels (repo/versions/version_list.h)
  std::string VersionArchive(std::string_view folder, std::string_view name, uint64_t number) const;
  std::string PwcProps(std::string_view folder, std::string_view name) const;    // pwc.json
  std::string PwcContent(std::string_view folder, std::string_view name) const;  // pwc.content

  // An item `name` in `folder`.
  std::string ItemDir(std::string_view folder, std::string_view name) const;
  std::string ItemFile(std::string_view folder, std::string_view name) const;   // item.json

 private:
  std::string base_;
};

// The files through which a domain's own changes (its users and groups) are committed
// (storage/committer.h): lock, commit log, trash, uploads and the format-1 journal in
// the domain's .folio, named as a repository names them in its own (the Committer uses
// only those of RepoLayout's names, all below MetaDir()). `domain` as for UsersDir.
RepoLayout DomainCommitLayout(std::string_view domain);

// File names inside a series directory.
inline constexpr std::string_view kSeriesFileName = "series.json";
inline constexpr std::string_view kPwcPropsName = "pwc.json";
inline constexpr std::string_view kPwcContentName = "pwc.content";
inline constexpr std::string_view kFolderFileName = "folder.json";
// The directory of checked-out markers in a repository's .folio.
inline constexpr std::string_view kCheckedOutDirName = "checkedout";
inline constexpr std::string_view kItemFileName = "item.json";

// "<label>.json" and "<label>.content": a version's files inside its series directory.
std::string VersionPropsName(std::string_view label);
std::string VersionContentName(std::string_view label);
// ".folio/folder.json": a folder's record relative to the folder's directory (what a
// guard on the folder names).
std::string FolderFileInDir();
// "<id>.json": the file of a record named after an id (a relationship, an index entry,
// a journal record), and back: the id, nullopt for any other name.
std::string RecordFileName(std::string_view id);
std::optional<std::string> IdOfRecordFileName(std::string_view file_name);

// The change log's segments (docs/STORAGE.md §8): "<first token, 20 digits>.jsonl",
// and back (nullopt for any other name); the marker file of a log whose oldest events
// were dropped.
std::string ChangeLogSegmentName(uint64_t first_token);
std::optional<uint64_t> ChangeLogSegmentFirst(std::string_view file_name);
inline constexpr std::string_view kChangeLogTruncatedName = "truncated";

// The number n of an adoption table's file name "<n>.json" (n >= 1, no leading zero);
// nullopt for any other name.
std::optional<uint64_t> AdoptionTableNumber(std::string_view file_name);
// "versions-<n>.json": an archive of a series' older version labels, and back (n >= 1,
// no leading zero; nullopt for any other name).
inline constexpr std::string_view kVersionArchivePrefix = "versions-";
std::string VersionArchiveName(uint64_t number);
std::optional<uint64_t> VersionArchiveNumber(std::string_view file_name);
// A decimal number of 1 to 18 digits without a leading zero; nullopt for anything else.
std::optional<uint64_t> NumberOf(std::string_view digits);

// What a file name inside a series directory is: "2.1.json" -> {label "2.1", props}.
struct SeriesFileName {
  enum class Kind { kSeries, kVersionProps, kVersionContent, kVersionArchive, kPwcProps, kPwcContent, kTemp, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string label;  // for version files
};
SeriesFileName ClassifySeriesFile(std::string_view file_name);

}  // namespace folio::storage
