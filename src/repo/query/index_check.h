// Checking a query index against the files, for fsck: the caller (src/fsck, which
// reads the records without the engine) says which rows the files imply; this compares
// them with the index without changing its content.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "folio/status.h"

namespace folio::query {

// A row the files imply: a folder, item or relationship, or one version of a document.
struct ExpectedRow {
  std::string id;
  std::optional<std::string> folder;   // the folder holding it ("" for none); nullopt: not compared
  std::optional<std::string> name;     // nullopt: not compared
  bool current = true;                 // a result without searchAllVersions
  std::optional<int64_t> modified_ms;  // cmis:lastModificationDate; nullopt: not compared
};

struct IndexCheck {
  enum class State {
    kAbsent,      // no index file, or one without any table (its first writer was
                  // stopped before the schema committed): a server builds one when needed
    kUnreadable,  // not a database, damaged, or of an unknown schema version
    kIncomplete,  // a build is running or was interrupted, or change log events wait
    kChecked,     // compared: see differences
  };
  State state = State::kAbsent;
  std::string detail;                 // kUnreadable, kIncomplete: why
  size_t differences = 0;             // rows missing, extra or different
  std::vector<std::string> examples;  // the first few differences, in words
};

// Compares the index at host path `db_path` with `expected`, the rows of the files whose
// change log ends at token `log_token`. An index that has not applied the log's last
// events yet is kIncomplete (the next query applies them; the rows are not compared);
// one that has applied more than the log holds follows another log: kUnreadable.
// Errors: none; an index that cannot be read is a State, not an error.
IndexCheck CheckIndexFile(const std::string& db_path, const std::vector<ExpectedRow>& expected, uint64_t log_token);

}  // namespace folio::query
