// What fsck learns from one walk over the data directory: the files, records, ids and
// index entries the checks compare. The walk only reads; it never fails as a whole on
// a bad file (an unreadable or garbage file becomes a fact that a check reports).
// All paths are data-directory-relative unless a field says otherwise.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "repo/hand_edits/adoption_table.h"
#include "repo/records.h"
#include "storage/commit_log.h"
#include "storage/id_index.h"
#include "storage/journal.h"
#include "storage/json_file.h"
#include "storage/layout.h"

namespace folio::fsck {

struct SpecialFile {
  std::string path;
  FileType type = FileType::kSymlink;  // kSymlink or kOther
  // What the operator meant it to be when it stands where Folio looks for a domain, a
  // repository or a repository's .folio ("a domain", ...): then it is data not served
  // (symlink-not-served, a warning). nullptr: a file among content (symlink-ignored).
  const char* in_place_of = nullptr;
};

// A record (or the directory that should hold one) that cannot be used.
struct BadRecord {
  std::string path;     // the file (or directory) at fault
  std::string problem;  // what is wrong, lowercase, naming the file
  std::string move;     // what --repair moves to lost+found ("" if nothing)
};

// An object found in the tree: a folder, document series, item or relationship (each
// indexed), or an adopted document (docs/STORAGE.md §4.1: indexed only once it has a
// series).
struct RecordFact {
  std::string id;
  std::string kind;                   // "folder", "document", "item", "relationship"
  std::optional<std::string> parent;  // nullopt: the parent folder has no usable record
  std::string name;
  std::string path;    // repository-relative object path (an index entry's 'path')
  std::string record;  // the record file: folder.json, series.json, item.json, <id>.json, an adoption table
  std::string move;    // what --repair moves to lost+found if the id is a duplicate ("" for an adopted one)
  bool adopted = false;  // an entry of the adoption table `record` (named `name`): it has no index entry
};

// A record that names an object type (every object and version record).
struct TypedRecord {
  std::string record;
  std::optional<std::string> type_id;  // nullopt: cmis:objectTypeId is not a string
};

// The <label>.json / <label>.content pair of one label in a series directory.
struct LabelFiles {
  bool json = false;
  bool content = false;
  uint64_t content_size = 0;
  uint64_t content_inode = 0;  // with the visible file's, tells a link to it
  std::string json_path;
  std::string content_path;
  std::optional<repo::ObjectRecord> record;  // the parsed .json
  std::string record_error;                  // why it did not parse
};

struct SeriesFact {
  std::string folder;  // repository-relative folder holding the document
  std::string name;
  std::string dir;                           // the series directory
  std::string series_file;                   // its series.json
  std::optional<repo::SeriesRecord> series;  // nullopt: see RepoFacts::bad_records
  storage::Json series_json;                 // as stored, for rewriting
  std::map<std::string, LabelFiles> labels;  // by label; the working copy is "pwc"
  // Every version label, oldest first: the archived ones (as far as their archives are
  // readable), then those series.json lists (repo/versions/version_list.h).
  std::vector<std::string> all_labels;
  std::map<uint64_t, std::string> archive_files;  // "versions-<n>.json" found: n -> path
  // An archive series.json describes that is missing, unreadable or holds other labels:
  // (path, what is wrong).
  std::vector<std::pair<std::string, std::string>> archive_errors;
  std::string visible;                       // the user-visible file
  std::optional<FileStat> visible_stat;      // nullopt: missing
  std::string ObjectPath() const { return storage::JoinPath(folder, name); }
  // The visible file is the latest version's content file itself (linked), edited in
  // place since Folio last recorded it (series.json's "file"): an edit by hand that
  // Folio has not taken in yet.
  bool EditedInPlace() const;
};

// A file in a folder's `.folio/folders/` (a subfolder marker, repo/hand_edits/folder_markers.h).
struct FolderMarkerFact {
  std::string path;               // the marker
  std::string folder_path;        // repository-relative path of the folder it names
  std::optional<std::string> id;  // nullopt: not a file, or it holds no id
};

// A file or directory in R/.folio/adopted/ that is not a usable adoption table.
struct BadAdoptedFile {
  std::string path;
  std::string problem;  // what is wrong, naming the file
  std::string folder_id;  // the folder directory it is in ("" for one directly in adopted/)
};

// One entry of a readable adoption table (docs/STORAGE.md §4.1).
struct AdoptedFact {
  std::string table;  // the table file
  uint64_t number = 0;  // its n
  std::string folder_id;
  // Repository-relative path of the folder with that id; nullopt when no folder of the
  // repository has it (adopted-folder-gone), or when its folder's record is unreadable.
  std::optional<std::string> folder;
  std::string name;
  repo::hand_edits::AdoptedEntry entry;
  std::string visible;                   // the document's file F/N (when `folder` is known)
  std::optional<FileStat> visible_stat;  // nullopt: missing
  bool shadowed = false;                 // F/.folio/docs/N exists: the series wins
  uint64_t lower_table = 0;  // the n of a lower table of the folder holding the name too (0: none)
  std::string ObjectPath() const { return storage::JoinPath(folder.value_or(""), name); }
  // The entry stands for the document `name` of its folder: the folder is known, no
  // series and no lower table takes the name.
  bool Standing() const { return folder && !shadowed && lower_table == 0; }
  // A standing entry whose file is there: a document the engine shows.
  bool Shown() const { return Standing() && visible_stat && visible_stat->type == FileType::kFile; }
};

// A folder's table directory R/.folio/adopted/<folderId>.
struct AdoptedFolderFact {
  std::string dir;
  std::string folder_id;
  bool gone = false;  // no folder of the repository has the id (and none has an unreadable record)
};

struct IndexFileFact {
  std::string path;
  std::string id;  // from the file name; "" if the name is not <id>.json
  std::optional<storage::IndexEntry> entry;
  std::string error;  // why `entry` is empty
};

struct JournalFact {
  std::string path;
  std::optional<std::vector<storage::JournalAction>> actions;  // nullopt: unparseable
  std::string error;
};

// The commit log (docs/STORAGE.md §8) as fsck found it.
struct LogFact {
  bool exists = false;
  std::string path;
  size_t pending = 0;  // records a dead process may have left unapplied
  std::string error;   // why it cannot be read
};

struct AgedFile {
  std::string path;
  int64_t mtime_ns = 0;
};

struct TypeFileFact {
  std::string path;
  std::optional<storage::Json> json;
  std::string error;
};

struct RepoFacts {
  explicit RepoFacts(std::string b) : base(b), layout(std::move(b)) {}
  std::string base;  // "domain/repository"
  storage::RepoLayout layout;

