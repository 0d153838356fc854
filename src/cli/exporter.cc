// folio export; see exporter.h.
#include "cli/exporter.h"

#include <chrono>
#include <memory>
#include <set>

#include "cli/data_dir.h"
#include "cli/serving_lock.h"
#include "folio/cmis_ids.h"
#include "folio/repository.h"
#include "folio/store.h"

namespace folio::cli {
namespace {

constexpr const char* kTempPrefix = ".folio-export-tmp-";
constexpr uint64_t kPageSize = 200;

std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

int64_t ModifiedMs(const ObjectData& o) {
  auto it = o.properties.find(cmis::kLastModificationDate);
  return it != o.properties.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// One file to write: a version's content at `path` (DEST-relative).
struct Planned {
  std::string path;
  std::string object_id;
  uint64_t size = 0;
  int64_t mtime_ms = 0;
};

// The plan: folders (parents first) and the files, read from the repository
// before anything is written, so that the progress has totals.
class Planner {
 public:
  Planner(Repository& repo, bool all_versions, ExportReport& report)
      : repo_(repo), all_versions_(all_versions), report_(report) {}

  Status Folder(const std::string& folder_id, const std::string& path) {
    std::vector<ObjectData> children;
    for (uint64_t skip = 0;; skip += kPageSize) {
      FOLIO_ASSIGN_OR_RETURN(ChildrenPage page, repo_.GetChildren(folder_id, skip, kPageSize));
      for (ObjectData& o : page.objects) children.push_back(std::move(o));
      if (!page.has_more) break;
    }
    names_.clear();
    for (const ObjectData& o : children) names_.insert(o.name);
    for (const ObjectData& o : children) {
      if (g_stop_requested.load()) return OkStatus();
      const std::string child = Join(path, o.name);
      switch (o.base) {
        case BaseType::kFolder:
          ++report_.folders;
          folders.push_back(child);
          FOLIO_RETURN_IF_ERROR(Folder(o.id, child));
          break;
        case BaseType::kDocument: FOLIO_RETURN_IF_ERROR(Document(o, path, child)); break;
        default: ++report_.not_files; break;
      }
    }
    return OkStatus();
  }

  std::vector<std::string> folders;
  std::vector<Planned> files;

 private:
  Status Document(const ObjectData& o, const std::string& folder, const std::string& path) {
    ++report_.documents;
    if (o.is_pwc) {
      // Created checked out: no version to export yet.
      report_.left_out.push_back({path, "no version yet (a working copy only)"});
      return OkStatus();
    }
    Add({path, o.id, o.content ? o.content->length : 0, ModifiedMs(o)});
    const bool versionable = !o.properties.value(cmis::kVersionLabel, Json()).is_null();
    if (!all_versions_ || !versionable) return OkStatus();
    const std::string dir = Join(folder, VersionsDirName(o.name));
    if (names_.count(VersionsDirName(o.name)) > 0) {
      report_.left_out.push_back(
          {dir + "/", "the versions of '" + o.name + "': an object of the repository has that name"});
      return OkStatus();
    }
    FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> versions, repo_.GetAllVersions(o.series_id));
    folders.push_back(dir);
    for (const ObjectData& v : versions) {
      if (v.is_pwc) continue;  // a working copy is not a version
      Add({Join(dir, VersionFileName(v.name, v.version_label)), v.id, v.content ? v.content->length : 0,
           ModifiedMs(v)});
    }
    return OkStatus();
  }

  void Add(Planned p) {
    ++report_.files;
    report_.bytes += p.size;
    files.push_back(std::move(p));
  }

  Repository& repo_;
  bool all_versions_;
  ExportReport& report_;
  std::set<std::string> names_;  // of the folder being planned
};

Status WriteOne(Repository& repo, const std::string& dest, const Planned& f, Progress& progress, ExportReport& report) {
  const std::string target = dest + "/" + f.path;
  const int64_t mtime_ns = f.mtime_ms * 1000000LL;
  FOLIO_ASSIGN_OR_RETURN(std::optional<FileStat> there, HostStat(target));
  if (there && there->type == FileType::kFile && there->size == f.size && there->mtime_ns == mtime_ns) {
    ++report.already_there;
    progress.Add(1, f.size);
    return OkStatus();
  }
  if (there && there->type != FileType::kFile) {
    report.left_out.push_back({f.path, "something other than a file is there in the destination"});
    progress.Add(1, f.size);
    return OkStatus();
  }
  auto content = repo.OpenContent(f.object_id);
  std::unique_ptr<ReadableFile> in;
  if (content.ok()) {
    in = std::move(content->file);
  } else if (content.status().kind() == ErrorKind::kObjectNotFound) {
    report.left_out.push_back({f.path, "removed while exporting"});
    return OkStatus();
  } else if (content.status().kind() != ErrorKind::kConstraint) {  // kConstraint: no content: an empty file
    return content.status();
  }
  FOLIO_RETURN_IF_ERROR(WriteFileReplacing(target, kTempPrefix,
                                           [&](int fd) -> Result<int64_t> {
                                             if (in) FOLIO_RETURN_IF_ERROR(CopyBytes(*in, fd, target));
                                             return mtime_ns;
                                           }));
  ++report.written;
  report.written_bytes += f.size;
  progress.Add(1, f.size);
  return OkStatus();
}

}  // namespace

std::string VersionsDirName(const std::string& name) { return name + ".versions"; }

std::string VersionFileName(const std::string& name, const std::string& label) {
  const size_t dot = name.find_last_of('.');
  // A leading dot (".profile") starts a name, not an extension.
  if (dot == std::string::npos || dot == 0) return name + " v" + label;
  return name.substr(0, dot) + " v" + label + name.substr(dot);
}

Result<ExportReport> RunExport(const ExportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  ExportReport report;
  const DirKind kind = ClassifyDirectory(o.data_dir);
  if (kind != DirKind::kDataDirectory) return InvalidArgument(NotADataDirectory(o.data_dir, kind, HintFor::kTool));
  FOLIO_RETURN_IF_ERROR(CheckNotServed(o.data_dir, false, o.while_serving));
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.data_dir, {.read_only = true, .create = false}));
  auto repo = store->GetRepository(o.domain, o.repository);
  if (!repo.ok()) {
    if (repo.status().kind() != ErrorKind::kObjectNotFound) return repo.status();
    return ObjectNotFound("no repository '" + o.domain + "/" + o.repository + "' in '" + o.data_dir + "'");
  }
  FOLIO_RETURN_IF_ERROR(MakeDirectory(o.dest));

  Planner planner(**repo, o.all_versions, report);
  FOLIO_RETURN_IF_ERROR(planner.Folder((*repo)->info().root_folder_id, ""));
  Progress progress("export", o.progress);
  progress.SetTotals(report.files, report.bytes);
  progress.Start();
  Status s = OkStatus();
  RemoveStaleTemps(o.dest, kTempPrefix);
  std::vector<std::string> refused;  // folders that could not be made, and so all below them
  auto below_refused = [&refused](const std::string& path) {
    for (const std::string& r : refused) {
      if (path.size() > r.size() && path.compare(0, r.size(), r) == 0 && path[r.size()] == '/') return true;
    }
    return false;
  };
  for (const std::string& folder : planner.folders) {
    if (below_refused(folder)) continue;
    s = MakeDirectory(o.dest + "/" + folder);
    if (s.kind() == ErrorKind::kConstraint) {
      report.left_out.push_back({folder + "/", "a file with that name is in the destination"});
      refused.push_back(folder);
      s = OkStatus();
      continue;
    }
    if (!s.ok()) break;
    RemoveStaleTemps(o.dest + "/" + folder, kTempPrefix);
  }
  for (size_t i = 0; s.ok() && i < planner.files.size(); ++i) {
    if (g_stop_requested.load()) break;
    if (below_refused(planner.files[i].path)) continue;
    s = WriteOne(**repo, o.dest, planner.files[i], progress, report);
  }
  report.interrupted = g_stop_requested.load();
  // What was written is on disk in full (renamed into place) but not yet
  // durable.
  if (s.ok()) s = SyncFilesystem(o.dest);
  progress.Finish();
  FOLIO_RETURN_IF_ERROR(s);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace folio::cli
