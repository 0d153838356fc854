// Files and directories a person adds or edits by hand (CONTRACT §9): they get a
// record and an id the first time a request touches them, and the id stays.
#include "repo/repo_impl.h"
#include "repo/mime.h"
#include "storage/atomic_write.h"
#include "storage/ids.h"

namespace folio::repo {
namespace {
constexpr const char* kSystemUser = "system";
int64_t MsOf(int64_t ns) { return ns / 1000000; }
}  // namespace

Status RepoImpl::AdoptFolder(const std::string& folder) {
  std::string parent_id;
  if (!folder.empty()) {
    // Before taking the lock: the parent may need adopting too.
    FOLIO_ASSIGN_OR_RETURN(parent_id, FolderIdAt(storage::ParentPath(folder)));
  }
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite(/*internal=*/true));
  if (Exists(fs_, layout_.FolderFile(folder))) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(layout_.Dir(folder)));
  if (st.type != FileType::kDirectory) return ObjectNotFound("no folder at path '/" + folder + "'");
  ObjectRecord rec;
  rec.id = folder.empty() ? info_.root_folder_id : NewObjectId('f');
  rec.properties = NewObjectProperties("cmis:folder", kSystemUser, MsOf(st.mtime_ns));
  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(folder)));
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.FolderFile(folder), ToJson(rec)).status());
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(
      fs_, tx, layout_, rec.id, {"folder", parent_id, folder.empty() ? "" : storage::BaseName(folder), folder}));
  return tx.Commit();
}

Status RepoImpl::AdoptDocument(const std::string& folder, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(std::string parent_id, FolderIdAt(folder));
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite(/*internal=*/true));
  if (Exists(fs_, layout_.SeriesFile(folder, name))) return OkStatus();
  if (Exists(fs_, layout_.SeriesDir(folder, name))) {
    // Metadata without its series.json: damaged, not hand-added. Adopting would try to
    // create a directory that exists; say what is wrong instead.
    return StorageError("document '/" + storage::JoinPath(folder, name) + "' has a series directory without " +
                        "series.json; run folio fsck --repair");
  }
  const std::string visible = layout_.Child(folder, name);
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(visible));
  if (st.type != FileType::kFile) return ObjectNotFound("no document at path '/" + storage::JoinPath(folder, name) + "'");
  FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(visible));

  SeriesRecord series;
  series.series_id = NewObjectId('d');
  series.versions = {"1.0"};
  series.file_size = st.size;
  series.file_mtime_ns = st.mtime_ns;
  ObjectRecord rec;
  rec.label = "1.0";
  rec.major = true;
  rec.properties = NewObjectProperties("cmis:document", kSystemUser, MsOf(st.mtime_ns));
  rec.properties["cmis:name"] = name;
  rec.content = ContentInfo{st.size, MimeTypeForName(name), name};

  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.FolderMeta(folder)));
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs_, layout_.DocsDir(folder)));
  FOLIO_ASSIGN_OR_RETURN(std::string dir, tx.NewDir(layout_.SeriesDir(folder, name)));
  FOLIO_RETURN_IF_ERROR(tx.CopyNewFile(storage::JoinPath(dir, "1.0.content"), *src));
  FOLIO_RETURN_IF_ERROR(tx.WriteNewFile(storage::JoinPath(dir, "1.0.json"), storage::SerializeJson(ToJson(rec))));
  FOLIO_RETURN_IF_ERROR(
      tx.WriteNewFile(storage::JoinPath(dir, storage::kSeriesFileName), storage::SerializeJson(ToJson(series))));
  FOLIO_RETURN_IF_ERROR(storage::StageIndexEntry(fs_, tx, layout_, series.series_id,
                                                 {"document", parent_id, name, storage::JoinPath(folder, name)}));
  return tx.Commit();
}

bool RepoImpl::KnownUnchanged(const std::string& visible, const FileStat& st) {
  if (!read_only_) return false;
  std::lock_guard<std::mutex> lock(unchanged_mu_);
  const auto it = unchanged_.find(visible);
  return it != unchanged_.end() && it->second.size == st.size && it->second.mtime_ns == st.mtime_ns &&
         it->second.inode == st.inode && it->second.device == st.device;
}

Result<SeriesRecord> RepoImpl::AbsorbHandEdit(const std::string& folder, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(WriteGuard guard, LockForWrite(/*internal=*/true));
  FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, ReadSeries(folder, name));
  const std::string visible = layout_.Child(folder, name);
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(visible));
  if (series.versions.empty() || (st.size == series.file_size && st.mtime_ns == series.file_mtime_ns)) return series;
  const std::string latest = LatestLabel(series);
  FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, ReadRecord(layout_.VersionProps(folder, name, latest)));
  // The same bytes under a new time stamp (a copy without -p, a git checkout, touch):
  // not an edit. Only the recorded identity is brought up to date.
  const std::string content = layout_.VersionContent(folder, name, latest);
  if (rec.content && rec.content->length == st.size && SameBytes(fs_, visible, content) == true) {
    series.file_size = st.size;
    series.file_mtime_ns = st.mtime_ns;
    if (read_only_) {
      // Nothing may be written: remembered here instead, so the bytes are compared once.
      std::lock_guard<std::mutex> lock(unchanged_mu_);
      if (unchanged_.size() >= kMaxKnownPaths) unchanged_.clear();
      unchanged_[visible] = st;
      return series;
    }
    storage::Transaction tx(fs_, layout_.JournalDir());
    FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(folder, name), ToJson(series)).status());
    FOLIO_RETURN_IF_ERROR(tx.Commit());
    return series;
  }
  FOLIO_ASSIGN_OR_RETURN(auto src, fs_.Open(visible));
  storage::Transaction tx(fs_, layout_.JournalDir());
  FOLIO_ASSIGN_OR_RETURN(std::string staged, tx.Copy(layout_.VersionContent(folder, name, latest), *src));
  FOLIO_ASSIGN_OR_RETURN(FileStat copied, fs_.Stat(staged));
  ContentInfo info = rec.content.value_or(ContentInfo{0, MimeTypeForName(name), name});
  info.length = copied.size;
  rec.content = info;
  Touch(rec.properties, kSystemUser, MsOf(st.mtime_ns));
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.VersionProps(folder, name, latest), ToJson(rec)).status());
  series.file_size = st.size;
  series.file_mtime_ns = st.mtime_ns;
  FOLIO_RETURN_IF_ERROR(tx.WriteJson(layout_.SeriesFile(folder, name), ToJson(series)).status());
  FOLIO_RETURN_IF_ERROR(tx.Commit());
  return series;
}

}  // namespace folio::repo
