// Helpers shared by every Fs implementation.
#include "folio/fs.h"

namespace folio {

Status WritableFile::AppendFrom(ReadableFile& src) {
  std::string buf(1 << 16, '\0');
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(size_t n, src.Read(buf.data(), buf.size()));
    if (n == 0) return OkStatus();
    FOLIO_RETURN_IF_ERROR(Append(std::string_view(buf.data(), n)));
  }
}

Result<std::string> ReadWholeFile(Fs& fs, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<ReadableFile> file, fs.Open(path));
  std::string out;
  out.resize(file->size());
  size_t have = 0;
  for (;;) {
    if (have == out.size()) out.resize(out.size() * 2 + 4096);
    FOLIO_ASSIGN_OR_RETURN(size_t n, file->Read(out.data() + have, out.size() - have));
    if (n == 0) break;
    have += n;
  }
  out.resize(have);
  return out;
}

bool Exists(Fs& fs, const std::string& path) { return fs.Stat(path).ok(); }

}  // namespace folio
