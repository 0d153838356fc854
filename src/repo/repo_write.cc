// Shared machinery of every change: the write lock, new-object properties, staging of
// content and of a document's user-visible file.
#include "repo/mime.h"
#include "repo/repo_impl.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo {

WriteGuard::~WriteGuard() {
  if (r_ == nullptr) return;
  if (--r_->lock_depth_ == 0) r_->file_lock_.reset();
  r_->write_mu_.unlock();
}

Result<WriteGuard> RepoImpl::LockForWrite(bool internal) {
  if (read_only_ && !internal) {
    return PermissionDenied("repository '" + info_.repository_id + "' is read-only");
  }
  write_mu_.lock();
  if (lock_depth_ == 0) {
    auto lock = fs_.Lock(layout_.LockFile());
    if (!lock.ok()) {
      write_mu_.unlock();
      return lock.status();
    }
    file_lock_ = std::move(*lock);
    // Another process may have died mid-change: finish its committed changes first.
    auto recovered = storage::RecoverJournal(fs_, layout_.JournalDir());
    if (!recovered.ok()) {
      file_lock_.reset();
      write_mu_.unlock();
      return recovered.status();
    }
  }
  ++lock_depth_;
  return WriteGuard(this);
}

Json NewObjectProperties(const std::string& type_id, const std::string& user, int64_t now_ms) {
  Json p = Json::object();
  p["cmis:objectTypeId"] = type_id;
  p["cmis:createdBy"] = user;
  p["cmis:creationDate"] = storage::FormatIsoMs(now_ms);
  p["cmis:lastModifiedBy"] = user;
  p["cmis:lastModificationDate"] = storage::FormatIsoMs(now_ms);
  return p;
}

void Touch(Json& stored, const std::string& user, int64_t now_ms) {
  stored["cmis:lastModifiedBy"] = user;
  stored["cmis:lastModificationDate"] = storage::FormatIsoMs(now_ms);
}

Result<std::string> RepoImpl::StageContent(storage::Transaction& tx, const std::string& target,
                                           const ContentSource& content) {
  if (content.bytes) return tx.Write(target, *content.bytes);
  if (content.upload_path.empty()) return InvalidArgument("content has neither bytes nor an upload");
  if (content.upload_path.rfind(layout_.UploadsDir() + "/", 0) != 0) {
    return InvalidArgument("upload '" + content.upload_path + "' is not in this repository's upload area");
  }
  return tx.Adopt(target, content.upload_path);
}

Status RepoImpl::StageVisible(storage::Transaction& tx, const std::string& target, const std::string& source,
                              SeriesRecord& series) {
  std::string staged;
  if (source.empty()) {
    FOLIO_ASSIGN_OR_RETURN(staged, tx.Write(target, ""));
  } else {
    FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(source));
    FOLIO_ASSIGN_OR_RETURN(staged, tx.Copy(target, *src));
  }
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(staged));
  series.file_size = st.size;
  series.file_mtime_ns = st.mtime_ns;
  return OkStatus();
}

Result<std::optional<ContentInfo>> RepoImpl::DescribeContent(const std::optional<ContentSource>& content,
                                                             const std::string& staged_path,
                                                             const std::string& doc_name) {
  if (!content) return std::optional<ContentInfo>();
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(staged_path));
  ContentInfo info;
  info.length = st.size;
  info.file_name = content->file_name.empty() ? doc_name : content->file_name;
  info.mime_type = content->mime_type;
  if (info.mime_type.empty() || info.mime_type == "application/octet-stream") {
    info.mime_type = MimeTypeForName(info.file_name);
    if (info.mime_type == "application/octet-stream") info.mime_type = MimeTypeForName(doc_name);
  }
  return std::optional<ContentInfo>(info);
}

std::string RepoImpl::NewObjectId(char prefix) {
  // Random ids practically never collide, but an index entry is never overwritten by a
  // new object whatever happens (a forked process, a restored backup).
  for (;;) {
    std::string id = storage::NewId(prefix);
    if (!Exists(fs_, layout_.IndexEntry(id))) return id;
  }
}

Status RepoImpl::StageDiscard(storage::Transaction& tx, const std::string& path) {
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.TrashDir()));
  const std::string trash = storage::JoinPath(layout_.TrashDir(), storage::NewId('x'));
  // Gone in one rename at commit; removing the files may then take its time.
  tx.Rename(path, trash);
  tx.Remove(trash);
  return OkStatus();
}

Status RepoImpl::StageSeriesRemoval(storage::Transaction& tx, const Loc& loc) {
  FOLIO_RETURN_IF_ERROR(StageDiscard(tx, layout_.SeriesDir(loc.folder, loc.name)));
  tx.Remove(layout_.Child(loc.folder, loc.name));
  storage::StageIndexRemoval(tx, layout_, loc.id);
  return StageCheckedOutMarker(tx, loc.id, false);
}

Status RepoImpl::StageCheckedOutMarker(storage::Transaction& tx, const std::string& series_id, bool present) {
  if (!present) {
    tx.Remove(layout_.CheckedOutMarker(series_id));
    return OkStatus();
  }
  // A marker per checked-out series: getCheckedOut without scanning the tree.
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.CheckedOutDir()));
  return tx.Write(layout_.CheckedOutMarker(series_id), series_id + "\n").status();
}

Result<Upload> RepoImpl::NewUpload() {
  if (read_only_) return PermissionDenied("repository '" + info_.repository_id + "' is read-only");
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.UploadsDir()));
  Upload u;
  u.path = storage::JoinPath(layout_.UploadsDir(), storage::NewId('u'));
  FOLIO_ASSIGN_OR_RETURN(u.file, fs_.CreateNew(u.path));
  return u;
}

}  // namespace folio::repo
