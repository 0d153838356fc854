// Adoption of what a person made by hand; see adopter.h.
#include "repo/hand_edits/adopter.h"

#include <algorithm>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>

#include "folio/cmis_ids.h"
#include "folio/repository.h"
#include "repo/engine.h"
#include "repo/hand_edits/folder_markers.h"
#include "repo/hand_edits/vanished.h"
#include "repo/lookup/locator.h"
#include "repo/mime.h"
#include "repo/versions/version_list.h"
#include "storage/datetime.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::repo::hand_edits {
namespace {

int64_t MsOf(int64_t ns) { return ns / 1000000; }

}  // namespace

Status Adopter::Bookkeep(const std::function<Status(storage::ChangeSet&)>& stage) {
  Status s = engine_.committer.RunBookkeeping(stage);
  // A read-only process out of memory for adoptions: every request for what is not
  // adopted yet fails the same way (what an overlay holds stays for the process's life),
  // so the operator is told once per repository.
  if (s.Is(std::errc::not_enough_memory) && !told_out_of_memory_.exchange(true)) spdlog::warn("{}", s.message());
  return s;
}

Status Adopter::AdoptFolder(const std::string& folder) {
  std::string parent_id;
  if (!folder.empty()) {
    // First: the parent may need adopting too.
    FOLIO_ASSIGN_OR_RETURN(parent_id, FolderIdAdopting(storage::ParentPath(folder)));
    // A directory made by hand where a folder was (rm -r, then mkdir): the removal of
    // that folder, which its marker names, is taken in first (nothing when read-only).
    if (!Exists(engine_.fs, engine_.layout.FolderFile(folder))) {
      if (auto gone = engine_.locator.GoneFolderId(folder)) FOLIO_RETURN_IF_ERROR(engine_.vanished.Absorb(*gone));
    }
  }
  return Bookkeep([&](storage::ChangeSet& change) -> Status {
    if (Exists(engine_.fs, engine_.layout.FolderFile(folder))) return OkStatus();
    FOLIO_ASSIGN_OR_RETURN(FileStat st, engine_.fs.Stat(engine_.layout.Dir(folder)));
    if (st.type != FileType::kDirectory) return ObjectNotFound("no folder at path '/" + folder + "'");
    ObjectRecord rec;
    rec.id = folder.empty() ? engine_.info.root_folder_id : engine_.staging.NewObjectId('f');
    rec.properties = changes::NewObjectProperties(cmis::kFolder, kAdoptingUser, MsOf(st.mtime_ns));
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageDirIfMissing(change, engine_.layout.FolderMeta(folder)));
    change.PutJson(engine_.layout.FolderFile(folder), ToJson(rec));
    storage::StageIndexEntry(change, engine_.layout, rec.id,
                             {"folder", parent_id, folder.empty() ? "" : storage::BaseName(folder), folder});
    if (!folder.empty()) FOLIO_RETURN_IF_ERROR(StageFolderMarker(change, engine_.staging, folder, rec.id));
    change.Record(changes::Event("created", rec.id, BaseType::kFolder, cmis::kFolder));
    return OkStatus();
  });
}

Result<std::string> Adopter::FolderIdAdopting(const std::string& folder) {
  auto id = engine_.records.FolderId(folder);
  if (!id.ok() && id.status().Is(std::errc::no_such_file_or_directory)) {
    FOLIO_RETURN_IF_ERROR(AdoptFolder(folder));
    id = engine_.records.FolderId(folder);
  }
  return id;
}

AdoptedEntry Adopter::NewEntry(storage::ChangeSet& change, const std::string& folder_id, const FileStat& st,
                               std::string mime_type) {
  AdoptedEntry e;
  e.series_id = storage::NewAdoptedSeriesId(folder_id);
  e.mime_type = std::move(mime_type);
  e.created_ms = e.modified_ms = MsOf(st.mtime_ns);
  e.file_size = st.size;
  e.file_mtime_ns = st.mtime_ns;
  e.file_inode = st.inode;
  change.Record(
      changes::Event("created", storage::VersionId(e.series_id, "1.0"), BaseType::kDocument, cmis::kDocument));
  return e;
}

