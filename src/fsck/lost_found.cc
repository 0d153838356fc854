// Moving doubtful files to lost+found; see lost_found.h.
#include "fsck/lost_found.h"

#include <algorithm>

#include "storage/atomic_write.h"
#include "storage/datetime.h"

namespace folio::fsck {

std::string LostFoundStamp() {
  std::string s = storage::FormatIsoMs(storage::NowMs());
  std::replace(s.begin(), s.end(), ':', '-');
  return s;
}

Result<std::string> LostFound::Place(const storage::RepoLayout& layout, const std::string& path) {
  const std::string prefix = layout.base() + "/";
  if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size()) {
    return RuntimeError("'" + path + "' is not inside repository '" + layout.base() + "'");
  }
  const std::string rel = path.substr(prefix.size());
  std::string dir = layout.LostFoundDir();
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, dir));
  const std::string parents = storage::JoinPath(stamp_, storage::ParentPath(rel));
  size_t start = 0;
  while (start < parents.size()) {
    size_t end = parents.find('/', start);
    if (end == std::string::npos) end = parents.size();
    dir = storage::JoinPath(dir, parents.substr(start, end - start));
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, dir));
    start = end + 1;
  }
  return storage::JoinPath(dir, storage::BaseName(rel));
}

Result<std::string> LostFound::Move(const storage::RepoLayout& layout, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(const std::string place, Place(layout, path));
  for (int n = 0; n < 1000; ++n) {
    const std::string target = n == 0 ? place : place + "." + std::to_string(n);
    Status s = fs_.RenameNoReplace(path, target);
    if (s.Is(std::errc::file_exists)) continue;
    FOLIO_RETURN_IF_ERROR(s);
    FOLIO_RETURN_IF_ERROR(fs_.SyncDir(storage::ParentPath(target)));
    FOLIO_RETURN_IF_ERROR(fs_.SyncDir(storage::ParentPath(path)));
    return target;
  }
  return StorageError("no free name for '" + place + "' in lost+found");
}

Result<std::string> LostFound::Copy(const storage::RepoLayout& layout, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(const std::string place, Place(layout, path));
  FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(path));
  for (int n = 0; n < 1000; ++n) {
    const std::string target = n == 0 ? place : place + "." + std::to_string(n);
    auto out = fs_.CreateNew(target);
    if (!out.ok() && out.status().Is(std::errc::file_exists)) continue;
    FOLIO_RETURN_IF_ERROR(out.status());
    Status s = (*out)->AppendFrom(*src);
    if (s.ok()) s = (*out)->Sync();
    if (s.ok()) s = (*out)->Close();
    if (s.ok()) s = fs_.SyncDir(storage::ParentPath(target));
    if (!s.ok()) {
      (void)fs_.Remove(target);
      return s;
    }
    return target;
  }
  return StorageError("no free name for '" + place + "' in lost+found");
}

}  // namespace folio::fsck
