// Upload files; see uploads.h.
#include "repo/changes/uploads.h"

#include "repo/versions/version_files.h"
#include "storage/atomic_write.h"
#include "storage/ids.h"

namespace folio::repo::changes {
namespace {

class UploadFile : public Upload {
 public:
  UploadFile(Fs& fs, std::string path, std::unique_ptr<WritableFile> file)
      : fs_(fs), path_(std::move(path)), file_(std::move(file)) {}
  // A change that consumed the upload removed its name already: ENOENT then.
  ~UploadFile() override {
    file_.reset();
    (void)fs_.Remove(path_);
  }
  Status Write(std::string_view bytes) override {
    if (!file_) return RuntimeError("upload '" + path_ + "' is finished");
    FOLIO_RETURN_IF_ERROR(file_->Append(bytes));
    if (hashing_) hash_.Add(bytes);
    size_ += bytes.size();
    return OkStatus();
  }
  Status WriteFrom(ReadableFile& src) override {
    if (!file_) return RuntimeError("upload '" + path_ + "' is finished");
    FOLIO_RETURN_IF_ERROR(file_->AppendFrom(src));
    hashing_ = false;  // a kernel copy: the bytes are hashed when finished
    FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(path_));
    size_ = st.size;
    return OkStatus();
  }
  Status Finish() override {
    if (!file_) return OkStatus();
    Status s = file_->Sync();
    if (s.ok()) s = file_->Close();
    file_.reset();
    FOLIO_RETURN_IF_ERROR(s);
    if (hashing_) {
      sha256_ = hash_.FinishHex();
    } else {
      FOLIO_ASSIGN_OR_RETURN(sha256_, versions::Sha256OfFile(fs_, path_));
    }
    return OkStatus();
  }
  uint64_t size() const override { return size_; }
  Result<std::unique_ptr<ReadableFile>> Read() const override {
    if (file_) return RuntimeError("upload '" + path_ + "' is not finished");
    return fs_.Open(path_);
  }
  const std::string& path() const override { return path_; }
  std::string sha256() const override { return sha256_; }

 private:
  Fs& fs_;
  std::string path_;
  std::unique_ptr<WritableFile> file_;
  uint64_t size_ = 0;
  // Rule V5 (repo/versions/version_files.h): the digest of what is written, computed as
  // it arrives, outside the repository's lock.
  bool hashing_ = true;
  versions::Sha256Stream hash_;
  std::string sha256_;
};

}  // namespace

Result<std::unique_ptr<Upload>> Uploads::New() {
  if (read_only_) return PermissionDenied("repository '" + layout_.base() + "' is read-only");
  // Made durably (synced into .folio): a change that links an upload must not outlive
  // the directory's name across a power loss. The metadata directory exists in every
  // repository; a missing one is damage, reported as it is.
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.UploadsDir()));
  const std::string path = storage::JoinPath(layout_.UploadsDir(), storage::NewId('u'));
  FOLIO_ASSIGN_OR_RETURN(auto file, fs_.CreateNew(path));
  return std::unique_ptr<Upload>(new UploadFile(fs_, path, std::move(file)));
}

}  // namespace folio::repo::changes
