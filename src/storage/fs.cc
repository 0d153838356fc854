// Helpers shared by every Fs implementation.
#include "folio/fs.h"

#include <algorithm>

#include "storage/entry_name.h"

namespace folio {

Status WritableFile::AppendFrom(ReadableFile& src) {
  std::string buf(1 << 16, '\0');
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(size_t n, src.Read(buf.data(), buf.size()));
    if (n == 0) return OkStatus();
    FOLIO_RETURN_IF_ERROR(Append(std::string_view(buf.data(), n)));
  }
}

Result<FileStat> WritableFile::Stat() const {
  return StorageError("this file cannot be stat'ed", std::errc::operation_not_supported);
}

Status WritableFile::Truncate(uint64_t /*size*/) {
  return StorageError("this file cannot be truncated", std::errc::operation_not_supported);
}

Result<std::unique_ptr<WritableFile>> Fs::OpenToRewrite(const std::string& path) {
  return StorageError("cannot rewrite '" + path + "' in place here", std::errc::operation_not_supported);
}

Status Fs::Exchange(const std::string& a, const std::string& b) {
  return StorageError("cannot exchange '" + a + "' and '" + b + "' here", std::errc::operation_not_supported);
}

namespace {

// Fs::OpenDirectory for any Fs: every file read through Open.
class PathDirectory : public Directory {
 public:
  PathDirectory(Fs& fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  Status ReadFile(const std::string& name, std::string& out) override {
    FOLIO_ASSIGN_OR_RETURN(const std::string path, storage::EntryPath(path_, name));
    FOLIO_ASSIGN_OR_RETURN(out, ReadWholeRecord(fs_, path));
    return OkStatus();
  }
  Result<FileStat> IdentityStat(const std::string& name) override {
    FOLIO_ASSIGN_OR_RETURN(const std::string path, storage::EntryPath(path_, name));
    return fs_.IdentityStat(path);
  }

 private:

  Fs& fs_;
  std::string path_;
};

}  // namespace

// Nothing is checked here: each ReadFile fails as Open of that file would.
Result<std::unique_ptr<Directory>> Fs::OpenDirectory(const std::string& path) {
  return std::unique_ptr<Directory>(new PathDirectory(*this, path));
}

namespace {

// The bytes of `file`, read from where it stands to its end; `path` names it in errors.
Result<std::string> ReadToEnd(ReadableFile& file, const std::string& path, uint64_t max_bytes) {
  const auto too_large = [&] {
    return StorageError("'" + path + "' holds more than " + std::to_string(max_bytes) + " bytes");
  };
  if (file.size() > max_bytes) return too_large();
  std::string out;
  out.resize(file.size());
  size_t have = 0;
  for (;;) {
    if (have == out.size()) {
      // Grow, but never read more than one byte past the bound.
      const uint64_t room = max_bytes == UINT64_MAX ? UINT64_MAX : max_bytes + 1;
      out.resize(static_cast<size_t>(std::min<uint64_t>(out.size() * 2 + 4096, room)));
    }
    FOLIO_ASSIGN_OR_RETURN(size_t n, file.Read(out.data() + have, out.size() - have));
    if (n == 0) break;
    have += n;
    if (have > max_bytes) return too_large();  // it grew while read
  }
  out.resize(have);
  return out;
}

}  // namespace

Result<std::string> ReadWholeFile(Fs& fs, const std::string& path, uint64_t max_bytes) {
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<ReadableFile> file, fs.Open(path));
  return ReadToEnd(*file, path, max_bytes);
}

Result<std::string> ReadWholeRecord(Fs& fs, const std::string& path, uint64_t max_bytes, FileStat* opened) {
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<ReadableFile> file, fs.Open(path));
    FOLIO_ASSIGN_OR_RETURN(FileStat before, file->StatAtOpen());
    FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadToEnd(*file, path, max_bytes));
    FOLIO_ASSIGN_OR_RETURN(FileStat after, file->Stat());
    if (UnchangedWhileRead(before, after)) {
      if (opened != nullptr) *opened = before;
      return bytes;
    }
  }
  return KeptChangingWhileRead(path);
}

Status KeptChangingWhileRead(const std::string& path) {
  return StorageError("'" + path + "' changed while it was read, " + std::to_string(kReadAttempts) + " times",
                      std::errc::resource_unavailable_try_again);
}

bool Exists(Fs& fs, const std::string& path) { return fs.Stat(path).ok(); }

std::optional<bool> SameBytes(Fs& fs, const std::string& a, const std::string& b) {
  auto fa = fs.Open(a);
  auto fb = fs.Open(b);
  if (!fa.ok() || !fb.ok()) return std::nullopt;
  if ((*fa)->size() != (*fb)->size()) return false;
  std::string ba(1 << 16, '\0'), bb(1 << 16, '\0');
  for (;;) {
    auto na = (*fa)->Read(ba.data(), ba.size());
    if (!na.ok()) return std::nullopt;
    size_t have = 0;
    while (have < *na) {  // fill the same amount from b
      auto nb = (*fb)->Read(bb.data() + have, *na - have);
      if (!nb.ok()) return std::nullopt;
      if (*nb == 0) return false;
      have += *nb;
    }
    if (*na == 0) {
      auto nb = (*fb)->Read(bb.data(), 1);
      return nb.ok() && *nb == 0;
    }
    if (ba.compare(0, *na, bb, 0, *na) != 0) return false;
  }
}

}  // namespace folio