Status Adopter::AdoptDocument(const std::string& folder, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(std::string folder_id, FolderIdAdopting(folder));
  // Read-only with too little memory left for the whole batch: this one alone may fit.
  bool alone = false;
  auto adopt = [&](storage::ChangeSet& change) -> Status {
    if (Exists(engine_.fs, engine_.layout.SeriesFile(folder, name))) return OkStatus();
    if (Exists(engine_.fs, engine_.layout.SeriesDir(folder, name))) {
      // Metadata without its series.json: damaged, not hand-added.
      return StorageError("document '/" + storage::JoinPath(folder, name) + "' has a series directory without " +
                          "series.json; run folio fsck --repair");
    }
    // The folder's adopted documents (docs/STORAGE.md §4.1), this one perhaps among them.
    FOLIO_ASSIGN_OR_RETURN(auto adopted, engine_.adopted.All(folder_id));
    if (adopted.count(name) > 0) return OkStatus();
    // The folder's directory, opened once (confined as any path): each of its files is
    // then one fstatat beneath it, not an openat2, fstat and close.
    FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Directory> dir, engine_.fs.OpenDirectory(engine_.layout.Dir(folder)));
    FOLIO_ASSIGN_OR_RETURN(FileStat st, dir->IdentityStat(name));
    if (st.type != FileType::kFile) {
      return ObjectNotFound("no document at path '/" + storage::JoinPath(folder, name) + "'");
    }
    // One entry per file of one new table: no series directory, version file or index
    // entry until the document's first change.
    std::vector<std::pair<std::string, FileStat>> files{{name, st}};
    if (!alone) {
      // The other files added by hand to this folder come along: listing a folder of
      // new files then costs one change, not one per file.
      std::set<std::string> known;
      auto docs = engine_.fs.List(engine_.layout.DocsDir(folder));
      if (docs.ok()) {
        for (DirEntry& e : *docs) known.insert(std::move(e.name));
      }
      // In name order: a table then holds neighbours, so that a listing, which builds
      // its children in name order, reads one table after the other rather than all of
      // them for every page (AdoptedDocs keeps only a few tables' decodings).
      auto entries = engine_.fs.List(engine_.layout.Dir(folder));
      std::vector<DirEntry> others = entries.ok() ? std::move(*entries) : std::vector<DirEntry>();
      std::sort(others.begin(), others.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
      for (const DirEntry& e : others) {
        if (files.size() >= kAdoptionBatch) break;
        if (e.type != FileType::kFile || e.name == name || known.count(e.name) > 0 || adopted.count(e.name) > 0) {
          continue;
        }
        if (storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) continue;
        auto other = dir->IdentityStat(e.name);
        if (!other.ok() || other->type != FileType::kFile) continue;
        files.emplace_back(e.name, *other);
      }
    }
    std::vector<std::string> types = MimeTypesOf(folder, files);
    std::map<std::string, AdoptedEntry> documents;
    for (size_t i = 0; i < files.size(); ++i) {
      documents.emplace(files[i].first, NewEntry(change, folder_id, files[i].second, std::move(types[i])));
    }
    return engine_.adopted.StageNewTable(change, folder_id, std::move(documents));
  };
  Status s = engine_.committer.RunBookkeeping(adopt);  // logged below if even this one cannot be held
  if (!s.Is(std::errc::not_enough_memory)) return s;
  alone = true;
  return Bookkeep(adopt);
}

void Adopter::SetMimeSniffer(MimeSniffer sniffer) {
  std::lock_guard<std::mutex> lock(sniffer_mu_);
  sniffer_ = std::move(sniffer);
}

std::vector<std::string> Adopter::MimeTypesOf(const std::string& folder,
                                              const std::vector<std::pair<std::string, FileStat>>& files) {
  std::vector<std::string> types(files.size());
  std::vector<size_t> unknown;  // what the extension does not tell
  for (size_t i = 0; i < files.size(); ++i) {
    types[i] = MimeTypeForName(files[i].first);
    if (types[i] == kUnknownMimeType) unknown.push_back(i);
  }
  MimeSniffer sniffer;
  {
    std::lock_guard<std::mutex> lock(sniffer_mu_);
    sniffer = sniffer_;
  }
  if (!sniffer || unknown.empty()) return types;
  // Sniffing is CPU (libmagic: a quarter of a millisecond a file): a batch's share of
  // it runs on every core, a thread per slice.
  const auto sniff_from = [&](size_t first, size_t step) {
    for (size_t k = first; k < unknown.size(); k += step) {
      const size_t i = unknown[k];
      types[i] = Sniffed(sniffer, engine_.layout.Child(folder, files[i].first), std::move(types[i]));
    }
  };
  const size_t threads =
      std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), kMaxSniffThreads, 1 + unknown.size() / 16});
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(sniff_from, t, threads);
  sniff_from(0, threads);
  for (std::thread& h : helpers) h.join();
  return types;
}

