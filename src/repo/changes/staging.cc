// Building blocks of changes; see staging.h.
#include "repo/changes/staging.h"

#include "folio/cmis_ids.h"
#include "repo/acl/ace_list.h"
#include "repo/mime.h"
#include "repo/types/types.h"
#include "repo/versions/version_files.h"
#include "storage/datetime.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"

namespace folio::repo::changes {

std::string Staging::NewObjectId(char prefix) {
  for (;;) {
    std::string id = storage::NewId(prefix);
    if (!Exists(fs_, layout_.IndexEntry(id))) return id;
  }
}

Result<ContentInfo> Staging::StageContent(storage::ChangeSet& change, const std::string& target,
                                          const ContentSource& content, const std::string& doc_name) {
  ContentInfo info;
  if (content.bytes) {
    info.length = content.bytes->size();
    info.sha256 = versions::Sha256Hex(*content.bytes);
    change.Put(target, *content.bytes);
  } else {
    if (content.upload_path.empty()) return InvalidArgument("content has neither bytes nor an upload");
    if (content.upload_path.rfind(layout_.UploadsDir() + "/", 0) != 0) {
      return InvalidArgument("upload '" + content.upload_path + "' is not in this repository's upload area");
    }
    FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.Stat(content.upload_path));
    info.length = st.size;
    if (content.sha256.empty()) {
      FOLIO_ASSIGN_OR_RETURN(info.sha256, versions::Sha256OfFile(fs_, content.upload_path));
    } else {
      info.sha256 = content.sha256;
    }
    change.Link(target, content.upload_path, storage::Guard::Inode(st));
  }
  info.file_name = content.file_name.empty() ? doc_name : content.file_name;
  info.mime_type = content.mime_type;
  if (info.mime_type.empty() || info.mime_type == "application/octet-stream") {
    info.mime_type = MimeTypeForName(info.file_name);
    if (info.mime_type == "application/octet-stream") info.mime_type = MimeTypeForName(doc_name);
  }
  return info;
}

void Staging::StageVisibleAndSeries(storage::ChangeSet& change, const lookup::Loc& doc, const std::string& source,
                                    storage::Guard guard, const SeriesRecord& series, bool visible_new) {
  const std::string visible = layout_.Child(doc.folder, doc.name);
  if (source.empty()) {
    change.Put(visible, "");
  } else if (visible_new) {
    change.LinkNew(visible, source, std::move(guard));
  } else {
    change.Link(visible, source, std::move(guard));
  }
  change.PutJsonStamped(layout_.SeriesFile(doc.folder, doc.name), ToJson(series),
                        layout_.Child(doc.folder, doc.name));
}

Status Staging::StageDirIfMissing(storage::ChangeSet& change, const std::string& path) {
  auto st = fs_.Stat(path);
  if (st.ok()) return OkStatus();
  if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
  change.MakeDir(path);
  return OkStatus();
}

Status Staging::StageFolderMeta(storage::ChangeSet& change, const std::string& folder, bool items) {
  FOLIO_RETURN_IF_ERROR(StageDirIfMissing(change, layout_.FolderMeta(folder)));
  return StageDirIfMissing(change, items ? layout_.ItemsDir(folder) : layout_.DocsDir(folder));
}

Status Staging::StageRemoveFile(storage::ChangeSet& change, const std::string& path) {
  auto st = fs_.Stat(path);
  if (!st.ok()) return st.status().Is(std::errc::no_such_file_or_directory) ? OkStatus() : st.status();
  change.Remove(path, storage::Guard::Inode(*st));
  return OkStatus();
}

Status Staging::StageSeriesRemoval(storage::ChangeSet& change, const lookup::Loc& doc) {
  change.Remove(layout_.SeriesDir(doc.folder, doc.name),
                storage::Guard::RecordId(std::string(storage::kSeriesFileName), "seriesId", doc.id));
  FOLIO_RETURN_IF_ERROR(StageRemoveFile(change, layout_.Child(doc.folder, doc.name)));
  storage::StageIndexRemoval(change, layout_, doc.id);
  change.Remove(layout_.CheckedOutMarker(doc.id));
  return OkStatus();
}

Status Staging::StageCheckedOutMarker(storage::ChangeSet& change, const std::string& series_id, bool present) {
  if (!present) {
    change.Remove(layout_.CheckedOutMarker(series_id));
    return OkStatus();
  }
  FOLIO_RETURN_IF_ERROR(StageDirIfMissing(change, layout_.CheckedOutDir()));
  change.Put(layout_.CheckedOutMarker(series_id), series_id + "\n");
  return OkStatus();
}

Status Staging::StageTypeUsage(storage::ChangeSet& change, const std::string& type_id, const std::string& object_id) {
  if (types::BuiltInType(type_id)) return OkStatus();
  auto st = fs_.Stat(layout_.TypeUsageDir(type_id));
  if (!st.ok()) {
    // A type created before markers existed: deleteType scans the tree for it instead.
    if (st.status().Is(std::errc::no_such_file_or_directory)) return OkStatus();
    return st.status();
  }
  change.Put(layout_.TypeUsageMarker(type_id, object_id), "");
  return OkStatus();
}

Json NewObjectProperties(const std::string& type_id, const std::string& user, int64_t now_ms) {
  Json p = Json::object();
  p[cmis::kObjectTypeId] = type_id;
  p[cmis::kCreatedBy] = user;
  p[cmis::kCreationDate] = storage::FormatIsoMs(now_ms);
  p[cmis::kLastModifiedBy] = user;
  p[cmis::kLastModificationDate] = storage::FormatIsoMs(now_ms);
  return p;
}

void Touch(Json& stored, const std::string& user, int64_t now_ms) {
  stored[cmis::kLastModifiedBy] = user;
  stored[cmis::kLastModificationDate] = storage::FormatIsoMs(now_ms);
}

storage::ChangeEvent Event(const char* type, const std::string& object_id, BaseType base, const std::string& type_id) {
  storage::ChangeEvent e;
  e.type = type;
  e.object_id = object_id;
  e.base_type_id = std::string(BaseTypeId(base));
  e.type_id = type_id.empty() ? e.base_type_id : type_id;
  return e;
}

storage::ChangeEvent DeletedEvent(const std::string& object_id, BaseType base, const std::string& type_id,
                                  const std::vector<Ace>& acl) {
  storage::ChangeEvent e = Event("deleted", object_id, base, type_id);
  e.readers = acl::ReadingPrincipals(acl);
  return e;
}

std::vector<storage::ChangeEvent> DocumentDeletedEvents(const std::string& series_id,
                                                        const std::vector<std::string>& labels, bool checked_out,
                                                        const std::string& type_id, const std::vector<Ace>& acl) {
  std::vector<storage::ChangeEvent> out;
  const auto add = [&](const std::string& id) { out.push_back(DeletedEvent(id, BaseType::kDocument, type_id, acl)); };
  for (const std::string& label : labels) add(storage::VersionId(series_id, label));
  if (checked_out) add(storage::PwcId(series_id));
  return out;
}

std::string StoredTypeId(const Json& properties, BaseType base) {
  return storage::StringOr(properties, cmis::kObjectTypeId, std::string(BaseTypeId(base)));
}

}  // namespace folio::repo::changes
