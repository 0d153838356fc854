// The walk over one repository: records, ids, series, the index, types and leftovers
// (facts.h). Only reads; every unreadable or garbage file becomes a fact, never an error.
#include <algorithm>
#include <map>
#include <set>

#include "folio/cmis_ids.h"
#include "fsck/facts.h"
#include "fsck/walk_util.h"
#include "repo/hand_edits/folder_markers.h"
#include "storage/ids.h"
#include "storage/name_rules.h"

namespace folio::fsck {
namespace {

using storage::JoinPath;
using storage::Json;

// The record decoders never throw: a mistyped field is a Status like a missing one.
Result<repo::ObjectRecord> DecodeObject(const Json& j, const std::string& what) {
  return repo::ObjectRecordFromJson(j, what);
}

Result<repo::SeriesRecord> DecodeSeries(const Json& j, const std::string& what) {
  return repo::SeriesRecordFromJson(j, what);
}

// "invalid record 'p': field 'id' is missing ..." from a decoder's "'p': field ...".
std::string Invalid(const std::string& path, const Status& s) {
  std::string m = s.message();
  const std::string prefix = "'" + path + "': ";
  if (m.rfind(prefix, 0) == 0) m = m.substr(prefix.size());
  return "invalid record '" + path + "': " + m;
}

// Ids of indexed objects: Folio's id form, without a version label.
bool IsIndexedId(const std::string& id) {
  auto p = storage::ParseObjectId(id);
  return p && !p->label && p->base == id;
}

std::optional<std::string> TypeIdOf(const Json& properties, std::string_view base_type) {
  auto it = properties.find(cmis::kObjectTypeId);
  if (it == properties.end()) return std::string(base_type);
  if (!it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

class RepoWalker {
  // What WalkFolder found in one folder, for ResolveDocuments.
  struct FolderContent {
    std::string path;
    std::optional<std::string> id;   // the id its tables are named by
    bool record_unreadable = false;  // its folder.json is there but unusable
    std::set<std::string> files;         // regular files
    std::set<std::string> series_names;  // entries of .folio/docs
  };

 public:
  RepoWalker(Fs& fs, RepoFacts& f) : fs_(fs), f_(f), layout_(f.layout) {}

  void Run() {
    ReadRepositoryFile();
    // A metadata directory that is something else blocks Folio: each is reported with
    // what it should hold, and repaired like it.
    if (NotADirectory(layout_.JournalDir())) {
      f_.journal.push_back({layout_.JournalDir(), std::nullopt, "'" + layout_.JournalDir() + "' is not a directory"});
    }
    ReadJournal();  // first: temp files that a committed record names are not leftovers
    ReadCommitLog();
    WalkFolder("", std::string());
    ReadRelationships();
    ReadIndex();
    ReadAdoptionTables();
    ResolveDocuments();
    ReadTypes();
    f_.markers_dir_is_file = NotADirectory(layout_.CheckedOutDir());
    for (const DirEntry& e : List(layout_.CheckedOutDir())) f_.markers.push_back(e.name);
    if (NotADirectory(layout_.TrashDir())) f_.trash.push_back(layout_.TrashDir());
    for (const DirEntry& e : RawList(layout_.TrashDir())) f_.trash.push_back(JoinPath(layout_.TrashDir(), e.name));
    if (NotADirectory(layout_.UploadsDir())) f_.uploads.push_back({layout_.UploadsDir(), 0});
    for (const DirEntry& e : RawList(layout_.UploadsDir())) {
      const std::string path = JoinPath(layout_.UploadsDir(), e.name);
      auto st = fs_.Stat(path);
      f_.uploads.push_back({path, st.ok() ? st->mtime_ns : 0});
    }
  }

 private:
  bool NotADirectory(const std::string& path) {
    auto st = fs_.Stat(path);
    return st.ok() && st->type != FileType::kDirectory;
  }

  // A directory holding records that is not one: a bad record, set aside whole.
  void CheckRecordDir(const std::string& path) {
    if (NotADirectory(path)) f_.bad_records.push_back({path, "'" + path + "' is not a directory", path});
  }

  // Every entry of `dir` by name; empty if `dir` does not exist. An unlistable
  // directory is a bad record (nothing to move).
  std::vector<DirEntry> RawList(const std::string& dir) {
    auto entries = fs_.List(dir);
    if (!entries.ok()) {
      if (!IsMissing(entries.status())) f_.bad_records.push_back({dir, entries.status().message(), ""});
      return {};
    }
    SortByName(*entries);
    return std::move(*entries);
  }

  // RawList without temp files (recorded as leftovers unless a committed journal
  // record names them); symlinks and special files are recorded and kept.
  std::vector<DirEntry> List(const std::string& dir) {
    std::vector<DirEntry> out;
    for (DirEntry& e : RawList(dir)) {
      const std::string path = JoinPath(dir, e.name);
      if (storage::IsTempName(e.name)) {
        if (!committed_.count(path)) f_.temps.push_back(path);
        continue;
      }
      if (e.type == FileType::kSymlink || e.type == FileType::kOther) f_.specials.push_back({path, e.type});
      out.push_back(std::move(e));
    }
    return out;
  }

  // Reads and parses a JSON record; on failure records a bad record moving `move`.
  std::optional<Json> ReadRecordJson(const std::string& path, const std::string& missing, const std::string& move) {
    auto j = storage::ReadJsonFile(fs_, path);
    if (j.ok()) return std::move(*j);
    if (IsMissing(j.status())) {
      if (!missing.empty()) f_.bad_records.push_back({path, missing, move});
    } else {
      f_.bad_records.push_back({path, j.status().message(), move});
    }
    return std::nullopt;
  }

  void ReadRepositoryFile() {
    auto j = storage::ReadJsonFile(fs_, layout_.RepositoryFile());
    if (j.ok()) {
      f_.repository_json = std::move(*j);
    } else if (IsMissing(j.status())) {
      f_.repository_error = "missing repository record '" + layout_.RepositoryFile() + "'";
    } else {
      f_.repository_error = j.status().message();
    }
  }

  void ReadJournal() {
    for (const DirEntry& e : RawList(layout_.JournalDir())) {
      if (e.type != FileType::kFile || !storage::IdOfRecordFileName(e.name)) continue;
      JournalFact j;
      j.path = JoinPath(layout_.JournalDir(), e.name);
      auto json = storage::ReadJsonFile(fs_, j.path);
      if (json.ok()) {
        auto actions = storage::ParseJournalRecord(*json, j.path);
        if (actions.ok()) {
          for (const storage::JournalAction& a : *actions) {
            if (a.op == storage::JournalAction::Op::kRename) committed_.insert(a.from);
          }
          j.actions = std::move(*actions);
        } else {
          j.error = actions.status().message();
        }
      } else {
        j.error = json.status().message();
      }
      f_.journal.push_back(std::move(j));
    }
    // Reported (and removed by recovery) like any other temp file.
    (void)List(layout_.JournalDir());
  }

  void ReadCommitLog() { f_.log = ReadLogFact(fs_, layout_.LogFile()); }

  void WalkFolder(const std::string& folder, const std::optional<std::string>& parent_id) {
    FolderContent content;
    content.path = folder;
    std::vector<std::string> subfolders;
    bool has_meta_entry = false, meta_is_dir = false;
    for (const DirEntry& e : List(layout_.Dir(folder))) {
      if (e.name == storage::kMetaDir) {
        has_meta_entry = true;
        meta_is_dir = e.type == FileType::kDirectory;
        if (e.type == FileType::kFile) {
          const std::string path = layout_.FolderMeta(folder);
          f_.bad_records.push_back({path, "metadata directory '" + path + "' is a file", path});
        }
        continue;
      }
      if (storage::IsReservedName(e.name) || !storage::ValidateName(e.name).ok()) continue;
      if (e.type == FileType::kDirectory) subfolders.push_back(e.name);
      if (e.type == FileType::kFile) content.files.insert(e.name);
    }
    std::optional<std::string> id;
    if (meta_is_dir) {
      bool has_record = false;
      for (const DirEntry& e : List(layout_.FolderMeta(folder))) {
        if (e.name == storage::kFolderFileName) has_record = true;
      }
      if (has_record) {
        id = ReadFolderRecord(folder, parent_id);
        content.record_unreadable = !id;
      } else {
        f_.unadopted_folders.push_back(folder);
      }
      ReadFolderMarkers(folder);
      CheckRecordDir(layout_.DocsDir(folder));
      CheckRecordDir(layout_.ItemsDir(folder));
      for (const DirEntry& e : List(layout_.DocsDir(folder))) {
        content.series_names.insert(e.name);
        const std::string dir = layout_.SeriesDir(folder, e.name);
        if (e.type == FileType::kDirectory) {
          WalkSeries(folder, e.name, id);
        } else {
          f_.bad_records.push_back({dir, "series directory '" + dir + "' is not a directory", dir});
        }
      }
      WalkItems(folder, id);
    } else if (!has_meta_entry) {
      f_.unadopted_folders.push_back(folder);
    }
    // The root's tables are named by the repository's root id, also while its record is
    // missing or unreadable (fsck --repair writes it with that id).
    content.id = id;
    if (folder.empty() && !id && !f_.RootFolderId().empty()) content.id = f_.RootFolderId();
    folders_.push_back(std::move(content));
    for (const std::string& name : subfolders) WalkFolder(JoinPath(folder, name), id);
  }

  // R/.folio/adopted/<folderId>/<n>.json: the readable tables by folder id; the rest
  // are bad files.
  void ReadAdoptionTables() {
    const std::string root = layout_.AdoptedDir();
    if (NotADirectory(root)) {
      f_.bad_adopted.push_back({root, "'" + root + "' is not a directory", ""});
      return;
    }
    for (const DirEntry& d : List(root)) {
      const std::string dir = JoinPath(root, d.name);
      if (d.type != FileType::kDirectory) {
        f_.bad_adopted.push_back({dir, "stray file '" + dir + "' among the adoption tables (not a folder's directory)", ""});
        continue;
      }
      f_.adopted_folders.push_back({dir, d.name, false});
      for (const DirEntry& e : List(dir)) {
        const std::string path = JoinPath(dir, e.name);
        const std::optional<uint64_t> n = storage::AdoptionTableNumber(e.name);
        if (e.type != FileType::kFile || !n) {
          f_.bad_adopted.push_back({path, "stray file '" + path + "' among the adoption tables (not <n>.json)", d.name});
          continue;
        }
        auto json = storage::ReadJsonFile(fs_, path);
        if (!json.ok()) {
          f_.bad_adopted.push_back({path, "unreadable adoption table '" + path + "': " + json.status().message(), d.name});
          continue;
        }
        auto table = repo::hand_edits::AdoptionTableFromJson(*json, path);
        if (!table.ok()) {
          f_.bad_adopted.push_back({path, "invalid " + table.status().message(), d.name});
        } else if (table->folder_id != d.name) {
          f_.bad_adopted.push_back({path,
                                    "adoption table '" + path + "' names the folder '" + table->folder_id +
                                        "', not '" + d.name + "' (its directory)",
                                    d.name});
        } else {
          tables_[d.name].emplace(*n, std::move(*table));
        }
      }
    }
  }

  // The documents of every folder: series (walked already), entries of the folder's
  // adoption tables, and the files with neither (not adopted yet).
  void ResolveDocuments() {
    // The folder that owns an id: the only one with it, else the one its index entry
    // names (a copy made by hand is id-duplicate's), else the first walked.
    std::map<std::string, std::vector<const FolderContent*>> by_id;
    for (const FolderContent& c : folders_) {
      if (c.id) by_id[*c.id].push_back(&c);
    }
    auto index_path = [&](const std::string& id) -> std::optional<std::string> {
      const std::string entry = layout_.IndexEntry(id);
      for (const IndexFileFact& i : f_.index) {
        if (i.path == entry && i.entry && i.entry->kind == "folder") return i.entry->path;
      }
      return std::nullopt;
    };
    std::map<std::string, const FolderContent*> owner;
    for (const auto& [id, group] : by_id) {
      owner[id] = group.front();
      if (group.size() == 1) continue;
      const auto path = index_path(id);
      for (const FolderContent* c : group) {
        if (path && c->path == *path) owner[id] = c;
      }
    }
    for (const FolderContent& c : folders_) {
      std::set<std::string> adopted_names;
      if (c.id && owner[*c.id] == &c) {
        auto tables = tables_.find(*c.id);
        if (tables != tables_.end()) AddAdopted(*c.id, tables->second, &c, adopted_names);
      }
      for (const std::string& name : c.files) {
        if (!c.series_names.count(name) && !adopted_names.count(name)) {
          f_.unadopted_files.push_back(JoinPath(c.path, name));
        }
      }
    }
    // The tables of an id no folder has: their folder is gone, unless the folder the id's
    // index entry names has an unreadable record (it may well be that one: then the
    // record is sidecar-unparseable's).
    auto damaged = [&](const std::string& id) {
      const auto path = index_path(id);
      return path && std::any_of(folders_.begin(), folders_.end(), [&](const FolderContent& c) {
               return c.path == *path && c.record_unreadable;
             });
    };
    for (const auto& [id, tables] : tables_) {
      if (owner.count(id)) continue;
      std::set<std::string> ignored;
      AddAdopted(id, tables, nullptr, ignored);
    }
    for (AdoptedFolderFact& d : f_.adopted_folders) d.gone = !owner.count(d.folder_id) && !damaged(d.folder_id);
    for (const AdoptedFact& a : f_.adopted) {
      if (a.Shown()) {
        f_.records.push_back({a.entry.series_id, "document", a.folder_id, a.name, a.ObjectPath(), a.table, "", true});
      }
    }
  }

  // The entries of `tables` (one folder's, by n); `folder` is where they are (null:
  // nowhere to be found). Adds their names to `names`.
  void AddAdopted(const std::string& folder_id, const std::map<uint64_t, repo::hand_edits::AdoptionTable>& tables,
                  const FolderContent* folder, std::set<std::string>& names) {
    std::map<std::string, uint64_t> first;  // name -> the lowest table holding it
    for (const auto& [n, table] : tables) {
      for (const auto& [name, entry] : table.documents) {
        AdoptedFact a;
        a.table = layout_.AdoptionTable(folder_id, n);
        a.number = n;
        a.folder_id = folder_id;
        a.name = name;
        a.entry = entry;
        auto [it, is_first] = first.emplace(name, n);
        if (!is_first) a.lower_table = it->second;
        if (folder) {
          a.folder = folder->path;
          a.visible = layout_.Child(folder->path, name);
          auto st = fs_.Stat(a.visible);
          if (st.ok()) a.visible_stat = *st;
          a.shadowed = folder->series_names.count(name) > 0;
        }
        names.insert(name);
        f_.adopted.push_back(std::move(a));
      }
    }
  }

  void ReadFolderMarkers(const std::string& folder) {
    const std::string dir = layout_.FolderMarkersDir(folder);
    if (NotADirectory(dir)) f_.bad_folder_marker_dirs.push_back(dir);
    for (const DirEntry& e : List(dir)) {
      FolderMarkerFact m;
      m.path = JoinPath(dir, e.name);
      m.folder_path = JoinPath(folder, e.name);
      if (e.type == FileType::kFile) m.id = repo::hand_edits::ReadFolderMarker(fs_, layout_, m.folder_path);
      f_.folder_markers.push_back(std::move(m));
    }
  }

  std::optional<std::string> ReadFolderRecord(const std::string& folder, const std::optional<std::string>& parent_id) {
    const std::string file = layout_.FolderFile(folder);
    auto j = ReadRecordJson(file, "", file);
    if (!j) return std::nullopt;
    auto rec = DecodeObject(*j, file);
    if (!rec.ok()) {
      f_.bad_records.push_back({file, Invalid(file, rec.status()), file});
      return std::nullopt;
    }
    if (!IsIndexedId(rec->id)) {
      f_.bad_records.push_back({file, "invalid or missing id in folder record '" + file + "'", file});
      return std::nullopt;
    }
    const bool root = folder.empty();
    f_.records.push_back({rec->id, "folder", root ? std::optional<std::string>("") : parent_id,
                          root ? "" : storage::BaseName(folder), folder, file, file});
    f_.typed.push_back({file, TypeIdOf(rec->properties, cmis::kFolder)});
    if (root) f_.root_record_id = rec->id;
    return rec->id;
  }

  // The labels of the archives s.series describes, into s.all_labels with the listed ones
  // after them; what is wrong with an archive into s.archive_errors.
  void ReadArchives(SeriesFact& s) {
    for (const repo::VersionArchive& a : s.series->archived) {
      const std::string path = layout_.VersionArchive(s.folder, s.name, a.number);
      if (!s.archive_files.count(a.number)) {
        s.archive_errors.emplace_back(path, "missing archive '" + path + "' of " + std::to_string(a.count) +
                                                " version labels (" + a.first + " to " + a.last + ") that '" +
                                                s.series_file + "' describes");
        continue;
      }
      auto j = storage::ReadJsonFile(fs_, path);
      auto labels = j.ok() ? repo::VersionArchiveFromJson(*j, path, s.series->series_id, a)
                           : Result<std::vector<std::string>>(j.status());
      if (!labels.ok()) {
        s.archive_errors.emplace_back(path, labels.status().message());
        continue;
      }
      s.all_labels.insert(s.all_labels.end(), labels->begin(), labels->end());
    }
    s.all_labels.insert(s.all_labels.end(), s.series->versions.begin(), s.series->versions.end());
  }

  void WalkSeries(const std::string& folder, const std::string& name, const std::optional<std::string>& parent_id) {
    SeriesFact s;
    s.folder = folder;
    s.name = name;
    s.dir = layout_.SeriesDir(folder, name);
    s.series_file = layout_.SeriesFile(folder, name);
    s.visible = layout_.Child(folder, name);
    auto visible = fs_.Stat(s.visible);
    if (visible.ok()) s.visible_stat = *visible;
    bool has_series_file = false;
    using Kind = storage::SeriesFileName::Kind;
    for (const DirEntry& e : List(s.dir)) {
      if (e.type != FileType::kFile) continue;
      storage::SeriesFileName c = storage::ClassifySeriesFile(e.name);
      switch (c.kind) {
        case Kind::kSeries: has_series_file = true; break;
        case Kind::kVersionProps: s.labels[c.label].json = true; break;
        case Kind::kVersionContent: s.labels[c.label].content = true; break;
        case Kind::kPwcProps: s.labels["pwc"].json = true; break;
        case Kind::kPwcContent: s.labels["pwc"].content = true; break;
        case Kind::kVersionArchive:
          s.archive_files[storage::VersionArchiveNumber(e.name).value_or(0)] = JoinPath(s.dir, e.name);
          break;
        default: break;
      }
    }
    for (auto& [label, lf] : s.labels) {
      const bool pwc = label == "pwc";
      lf.json_path = pwc ? layout_.PwcProps(folder, name) : layout_.VersionProps(folder, name, label);
      lf.content_path = pwc ? layout_.PwcContent(folder, name) : layout_.VersionContent(folder, name, label);
      if (lf.content) {
        auto st = fs_.Stat(lf.content_path);
        if (st.ok()) {
          lf.content_size = st->size;
          lf.content_inode = st->inode;
        }
      }
      if (!lf.json) continue;
      auto j = storage::ReadJsonFile(fs_, lf.json_path);
      if (!j.ok()) {
        lf.record_error = j.status().message();
        continue;
      }
      auto rec = DecodeObject(*j, lf.json_path);
      if (!rec.ok()) {
        lf.record_error = Invalid(lf.json_path, rec.status());
        continue;
      }
      f_.typed.push_back({lf.json_path, TypeIdOf(rec->properties, cmis::kDocument)});
      lf.record = std::move(*rec);
    }
    if (!has_series_file) {
      f_.bad_records.push_back({s.series_file, "missing series record '" + s.series_file + "'", s.dir});
    } else if (auto j = ReadRecordJson(s.series_file, "", s.dir)) {
      auto series = DecodeSeries(*j, s.series_file);
      if (!series.ok()) {
        f_.bad_records.push_back({s.series_file, Invalid(s.series_file, series.status()), s.dir});
      } else if (!IsIndexedId(series->series_id)) {
        f_.bad_records.push_back({s.series_file, "invalid seriesId in '" + s.series_file + "'", s.dir});
      } else {
        f_.records.push_back({series->series_id, "document", parent_id, name, s.ObjectPath(), s.series_file, s.dir});
        s.series = std::move(*series);
        s.series_json = std::move(*j);
        ReadArchives(s);
      }
    }
    f_.series.push_back(std::move(s));
  }

  void WalkItems(const std::string& folder, const std::optional<std::string>& parent_id) {
    for (const DirEntry& e : List(layout_.ItemsDir(folder))) {
      const std::string dir = layout_.ItemDir(folder, e.name);
      if (e.type != FileType::kDirectory) {
        f_.bad_records.push_back({dir, "item directory '" + dir + "' is not a directory", dir});
        continue;
      }
      (void)List(dir);
      const std::string file = layout_.ItemFile(folder, e.name);
      auto j = ReadRecordJson(file, "missing item record '" + file + "'", dir);
      if (!j) continue;
      auto rec = DecodeObject(*j, file);
      if (!rec.ok()) {
        f_.bad_records.push_back({file, Invalid(file, rec.status()), dir});
      } else if (!IsIndexedId(rec->id)) {
        f_.bad_records.push_back({file, "invalid or missing id in item record '" + file + "'", dir});
      } else {
        f_.records.push_back({rec->id, "item", parent_id, e.name, JoinPath(folder, e.name), file, dir});
        f_.typed.push_back({file, TypeIdOf(rec->properties, cmis::kItem)});
      }
    }
  }

  void ReadRelationships() {
    CheckRecordDir(layout_.RelationshipsDir());
    for (const DirEntry& e : List(layout_.RelationshipsDir())) {
      auto id = storage::IdOfRecordFileName(e.name);
      if (e.type != FileType::kFile || !id) continue;
      const std::string path = JoinPath(layout_.RelationshipsDir(), e.name);
      const std::string& stem = *id;
      auto j = ReadRecordJson(path, "", path);
      if (!j) continue;
      auto rec = DecodeObject(*j, path);
      if (!rec.ok()) {
        f_.bad_records.push_back({path, Invalid(path, rec.status()), path});
        continue;
      }
      if (!IsIndexedId(stem) || rec->id != stem) {
        f_.bad_records.push_back({path, "wrong id '" + rec->id + "' in relationship record '" + path + "'", path});
        continue;
      }
      bool ends = true;
      for (const char* key : {cmis::kSourceId, cmis::kTargetId}) {
        auto it = rec->properties.find(key);
        if (it == rec->properties.end() || !it->is_string()) {
          f_.bad_records.push_back(
              {path, "missing " + std::string(key) + " in relationship record '" + path + "'", path});
          ends = false;
          break;
        }
      }
      if (!ends) continue;
      auto name = rec->properties.find(cmis::kName);
      f_.records.push_back({stem, "relationship", std::string(),
                            name != rec->properties.end() && name->is_string() ? name->get<std::string>() : "", "",
                            path, path});
      f_.typed.push_back({path, TypeIdOf(rec->properties, cmis::kRelationship)});
    }
  }

  void ReadIndex() {
    if (NotADirectory(layout_.IndexDir()))
      f_.index.push_back({layout_.IndexDir(), "", std::nullopt, "not a directory"});
    for (const DirEntry& shard : List(layout_.IndexDir())) {
      const std::string shard_path = JoinPath(layout_.IndexDir(), shard.name);
      if (shard.type != FileType::kDirectory) {
        if (shard.type == FileType::kFile) f_.index.push_back({shard_path, "", std::nullopt, "not an index shard"});
        continue;
      }
      for (const DirEntry& e : List(shard_path)) {
        if (e.type != FileType::kFile && e.type != FileType::kDirectory) continue;
        IndexFileFact fact;
        fact.path = JoinPath(shard_path, e.name);
        if (e.type == FileType::kFile) fact.id = storage::IdOfRecordFileName(e.name).value_or("");
        auto j = e.type == FileType::kFile ? storage::ReadJsonFile(fs_, fact.path)
                                           : Result<Json>(StorageError("'" + fact.path + "' is a directory"));
        if (j.ok()) {
          auto entry = storage::IndexEntryFromJson(*j, fact.path);
          if (entry.ok()) {
            fact.entry = std::move(*entry);
          } else {
            fact.error = entry.status().message();
          }
        } else {
          fact.error = j.status().message();
        }
        f_.index.push_back(std::move(fact));
      }
    }
  }

  void ReadTypes() {
    if (NotADirectory(layout_.TypesDir())) {
      f_.types.push_back({layout_.TypesDir(), std::nullopt, "'" + layout_.TypesDir() + "' is not a directory"});
    }
    for (const DirEntry& e : List(layout_.TypesDir())) {
      if (e.type != FileType::kFile) continue;
      TypeFileFact t;
      t.path = JoinPath(layout_.TypesDir(), e.name);
      auto j = storage::ReadJsonFile(fs_, t.path);
      if (j.ok()) {
        t.json = std::move(*j);
      } else {
        t.error = j.status().message();
      }
      f_.types.push_back(std::move(t));
    }
  }

  Fs& fs_;
  RepoFacts& f_;
  const storage::RepoLayout& layout_;
  std::set<std::string> committed_;  // temp files a committed journal record renames
  std::vector<FolderContent> folders_;  // in walk order
  // Readable tables by folder id, by n.
  std::map<std::string, std::map<uint64_t, repo::hand_edits::AdoptionTable>> tables_;
};

}  // namespace

std::string RepoFacts::RootFolderId() const {
  if (!repository_json) return "";
  auto it = repository_json->find("rootFolderId");
  return it != repository_json->end() && it->is_string() ? it->get<std::string>() : "";
}

LogFact ReadLogFact(Fs& fs, const std::string& path) {
  LogFact l;
  l.path = path;
  auto log = storage::CommitLog::OpenExisting(fs, l.path);
  if (!log.ok()) {
    if (!IsMissing(log.status())) l.error = log.status().message();
    return l;
  }
  l.exists = true;
  auto header = (*log)->ReadHeader();
  if (!header.ok()) {
    l.error = header.status().message();
    return l;
  }
  // Records after the last one known applied (on this boot; after a restart, every
  // record of the current epoch) are pending: recovery applies them again.
  const bool same_boot = !fs.BootId().empty() && header->boot_id == fs.BootId();
  auto records = (*log)->Scan(header->epoch, same_boot ? header->applied_end : storage::kLogHeaderBytes,
                              same_boot ? header->applied_lsn : 0);
  if (!records.ok()) {
    l.error = records.status().message();
    return l;
  }
  l.pending = records->size();
  return l;
}

RepoFacts WalkRepository(Fs& fs, const std::string& base) {
  RepoFacts f(base);
  RepoWalker(fs, f).Run();
  return f;
}

}  // namespace folio::fsck