std::string Adopter::Sniffed(const MimeSniffer& sniffer, const std::string& visible, std::string by_name) {
  // Unreadable now: the change itself will say why; the name's verdict stands.
  auto file = engine_.fs.Open(visible);
  if (!file.ok()) return by_name;
  std::string head(kMimeSniffBytes, '\0');
  size_t got = 0;
  while (got < head.size()) {
    auto n = (*file)->Read(head.data() + got, head.size() - got);
    if (!n.ok() || *n == 0) break;
    got += *n;
  }
  head.resize(got);
  std::string sniffed = sniffer(head);
  return sniffed.empty() ? by_name : sniffed;
}

Result<SeriesRecord> Adopter::AbsorbHandEdit(const std::string& folder, const std::string& name) {
  const std::string visible = engine_.layout.Child(folder, name);
  FOLIO_RETURN_IF_ERROR(Bookkeep([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(SeriesRecord series, engine_.records.ReadSeries(folder, name));
    FOLIO_ASSIGN_OR_RETURN(FileStat st, engine_.fs.Stat(visible));
    if (series.versions.empty()) return OkStatus();
    if (st.size == series.file_size && st.mtime_ns == series.file_mtime_ns) {
      // The same size and time stamp under a new inode: the data directory was copied
      // (cp -a, a restore from a backup), not edited. Only the recorded identity is
      // brought up to date, so that the next read does not see it again.
      if (series.file_inode != 0 && st.inode != series.file_inode) {
        change.PutJsonStamped(engine_.layout.SeriesFile(folder, name), ToJson(series), visible);
      }
      return OkStatus();
    }
    const std::string latest = series.versions.back();
    const std::string props_path = engine_.layout.VersionProps(folder, name, latest);
    const std::string content_path = engine_.layout.VersionContent(folder, name, latest);
    FOLIO_ASSIGN_OR_RETURN(ObjectRecord rec, engine_.records.ReadRecord(props_path));
    auto content_st = engine_.fs.Stat(content_path);
    // The visible file is usually the latest content's own inode (a link): an edit in
    // place changed both, and is an edit even though the bytes compare equal.
    const bool same_inode = content_st.ok() && SameInode(*content_st, st);
    if (same_inode && engine_.committer.read_only() && rec.content && rec.content->length == st.size) {
      // Read-only, the file is the latest content itself and its size unchanged: a
      // touch cannot be told from an edit in place, and a repository that cannot
      // write does not invent a modification. The new identity is remembered.
      change.PutJsonStamped(engine_.layout.SeriesFile(folder, name), ToJson(series), visible);
      return OkStatus();
    }
    if (!same_inode && rec.content && rec.content->length == st.size &&
        SameBytes(engine_.fs, visible, content_path) == true) {
      // The same bytes under a new time stamp (a copy without -p, a git checkout,
      // touch): not an edit; only the recorded identity is brought up to date.
      change.PutJsonStamped(engine_.layout.SeriesFile(folder, name), ToJson(series), visible);
      return OkStatus();
    }
    StageHandEdit(change, engine_.layout, folder, name, series, std::move(rec), st, same_inode);
    return OkStatus();
  }));
  return engine_.records.ReadSeries(folder, name);
}

void StageHandEdit(storage::ChangeSet& change, const storage::RepoLayout& layout, const std::string& folder,
                   const std::string& name, const SeriesRecord& series, ObjectRecord rec, const FileStat& st,
                   bool same_inode) {
  const std::string latest = series.versions.back();
  const std::string visible = layout.Child(folder, name);
  if (!same_inode) change.Link(layout.VersionContent(folder, name, latest), visible, storage::Guard::Inode(st));
  ContentInfo info = rec.content.value_or(ContentInfo{0, MimeTypeForName(name), name, ""});
  info.length = st.size;
  info.sha256.clear();  // not read here: unknown (Rule V5)
  rec.content = info;
  changes::Touch(rec.properties, kAdoptingUser, MsOf(st.mtime_ns));
  change.PutJson(layout.VersionProps(folder, name, latest), ToJson(rec));
  change.PutJsonStamped(layout.SeriesFile(folder, name), ToJson(series), visible);
  change.Record(changes::Event("updated", storage::VersionId(series.series_id, latest), BaseType::kDocument,
                               changes::StoredTypeId(rec.properties, BaseType::kDocument)));
}

