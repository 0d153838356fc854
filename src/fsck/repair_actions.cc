// Single repairs under a repository's write lock; see repair_actions.h.
#include "fsck/repair_actions.h"

#include <map>
#include <set>

#include "folio/cmis_ids.h"
#include "fsck/checks.h"
#include "repo/changes/staging.h"
#include "repo/hand_edits/adopter.h"
#include "repo/mime.h"
#include "storage/atomic_write.h"
#include "storage/committer.h"
#include "storage/datetime.h"

namespace folio::fsck {

using storage::Json;

Status CommitUnderLock(Fs& fs, const storage::RepoLayout& layout,
                       const std::function<Status(storage::ChangeSet&)>& stage) {
  storage::CommitterOptions options;
  options.lock_held = true;  // RepairUnderLock holds it
  storage::Committer committer(fs, layout, options);
  FOLIO_RETURN_IF_ERROR(committer.Open());
  return committer.Run(stage);
}

Result<std::string> RemovePath(Fs& fs, const std::string& path) {
  if (!Exists(fs, path)) return std::string();
  FOLIO_RETURN_IF_ERROR(fs.RemoveTree(path));
  return std::string("removed");
}

Result<std::string> MoveToLostFound(Fs& fs, LostFound& lost, const storage::RepoLayout& layout,
                                    const std::string& path) {
  if (!Exists(fs, path)) return std::string();  // went with a directory moved before it
  FOLIO_ASSIGN_OR_RETURN(std::string target, lost.Move(layout, path));
  return "moved to '" + target + "'";
}

Result<std::string> SetContentLength(Fs& fs, const std::string& record, uint64_t size) {
  FOLIO_ASSIGN_OR_RETURN(Json j, storage::ReadJsonFile(fs, record));
  auto content = j.find("content");
  if (content == j.end() || !content->is_object()) return std::string();
  (*content)["length"] = size;
  FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(fs, record, j));
  return "set the content length to " + std::to_string(size);
}

Result<std::string> ClearCheckOut(Fs& fs, const std::string& series_file) {
  FOLIO_ASSIGN_OR_RETURN(Json j, storage::ReadJsonFile(fs, series_file));
  j["checkedOut"] = nullptr;
  FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(fs, series_file, j));
  return std::string("cleared the check-out");
}

Result<std::string> WriteRootFolder(Fs& fs, const RepoFacts& f) {
  const std::string root = f.RootFolderId();
  const std::string file = f.layout.FolderFile("");
  if (root.empty() || Exists(fs, file)) return std::string();
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs.Stat(f.layout.Dir("")));
  const std::string when = storage::FormatIsoMs(st.mtime_ns / 1000000);
  repo::ObjectRecord rec;
  rec.id = root;
  rec.properties = Json{{cmis::kObjectTypeId, cmis::kFolder},
                        {cmis::kCreatedBy, "system"},
                        {cmis::kCreationDate, when},
                        {cmis::kLastModifiedBy, "system"},
                        {cmis::kLastModificationDate, when}};
  FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(fs, file, repo::ToJson(rec)));
  return "wrote the root folder's record with id '" + root + "'";
}

Result<std::string> WriteMarker(Fs& fs, const storage::RepoLayout& layout, const std::string& path) {
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs, layout.CheckedOutDir()));
  FOLIO_RETURN_IF_ERROR(storage::WriteFileAtomically(fs, path, storage::BaseName(path) + "\n"));
  return std::string("created the marker");
}

Result<std::string> WriteFolderMarker(Fs& fs, const std::string& path, const std::string& id) {
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs, storage::ParentPath(path)));
  if (auto st = fs.Stat(path); st.ok() && st->type != FileType::kFile) FOLIO_RETURN_IF_ERROR(fs.RemoveTree(path));
  FOLIO_RETURN_IF_ERROR(storage::WriteFileAtomically(fs, path, id + "\n"));
  return "wrote the marker with id '" + id + "'";
}

Result<std::string> AbsorbVisibleFile(Fs& fs, LostFound& lost, const RepoFacts& f, const std::string& object) {
  const SeriesFact* s = nullptr;
  for (const SeriesFact& candidate : f.series) {
    if (candidate.ObjectPath() == object) s = &candidate;
  }
  if (s == nullptr || !s->series || s->series->versions.empty()) return std::string();
  const std::string label = s->series->versions.back();
  auto it = s->labels.find(label);
  if (it == s->labels.end() || !it->second.record) return std::string();
  const LabelFiles& lf = it->second;
  FOLIO_ASSIGN_OR_RETURN(FileStat visible, fs.Stat(s->visible));
  std::string kept;
  if (lf.content) {
    FOLIO_ASSIGN_OR_RETURN(kept, lost.Copy(f.layout, lf.content_path));
  }
  // As the engine takes in a hand edit (repo/hand_edits/adopter.h StageHandEdit), in one change of
  // the commit log with its "updated" event.
  FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
    auto content_st = fs.Stat(lf.content_path);
    repo::hand_edits::StageHandEdit(change, f.layout, s->folder, s->name, *s->series, *lf.record, visible,
                                    content_st.ok() && SameInode(*content_st, visible));
    return OkStatus();
  }));
  return "took the file as the content of version " + label +
         (kept.empty() ? std::string() : " (the replaced content is in '" + kept + "')");
}

