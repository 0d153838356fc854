// Copies of directory trees; see tree_copy.h.
#include "storage/tree_copy.h"

#include <vector>

namespace folio::storage {
namespace {

std::string Below(const std::string& dir, const std::string& name) { return dir.empty() ? name : dir + "/" + name; }

}  // namespace

Status CopyTree(Fs& src, const std::string& from, Fs& dst, const std::string& to, bool sync) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, src.List(from));
  for (const DirEntry& e : entries) {
    const std::string s = Below(from, e.name);
    const std::string d = Below(to, e.name);
    if (e.type == FileType::kDirectory) {
      FOLIO_RETURN_IF_ERROR(dst.MakeDir(d));
      FOLIO_RETURN_IF_ERROR(CopyTree(src, s, dst, d, sync));
    } else if (e.type == FileType::kFile) {
      FOLIO_ASSIGN_OR_RETURN(auto in, src.Open(s));
      FOLIO_ASSIGN_OR_RETURN(auto out, dst.CreateNew(d));
      FOLIO_RETURN_IF_ERROR(out->AppendFrom(*in));
      if (sync) FOLIO_RETURN_IF_ERROR(out->Sync());
      FOLIO_RETURN_IF_ERROR(out->Close());
    }
  }
  if (sync) FOLIO_RETURN_IF_ERROR(dst.SyncDir(to.empty() ? "." : to));
  return OkStatus();
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