Status Adopter::AbsorbHandRemovals(const std::string& folder, const std::vector<std::string>& names) {
  if (engine_.committer.read_only() || engine_.committer.on_read_only_fs() || names.empty()) return OkStatus();
  // One time stamp per change, in the form fsck's lost+found directories use.
  std::string stamp = storage::FormatIsoMs(storage::NowMs());
  std::replace(stamp.begin(), stamp.end(), ':', '-');
  return engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    bool first = true;
    std::vector<std::shared_ptr<const AdoptedDoc>> gone_adopted;
    std::optional<std::map<std::string, std::shared_ptr<const AdoptedDoc>>> adopted;  // read once, if needed
    for (size_t i = 0; i < names.size() && i < kAdoptionBatch; ++i) {
      const std::string& name = names[i];
      auto series = engine_.records.ReadSeries(folder, name);
      if (!series.ok() && series.status().Is(std::errc::no_such_file_or_directory)) {
        // An adopted document (docs/STORAGE.md §4.1): its entry goes, nothing is kept.
        if (!adopted) {
          auto folder_id = engine_.records.FolderId(folder);
          if (!folder_id.ok()) break;  // its folder is gone too: the sweep's to record
          FOLIO_ASSIGN_OR_RETURN(adopted, engine_.adopted.All(*folder_id));
        }
        auto it = adopted->find(name);
        if (it == adopted->end()) continue;
        auto st = engine_.fs.Stat(engine_.layout.Child(folder, name));
        if (st.ok()) continue;
        if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
        gone_adopted.push_back(it->second);
        const AdoptedEntry& entry = it->second->entry;
        for (storage::ChangeEvent& e :
             changes::DocumentDeletedEvents(entry.series_id, AdoptedSeries(entry).versions, false, cmis::kDocument,
                                            AdoptedVersion(name, entry).acl)) {
          change.Record(std::move(e));
        }
        continue;
      }
      // Gone already (another process, a change in flight), or damaged: fsck's to tell.
      if (!series.ok() || series->series_id.empty()) continue;
      auto st = engine_.fs.Stat(engine_.layout.Child(folder, name));
      if (st.ok()) continue;  // the file is there (back, or never gone)
      if (!st.status().Is(std::errc::no_such_file_or_directory)) return st.status();
      auto rec = engine_.records.ReadDocumentRecord(folder, name, *series);
      const std::string type_id =
          rec.ok() ? changes::StoredTypeId(rec->properties, BaseType::kDocument) : cmis::kDocument;
      const std::string from = engine_.layout.SeriesDir(folder, name);
      const std::string to = storage::JoinPath(storage::JoinPath(engine_.layout.LostFoundDir(), stamp),
                                               from.substr(engine_.layout.base().size() + 1));
      if (first) change.MakeDir(engine_.layout.LostFoundDir());
      first = false;
      // Every directory on the way (MakeDir of one that exists does nothing).
      for (size_t slash = engine_.layout.LostFoundDir().size();
           (slash = to.find('/', slash + 1)) != std::string::npos;) {
        change.MakeDir(to.substr(0, slash));
      }
      change.Rename(from, to, storage::Guard::RecordId(std::string(storage::kSeriesFileName), "seriesId",
                                                       series->series_id));
      storage::StageIndexRemoval(change, engine_.layout, series->series_id);
      change.Remove(engine_.layout.CheckedOutMarker(series->series_id));
      // Every version (those of an archive that cannot be read: the ones series.json lists).
      auto labels = versions::VersionList(engine_.fs, engine_.layout).AllLabels(folder, name, *series);
      for (storage::ChangeEvent& e : changes::DocumentDeletedEvents(
               series->series_id, labels.ok() ? *labels : series->versions, series->checked_out.has_value(), type_id,
               rec.ok() ? rec->acl : std::vector<Ace>{})) {
        change.Record(std::move(e));
      }
    }
    return engine_.adopted.StageWithout(change, gone_adopted);
  });
}

