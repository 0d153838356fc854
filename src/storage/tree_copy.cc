// Copies of directory trees; see tree_copy.h.
#include "storage/tree_copy.h"

#include <vector>

namespace folio::storage {
namespace {

std::string Below(const std::string& dir, const std::string& name) { return dir.empty() ? name : dir + "/" + name; }

struct CopyOptions {
  bool sync;
  VanishedEntries vanished;
};

bool LeftOut(const Status& s, const CopyOptions& o) {
  return o.vanished == VanishedEntries::kLeaveOut && s.Is(std::errc::no_such_file_or_directory);
}

// Copies directory `from` of `src` into `to` of `dst`, which it makes first when
// `make`: then `from` is below the root of the copy (and may be left out when it was
// removed since its parent was listed).
Status CopyDir(Fs& src, const std::string& from, Fs& dst, const std::string& to, const CopyOptions& o, bool make) {
  auto listed = src.List(from);
  if (!listed.ok() && make && LeftOut(listed.status(), o)) return OkStatus();
  FOLIO_RETURN_IF_ERROR(listed.status());
  if (make) FOLIO_RETURN_IF_ERROR(dst.MakeDir(to));
  for (const DirEntry& e : *listed) {
    const std::string s = Below(from, e.name);
    const std::string d = Below(to, e.name);
    if (e.type == FileType::kDirectory) {
      FOLIO_RETURN_IF_ERROR(CopyDir(src, s, dst, d, o, /*make=*/true));
    } else if (e.type == FileType::kFile) {
      auto in = src.Open(s);
      if (!in.ok() && LeftOut(in.status(), o)) continue;  // removed since it was listed
      FOLIO_RETURN_IF_ERROR(in.status());
      FOLIO_ASSIGN_OR_RETURN(auto out, dst.CreateNew(d));
      FOLIO_RETURN_IF_ERROR(out->AppendFrom(**in));
      if (o.sync) FOLIO_RETURN_IF_ERROR(out->Sync());
      FOLIO_RETURN_IF_ERROR(out->Close());
    }
  }
  if (o.sync) FOLIO_RETURN_IF_ERROR(dst.SyncDir(to.empty() ? "." : to));
  return OkStatus();
}

}  // namespace

Status CopyTree(Fs& src, const std::string& from, Fs& dst, const std::string& to, bool sync,
                VanishedEntries vanished) {
  return CopyDir(src, from, dst, to, CopyOptions{sync, vanished}, /*make=*/false);
}

Result<uint64_t> TreeBytes(Fs& fs, const std::string& dir) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, fs.List(dir));
  uint64_t total = 0;
  for (const DirEntry& e : entries) {
    const std::string path = Below(dir, e.name);
    if (e.type == FileType::kDirectory) {
      FOLIO_ASSIGN_OR_RETURN(uint64_t below, TreeBytes(fs, path));
      total += below;
    } else if (e.type == FileType::kFile) {
      FOLIO_ASSIGN_OR_RETURN(FileStat st, fs.Stat(path));
      total += st.size;
    }
  }
  return total;
}

}  // namespace folio::storage