Result<std::string> RebuildVersionRecord(Fs& fs, const RepoFacts& f, const std::string& record,
                                         const std::string& label) {
  for (const SeriesFact& s : f.series) {
    if (f.layout.VersionProps(s.folder, s.name, label) != record) continue;
    if (Exists(fs, record)) return std::string();
    repo::ObjectRecord rec;
    // The nearest version before it, else after it, else the working copy: the name,
    // type and custom properties a version shares with its neighbours.
    const repo::ObjectRecord* before = nullptr;
    const repo::ObjectRecord* after = nullptr;
    const repo::ObjectRecord* pwc = nullptr;
    for (const auto& [other, files] : s.labels) {
      if (!files.record) continue;
      if (other == "pwc") {
        pwc = &*files.record;
      } else if (other < label) {
        before = &*files.record;
      } else if (after == nullptr) {
        after = &*files.record;
      }
    }
    const repo::ObjectRecord* model = before != nullptr ? before : after != nullptr ? after : pwc;
    auto content = fs.Stat(f.layout.VersionContent(s.folder, s.name, label));
    const int64_t when_ms = content.ok() ? content->mtime_ns / 1000000 : storage::NowMs();
    if (model != nullptr) {
      rec.properties = model->properties;
      rec.acl = model->acl;
    } else {
      rec.properties = repo::changes::NewObjectProperties(cmis::kDocument, "system", when_ms);
    }
    rec.properties[cmis::kName] = s.name;
    // What a person reading the history should know of this version.
    rec.properties[cmis::kCheckinComment] = "record rebuilt by folio fsck --repair (the damaged one is in lost+found)";
    rec.label = label;
    rec.major = label.size() > 2 && label.compare(label.size() - 2, 2, ".0") == 0;
    if (content.ok()) {
      // The digest stays unknown (docs/STORAGE.md §4.2, Rule V5): the bytes found are not
      // known to be the version's.
      ContentInfo info{content->size, repo::MimeTypeForName(s.name), s.name, /*sha256=*/""};
      if (model != nullptr && model->content) {
        info.mime_type = model->content->mime_type;
        info.file_name = model->content->file_name;
      }
      info.length = content->size;
      rec.content = info;
    }
    FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(fs, record, repo::ToJson(rec)));
    return std::string("rebuilt the record from the series, the content and the document's other records");
  }
  return std::string();
}

Status RebuildIndex(Fs& fs, const RepoFacts& f) {
  std::map<std::string, const IndexFileFact*> existing;
  for (const IndexFileFact& i : f.index) existing[i.path] = &i;
  std::set<std::string> wanted;
  const std::vector<const RecordFact*> owners = FindIdOwners(f).owners;
  for (const RecordFact* r : owners) {
    if (!r->adopted) wanted.insert(f.layout.IndexEntry(r->id));
  }
  if (!f.root_record_id && !f.RootFolderId().empty()) wanted.insert(f.layout.IndexEntry(f.RootFolderId()));
  // First what must go (a stray file may sit where a shard directory belongs).
  for (const IndexFileFact& i : f.index) {
    if (!wanted.count(i.path)) FOLIO_RETURN_IF_ERROR(fs.RemoveTree(i.path));
  }
  FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs, f.layout.IndexDir()));
  for (const RecordFact* r : owners) {
    if (r->adopted) continue;
    const std::string path = f.layout.IndexEntry(r->id);
    storage::IndexEntry want = ExpectedEntry(*r);
    auto it = existing.find(path);
    const IndexFileFact* have = it == existing.end() ? nullptr : it->second;
    if (!r->parent && have && have->entry) want.parent = have->entry->parent;  // unknown: keep what is there
    if (have && have->entry && have->entry->kind == want.kind && have->entry->parent == want.parent &&
        have->entry->name == want.name && have->entry->path == want.path) {
      continue;
    }
    if (have && !have->entry) FOLIO_RETURN_IF_ERROR(fs.RemoveTree(path));  // e.g. a directory
    FOLIO_RETURN_IF_ERROR(storage::EnsureDir(fs, f.layout.IndexShardDir(r->id)));
    FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(fs, path, storage::IndexEntryToJson(want)));
  }
  return OkStatus();
}

}  // namespace folio::fsck