Status Adopter::Materialize(const std::string& folder, const std::string& name) {
  const std::string visible = engine_.layout.Child(folder, name);
  // A change, not bookkeeping: it is the first step of a change of the document, which
  // a read-only repository refuses (with the same error).
  return engine_.committer.Run([&](storage::ChangeSet& change) -> Status {
    if (Exists(engine_.fs, engine_.layout.SeriesFile(folder, name))) return OkStatus();
    FOLIO_ASSIGN_OR_RETURN(std::string folder_id, engine_.records.FolderId(folder));
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const AdoptedDoc> doc, engine_.adopted.Find(folder_id, name));
    if (doc == nullptr) return OkStatus();  // deleted meanwhile: the change will say so
    FOLIO_ASSIGN_OR_RETURN(FileStat st, engine_.fs.Stat(visible));
    if (st.type != FileType::kFile) {
      return ObjectNotFound("no document at path '/" + storage::JoinPath(folder, name) + "'");
    }
    AdoptedEntry e = doc->entry;
    // An edit by hand not yet taken in is taken in now, as a read would.
    const bool edited = !SameIdentity(e, st);
    if (edited) TakeIdentity(e, st);
    FOLIO_RETURN_IF_ERROR(engine_.staging.StageFolderMeta(change, folder, false));
    change.MakeDir(engine_.layout.SeriesDir(folder, name));
    // The file's own bytes become version 1.0: linked, never copied.
    change.Link(engine_.layout.VersionContent(folder, name, "1.0"), visible, storage::Guard::Inode(st));
    change.PutJson(engine_.layout.VersionProps(folder, name, "1.0"), ToJson(AdoptedVersion(name, e)));
    change.PutJsonStamped(engine_.layout.SeriesFile(folder, name), ToJson(AdoptedSeries(e)), visible);
    storage::StageIndexEntry(change, engine_.layout, e.series_id,
                             {"document", folder_id, name, storage::JoinPath(folder, name)});
    FOLIO_RETURN_IF_ERROR(engine_.adopted.StageWithout(change, {doc}));
    if (edited) {
      change.Record(
          changes::Event("updated", storage::VersionId(e.series_id, "1.0"), BaseType::kDocument, cmis::kDocument));
    }
    return OkStatus();
  });
}

Result<std::shared_ptr<const AdoptedDoc>> Adopter::AbsorbAdoptedEdit(const std::string& folder,
                                                                     const std::string& name) {
  const std::string visible = engine_.layout.Child(folder, name);
  FOLIO_ASSIGN_OR_RETURN(std::string folder_id, engine_.records.FolderId(folder));
  FOLIO_RETURN_IF_ERROR(Bookkeep([&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const AdoptedDoc> doc, engine_.adopted.Find(folder_id, name));
    if (doc == nullptr) return OkStatus();
    auto st = engine_.fs.Stat(visible);
    if (!st.ok() || st->type != FileType::kFile) return OkStatus();  // the caller finds out
    if (SameIdentity(doc->entry, *st)) return OkStatus();
    AdoptedEntry e = doc->entry;
    if (engine_.committer.read_only() && st->inode == e.file_inode && st->size == e.file_size) {
      // Read-only, the same file at the same size: a touch cannot be told from an edit
      // in place, and a repository that cannot write does not invent a modification.
      // The new identity is remembered.
      e.file_mtime_ns = st->mtime_ns;
      return engine_.adopted.StageReplace(change, *doc, e);
    }
    TakeIdentity(e, *st);
    FOLIO_RETURN_IF_ERROR(engine_.adopted.StageReplace(change, *doc, e));
    change.Record(
        changes::Event("updated", storage::VersionId(e.series_id, "1.0"), BaseType::kDocument, cmis::kDocument));
    return OkStatus();
  }));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const AdoptedDoc> doc, engine_.adopted.Find(folder_id, name));
  if (doc == nullptr) return doc;
  auto st = engine_.fs.Stat(visible);
  if (!st.ok() || st->type != FileType::kFile) return std::shared_ptr<const AdoptedDoc>();
  return doc;
}

}  // namespace folio::repo::hand_edits
