// The commit log file's layout; see commit_log.h and docs/STORAGE.md §8.
#include "storage/commit_log.h"

#include <cstdio>

#include "storage/atomic_write.h"
#include "storage/crc32.h"
#include "storage/json_access.h"
#include "storage/json_text.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {

constexpr uint64_t kFormat = 1;

// The JSON of the frame starting at buf[0], or nullopt when it is not a whole, valid
// frame (zeros, a torn write, another format).
std::optional<Json> ParseFrame(std::string_view buf, size_t* length) {
  if (buf.size() < 11 || buf[8] != ' ') return std::nullopt;
  const size_t nl = buf.find('\n', 9);
  if (nl == std::string_view::npos) return std::nullopt;
  unsigned crc = 0;
  for (int i = 0; i < 8; ++i) {
    const char c = buf[i];
    unsigned d;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else {
      return std::nullopt;
    }
    crc = crc << 4 | d;
  }
  const std::string_view text = buf.substr(9, nl - 9);
  if (Crc32(text) != crc) return std::nullopt;
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  *length = nl + 1;
  return j;
}

std::optional<LogHeader> DecodeHeader(const Json& j) {
  if (UintField(j, "format").value_or(0) != kFormat) return std::nullopt;
  auto version = UintField(j, "version"), epoch = UintField(j, "epoch"), lsn = UintField(j, "appliedLsn"),
       end = UintField(j, "appliedEnd"), token = UintField(j, "nextToken");
  if (!version || !epoch || !lsn || !end || !token || *end < kLogHeaderBytes) return std::nullopt;
  LogHeader h;
  h.version = *version;
  h.epoch = *epoch;
  h.applied_lsn = *lsn;
  h.applied_end = *end;
  h.next_token = *token;
  h.boot_id = StringOr(j, "bootId", "");
  return h;
}

// A log opened only to be read (read-only servers, fsck): writes are refused.
class ReadOnlyLogFile : public RandomAccessFile {
 public:
  ReadOnlyLogFile(std::unique_ptr<ReadableFile> file, std::string path) : file_(std::move(file)), path_(std::move(path)) {}
  Result<size_t> ReadAt(uint64_t offset, char* buf, size_t n) override {
    FOLIO_RETURN_IF_ERROR(file_->Seek(offset));
    size_t have = 0;
    while (have < n) {
      FOLIO_ASSIGN_OR_RETURN(size_t got, file_->Read(buf + have, n - have));
      if (got == 0) break;
      have += got;
    }
    return have;
  }
  Status WriteAt(uint64_t, std::string_view) override { return PermissionDenied("commit log '" + path_ + "' is open read-only"); }
  Status DataSync() override { return PermissionDenied("commit log '" + path_ + "' is open read-only"); }
  Result<uint64_t> Size() override { return file_->size(); }

 private:
  std::unique_ptr<ReadableFile> file_;
  std::string path_;
};

constexpr size_t kCrcRoom = 9;  // "xxxxxxxx "

// `out` holds kCrcRoom bytes of room, then a frame's JSON text: the frame, its CRC
// written into the room and its newline appended (the text is never copied).
std::string Sealed(std::string out) {
  char crc[kCrcRoom + 1];
  std::snprintf(crc, sizeof crc, "%08x ", Crc32(std::string_view(out).substr(kCrcRoom)));
  out.replace(0, kCrcRoom, crc, kCrcRoom);
  out.push_back('\n');
  return out;
}

}  // namespace

std::string Frame(const Json& value) {
  std::string out(kCrcRoom, ' ');
  AppendJson(out, value);
  return Sealed(std::move(out));
}

std::string RecordFrame(uint64_t epoch, uint64_t lsn, const ChangeSet& change) {
  // Written as text (no JSON value): this runs for every change under the staging lock.
  std::string out(kCrcRoom, ' ');
  out.reserve(kCrcRoom + 64 + change.InlineBytes() + 256 * change.actions().size());
  out += "{\"epoch\":";
  out += std::to_string(epoch);
  out += ",\"lsn\":";
  out += std::to_string(lsn);
  out.push_back(',');
  AppendChangeSetMembers(out, change);
  out.push_back('}');
  return Sealed(std::move(out));
}

std::string VoidFrame(uint64_t epoch, uint64_t lsn, size_t length) {
  std::string out(kCrcRoom, ' ');
  out += "{\"epoch\":";
  out += std::to_string(epoch);
  out += ",\"lsn\":";
  out += std::to_string(lsn);
  out += ",\"void\":true,";
  AppendChangeSetMembers(out, ChangeSet{});
  out.push_back('}');
  if (out.size() + 1 > length) return "";
  out.resize(length - 1, ' ');  // whitespace after the JSON value: the same value
  return Sealed(std::move(out));
}

