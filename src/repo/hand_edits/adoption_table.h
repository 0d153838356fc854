// An adoption table (docs/STORAGE.md §4.1): documents found in a folder (added by hand
// or by folio import) and not changed through Folio since, one entry each, instead of
// a series directory, version files and an index entry per document. This file is the
// record and its conversions; repo/hand_edits/adopted_docs.h reads and stages them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "folio/fs.h"
#include "repo/records.h"
#include "storage/json_file.h"

namespace folio::repo::hand_edits {

// Who created and last modified an object Folio adopted (cmis:createdBy,
// cmis:lastModifiedBy): nobody signed in made it.
inline constexpr const char* kAdoptingUser = "system";

// One adopted document: what Folio must remember of it (the rest follows from its file).
struct AdoptedEntry {
  std::string series_id;
  std::string mime_type;
  int64_t created_ms = 0;
  int64_t modified_ms = 0;
  // The identity of the document's file when Folio last looked (a difference is an
  // edit by hand).
  uint64_t file_size = 0;
  int64_t file_mtime_ns = 0;
  uint64_t file_inode = 0;
};

// R/.folio/adopted/<folderId>/<n>.json.
struct AdoptionTable {
  std::string folder_id;
  std::map<std::string, AdoptedEntry> documents;  // by file name
};

// The table's file: its JSON as storage::SerializeJson prints a record (two-space
// indents, a final newline), written without building a JSON value.
std::string AdoptionTableText(const AdoptionTable& table);
// Never throws. Errors: kStorage naming `what` and the field that is missing or of the
// wrong type ("folder" must be an object id; a document's name a valid object name,
// storage/name_rules.h, and its seriesId an adopted id of the table's folder).
Result<AdoptionTable> AdoptionTableFromJson(const Json& j, const std::string& what);

// True when the file's identity `st` is the one `entry` recorded (no edit by hand since).
bool SameIdentity(const AdoptedEntry& entry, const FileStat& st);
// `entry` takes the file's identity `st`, and its modification time as the document's
// (an edit by hand taken in).
void TakeIdentity(AdoptedEntry& entry, const FileStat& st);

// The series.json the document `entry` stands for (docs/STORAGE.md §4): version 1.0,
// not checked out, the entry's file identity.
SeriesRecord AdoptedSeries(const AdoptedEntry& entry);
// Its version 1.0 record: cmis:document named `name`, made and modified by "system" at
// the entry's dates, its content the file (length the file's size).
ObjectRecord AdoptedVersion(const std::string& name, const AdoptedEntry& entry);

}  // namespace folio::repo::hand_edits
