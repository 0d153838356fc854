// Content files of a version series; see version_files.h (Rules V1-V5).
#include "repo/versions/version_files.h"

#include <sodium.h>

#include <new>

namespace folio::repo::versions {
namespace {

static_assert(sizeof(crypto_hash_sha256_state) <= 128 && alignof(crypto_hash_sha256_state) <= 8);

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

}  // namespace

void StageWorkingCopyContent(storage::ChangeSet& change, const std::string& pwc_content,
                             const std::string& version_content) {
  change.Copy(pwc_content, version_content);
}

std::optional<FileStat> EditedInPlace(Fs& fs, const std::string& visible, const std::string& content,
                                      const SeriesRecord& series) {
  auto shown = fs.Stat(visible);
  auto own = fs.Stat(content);
  if (!shown.ok() || !own.ok() || !SameInode(*shown, *own)) return std::nullopt;
  if (shown->size == series.file_size && shown->mtime_ns == series.file_mtime_ns) return std::nullopt;
  return *shown;
}

void DescribeEdited(ContentInfo& content, const FileStat& edited) {
  content.length = edited.size;
  content.sha256.clear();
}

std::string Sha256Hex(std::string_view bytes) {
  unsigned char out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(out, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return Hex(out, sizeof out);
}

Result<std::string> Sha256OfFile(Fs& fs, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto file, fs.Open(path));
  Sha256Stream hash;
  std::string buf(1 << 16, '\0');
  for (;;) {
    FOLIO_ASSIGN_OR_RETURN(size_t n, file->Read(buf.data(), buf.size()));
    if (n == 0) break;
    hash.Add(std::string_view(buf.data(), n));
  }
  return hash.FinishHex();
}

Sha256Stream::Sha256Stream() { crypto_hash_sha256_init(new (state_) crypto_hash_sha256_state); }

void Sha256Stream::Add(std::string_view bytes) {
  crypto_hash_sha256_update(reinterpret_cast<crypto_hash_sha256_state*>(state_),
                            reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

std::string Sha256Stream::FinishHex() {
  auto* state = reinterpret_cast<crypto_hash_sha256_state*>(state_);
  unsigned char out[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(state, out);
  crypto_hash_sha256_init(state);
  return Hex(out, sizeof out);
}

}  // namespace folio::repo::versions