Result<std::unique_ptr<CommitLog>> CommitLog::Open(Fs& fs, const std::string& path) {
  auto st = fs.Stat(path);
  if (!st.ok() && st.status().Is(std::errc::no_such_file_or_directory)) {
    // Made whole under a temp name, then renamed: a crash never leaves a short log.
    const std::string tmp = TempPathBeside(path);
    {
      FOLIO_ASSIGN_OR_RETURN(auto file, fs.CreateNew(tmp));
      const std::string zeros(64 * 1024, '\0');
      Status s;
      for (uint64_t done = 0; done < kLogInitialBytes && s.ok(); done += zeros.size()) s = file->Append(zeros);
      if (s.ok()) s = file->Sync();
      if (s.ok()) s = file->Close();
      if (!s.ok()) {
        (void)fs.Remove(tmp);
        return s;
      }
    }
    Status s = fs.RenameNoReplace(tmp, path);
    if (!s.ok()) (void)fs.Remove(tmp);
    if (!s.ok() && !s.Is(std::errc::file_exists)) return s;
    FOLIO_RETURN_IF_ERROR(fs.SyncDir(ParentPath(path)));
  } else if (!st.ok()) {
    return st.status();
  }
  FOLIO_ASSIGN_OR_RETURN(auto file, fs.OpenRandomAccess(path));
  return std::unique_ptr<CommitLog>(new CommitLog(std::move(file), path));
}

Result<std::unique_ptr<CommitLog>> CommitLog::OpenExisting(Fs& fs, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto file, fs.Open(path));
  return std::unique_ptr<CommitLog>(
      new CommitLog(std::unique_ptr<RandomAccessFile>(new ReadOnlyLogFile(std::move(file), path)), path));
}

Result<LogHeader> CommitLog::ReadHeader() {
  std::string buf(kLogHeaderBytes, '\0');
  FOLIO_ASSIGN_OR_RETURN(size_t n, file_->ReadAt(0, buf.data(), buf.size()));
  buf.resize(n);
  if (known_header_ && buf == known_bytes_) {
    last_slot_version_ = known_header_->version;
    return *known_header_;
  }
  std::optional<LogHeader> best;
  bool written = false;
  for (uint64_t slot = 0; slot < 2; ++slot) {
    if (buf.size() < (slot + 1) * kLogSlotBytes) continue;
    const std::string_view s(buf.data() + slot * kLogSlotBytes, kLogSlotBytes);
    size_t len = 0;
    auto j = ParseFrame(s, &len);
    if (!j) {
      // Only a slot that is not a valid frame is scanned for bytes (the scan of a
      // whole slot costs more than parsing a header, on every lock acquisition).
      if (s.find_first_not_of('\0') != std::string_view::npos) written = true;
      continue;
    }
    written = true;
    auto h = DecodeHeader(*j);
    if (h && (!best || h->version > best->version)) best = h;
  }
  if (best) {
    last_slot_version_ = best->version;
    known_bytes_ = std::move(buf);
    known_header_ = best;
    return *best;
  }
  if (written) return StorageError("commit log '" + path_ + "' has no valid header: run folio fsck --repair");
  return LogHeader{};
}

Status CommitLog::WriteHeader(LogHeader& header) {
  header.version = last_slot_version_ + 1;
  Json j{{"format", kFormat},
         {"version", header.version},
         {"epoch", header.epoch},
         {"appliedLsn", header.applied_lsn},
         {"appliedEnd", header.applied_end},
         {"nextToken", header.next_token},
         {"bootId", header.boot_id}};
  std::string frame = Frame(j);
  if (frame.size() > kLogSlotBytes) return RuntimeError("commit log header too long");
  frame.resize(kLogSlotBytes, '\0');
  const uint64_t at = (header.version % 2) * kLogSlotBytes;
  Status s = file_->WriteAt(at, frame);
  if (!s.ok()) {
    known_header_.reset();  // the slot may be half written
    return s;
  }
  last_slot_version_ = header.version;
  if (known_header_ && known_bytes_.size() == kLogHeaderBytes) {
    known_bytes_.replace(at, kLogSlotBytes, frame);
    known_header_ = header;
  }
  return OkStatus();
}

Result<std::vector<LogRecord>> CommitLog::Scan(uint64_t epoch, uint64_t offset, uint64_t after_lsn) {
  std::vector<LogRecord> out;
  FOLIO_ASSIGN_OR_RETURN(uint64_t size, file_->Size());
  std::string buf;
  uint64_t expected = after_lsn + 1;
  while (offset < size) {
    // Read a window; grow it until it holds a whole frame (or the file ends).
    size_t want = 4096;  // most records are smaller; a larger one grows the window
    std::optional<Json> j;
    size_t len = 0;
    for (;;) {
      buf.assign(static_cast<size_t>(std::min<uint64_t>(want, size - offset)), '\0');
      FOLIO_ASSIGN_OR_RETURN(size_t n, file_->ReadAt(offset, buf.data(), buf.size()));
      buf.resize(n);
      if (buf.empty() || buf[0] == '\0') return out;
      j = ParseFrame(buf, &len);
      if (j || buf.find('\n') != std::string::npos || offset + buf.size() >= size) break;
      want *= 4;
    }
    if (!j) return out;
    if (UintField(*j, "epoch") != epoch || UintField(*j, "lsn") != expected) return out;
    auto change = DecodeChangeSet(*j, path_ + " @" + std::to_string(offset));
    if (!change.ok()) return out;  // a frame with a valid checksum but foreign content: the end
    LogRecord r;
    r.epoch = epoch;
    r.lsn = expected++;
    r.offset = offset;
    r.end = offset + len;
    r.change = std::move(*change);
    offset = r.end;
    out.push_back(std::move(r));
  }
  return out;
}

Status CommitLog::Write(uint64_t offset, std::string_view frames) { return file_->WriteAt(offset, frames); }

Status CommitLog::Sync() { return file_->DataSync(); }

}  // namespace folio::storage