  std::optional<storage::Json> repository_json;
  std::string repository_error;               // why repository_json is empty
  std::optional<std::string> root_record_id;  // id in the root folder's folder.json

  std::vector<std::string> temps;
  std::vector<SpecialFile> specials;
  std::vector<BadRecord> bad_records;
  // In walk order: folders depth first by name (with their series and items), then
  // relationships, then adopted documents.
  std::vector<RecordFact> records;
  std::vector<TypedRecord> typed;
  std::vector<std::string> unadopted_folders;  // repository-relative; "" is the root
  std::vector<std::string> unadopted_files;    // repository-relative
  std::vector<SeriesFact> series;
  std::vector<BadAdoptedFile> bad_adopted;
  std::vector<AdoptedFolderFact> adopted_folders;
  std::vector<AdoptedFact> adopted;  // by folder id, table and name
  std::vector<IndexFileFact> index;
  std::vector<std::string> markers;  // names in checkedout/
  bool markers_dir_is_file = false;  // checkedout/ exists but is not a directory
  std::vector<FolderMarkerFact> folder_markers;
  std::vector<std::string> bad_folder_marker_dirs;  // .folio/folders that are not directories
  std::vector<JournalFact> journal;
  LogFact log;
  std::vector<std::string> trash;
  std::vector<AgedFile> uploads;
  std::vector<TypeFileFact> types;

  // The repository's root folder id from repository.json ("" if unknown).
  std::string RootFolderId() const;
};

struct DomainFact {
  std::string dir;
  std::optional<storage::Json> meta;  // domain.json
  std::string meta_error;
};

struct DataFacts {
  std::optional<storage::Json> meta;  // .folio/folio.json
  std::string meta_error;
  std::vector<std::string> temps;  // at the data and domain level
  std::vector<std::string> trash;  // .folio/trash-* of interrupted domain/repository deletions
  std::vector<SpecialFile> specials;
  std::vector<DomainFact> domains;
  std::vector<std::string> repositories;  // "domain/repository", sorted
};

// Errors: kStorage if the data directory itself cannot be listed.
Result<DataFacts> WalkData(Fs& fs);
RepoFacts WalkRepository(Fs& fs, const std::string& base);
// What the commit log at `path` (a repository's, or a domain's) holds.
LogFact ReadLogFact(Fs& fs, const std::string& path);

}  // namespace folio::fsck
