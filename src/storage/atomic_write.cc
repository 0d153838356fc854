// Temp-file + fsync + rename + fsync-dir writes; see atomic_write.h.
#include "storage/atomic_write.h"

#include <atomic>
#include <unistd.h>

#include "storage/ids.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {

template <typename Fill>
Result<std::string> WriteTemp(Fs& fs, const std::string& target, Fill fill) {
  std::string tmp = TempPathBeside(target);
  auto file = fs.CreateNew(tmp);
  if (!file.ok()) return file.status();
  Status s = fill(**file);
  if (s.ok()) s = (*file)->Sync();
  if (s.ok()) s = (*file)->Close();
  if (!s.ok()) {
    (void)fs.Remove(tmp);
    return s;
  }
  return tmp;
}

}  // namespace

std::string TempPathBeside(std::string_view path) {
  // pid + counter + random: unique across threads and processes sharing a directory.
  static std::atomic<uint64_t> counter{0};
  std::string name = std::string(kTempPrefix) + std::to_string(ProcessId()) + "-" +
                     std::to_string(counter.fetch_add(1)) + "-" + NewId('t').substr(1, 6);
  return JoinPath(ParentPath(path), name);
}

Result<std::string> WriteTempBeside(Fs& fs, const std::string& target, std::string_view bytes) {
  return WriteTemp(fs, target, [&](WritableFile& f) { return f.Append(bytes); });
}

Result<std::string> CopyToTempBeside(Fs& fs, const std::string& target, ReadableFile& src) {
  return WriteTemp(fs, target, [&](WritableFile& f) { return f.AppendFrom(src); });
}

Status WriteFileAtomically(Fs& fs, const std::string& path, std::string_view bytes) {
  FOLIO_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(fs, path, bytes));
  Status s = fs.Rename(tmp, path);
  if (!s.ok()) {
    (void)fs.Remove(tmp);
    return s;
  }
  return fs.SyncDir(ParentPath(path));
}

Status EnsureDir(Fs& fs, const std::string& path) {
  Status s = fs.MakeDir(path);
  if (s.Is(std::errc::file_exists)) return OkStatus();
  FOLIO_RETURN_IF_ERROR(s);
  // A directory that later journal records name must survive a power loss itself.
  return fs.SyncDir(ParentPath(path));
}

}  // namespace folio::storage
