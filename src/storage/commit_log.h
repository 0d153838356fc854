// The commit log file of a repository (`.folio/log`, docs/STORAGE.md §8): its layout on
// disk, and nothing of the protocol around it (storage/committer.h).
//
// Layout: a 4 KiB header area of two slots (2 KiB each, written alternately, so a torn
// header write leaves the other slot whole), then redo records. A slot and a record are
// both one frame: eight hex digits of the CRC-32 of the JSON text, a space, the JSON
// text, a newline. The log is zero-filled when made, so that writing a record never
// extends the file (one fdatasync, no metadata). A checkpoint starts a new epoch and
// writes records from the start of the record area again; records of an older epoch
// left behind are ignored.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "folio/fs.h"
#include "storage/change_set.h"
#include "storage/json_file.h"

namespace folio::storage {

inline constexpr uint64_t kLogHeaderBytes = 4096;
inline constexpr uint64_t kLogSlotBytes = 2048;
// Zero-filled size of a new log; records beyond it extend the file.
inline constexpr uint64_t kLogInitialBytes = 1 << 20;

// What the header says. `applied_lsn`/`applied_end` are the last record applied to the
// files (and where the next one starts), as seen by a process of boot `boot_id`.
struct LogHeader {
  uint64_t version = 0;  // counts header writes: the slot with the higher one is current
  uint64_t epoch = 1;
  uint64_t applied_lsn = 0;
  uint64_t applied_end = kLogHeaderBytes;
  uint64_t next_token = 1;  // the change log token of the next event
  std::string boot_id;
};

struct LogRecord {
  uint64_t epoch = 0;
  uint64_t lsn = 0;
  uint64_t offset = 0;  // where its frame starts
  uint64_t end = 0;     // where the next frame starts
  ChangeSet change;
};

// One frame: "<crc32 hex8> <json>\n".
std::string Frame(const Json& value);

class CommitLog {
 public:
  // Opens the log at `path`, making it (zero-filled, synced, its directory synced) if
  // it does not exist. Errors: kStorage.
  static Result<std::unique_ptr<CommitLog>> Open(Fs& fs, const std::string& path);
  // Opens an existing log for reading only; kStorage with cause no_such_file_or_directory
  // when there is none.
  static Result<std::unique_ptr<CommitLog>> OpenExisting(Fs& fs, const std::string& path);

  // The current header; a log never written has the default header. Errors: kStorage
  // when neither slot is valid while the file has been written (damaged).
  Result<LogHeader> ReadHeader();
  // Writes `header` (with version increased) into the older slot. No sync.
  Status WriteHeader(LogHeader& header);
  // The version of the header slot last read or written whole by this object: what the
  // disk holds unless another process wrote a header since.
  uint64_t last_version() const { return last_slot_version_; }

  // The records of `epoch` from `offset` on, in order, up to the first frame that is
  // not a whole, valid record of that epoch with the next lsn after `after_lsn`.
  Result<std::vector<LogRecord>> Scan(uint64_t epoch, uint64_t offset, uint64_t after_lsn);
  // Writes frames at `offset` (no sync).
  Status Write(uint64_t offset, std::string_view frames);
  Status Sync();
  const std::string& path() const { return path_; }

 private:
  CommitLog(std::unique_ptr<RandomAccessFile> file, std::string path) : file_(std::move(file)), path_(std::move(path)) {}
  std::unique_ptr<RandomAccessFile> file_;
  std::string path_;
  uint64_t last_slot_version_ = 0;
  // The header area as this object last read or wrote it, and the header it holds: a
  // read that finds the same bytes (nobody else wrote) returns it without parsing.
  std::string known_bytes_;
  std::optional<LogHeader> known_header_;
};

// The frame of record `lsn` of `epoch` holding `change`.
std::string RecordFrame(uint64_t epoch, uint64_t lsn, const ChangeSet& change);

// A frame of exactly `length` bytes for record `lsn` of `epoch` that changes nothing
// (`"void":true`, no action, no event; its JSON text padded with spaces): written over
// the frame of a record whose request failed, so that the records after it still
// follow and no recovery applies the failed one. Empty when `length` is too short.
std::string VoidFrame(uint64_t epoch, uint64_t lsn, size_t length);

}  // namespace folio::storage
