// folio import; see importer.h.
#include "cli/importer.h"

#include <chrono>
#include <memory>
#include <set>

#include "cli/data_dir.h"
#include "cli/mime_sniffer.h"
#include "cli/serving_lock.h"
#include "folio/repository.h"
#include "folio/store.h"
#include "storage/name_rules.h"

namespace folio::cli {
namespace {

bool Below(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

// The domain and repository, made when missing.
Result<std::shared_ptr<Repository>> OpenTarget(Store& store, const ImportOptions& o, ImportReport& report) {
  auto domain = store.GetDomain(o.domain);
  if (!domain.ok()) {
    if (domain.status().kind() != ErrorKind::kObjectNotFound) return domain.status();
    FOLIO_RETURN_IF_ERROR(store.CreateDomain(o.domain, "").status());
    report.created_domain = true;
  }
  auto repo = store.GetRepository(o.domain, o.repository);
  if (repo.ok()) {
    if (!o.variant.empty() && (*repo)->info().variant != o.variant) {
      return InvalidArgument("repository '" + o.domain + "/" + o.repository + "' exists with variant " +
                             (*repo)->info().variant + ", not " + o.variant +
                             " (--variant applies to a new repository; leave it out)");
    }
    return repo;
  }
  if (repo.status().kind() != ErrorKind::kObjectNotFound) return repo.status();
  RepositoryInfo info;
  info.domain_id = o.domain;
  info.repository_id = o.repository;
  info.name = o.repository;
  info.variant = o.variant.empty() ? "B" : o.variant;
  FOLIO_RETURN_IF_ERROR(store.CreateRepository(o.domain, info).status());
  report.created_repository = true;
  return store.GetRepository(o.domain, o.repository);
}

// Copies of a file that keeps changing, before it is left out.
constexpr int kCopyTries = 3;

// Copies files into the repository's tree and has the engine adopt them, a
// batch at a time: copy, one sync, then the records (which must never name
// bytes a power loss could take back).
class Importer {
 public:
  Importer(const ImportOptions& o, Repository& repo, Progress& progress, ImportReport& report)
      : o_(o), repo_(repo), progress_(progress), report_(report) {}

  Status Run(const std::vector<TreeEntry>& entries) {
    std::string refused_dir;  // a source directory that could not become a folder
    for (const TreeEntry& e : entries) {
      if (g_stop_requested.load()) {
        report_.interrupted = true;
        break;
      }
      if (!refused_dir.empty() && Below(e.path, refused_dir)) continue;
      if (e.directory) {
        FOLIO_ASSIGN_OR_RETURN(bool made, Folder(e.path));
        if (!made) refused_dir = e.path;
        continue;
      }
      FOLIO_RETURN_IF_ERROR(File(e));
      if (batch_files_ >= o_.batch_files || batch_bytes_ >= o_.batch_bytes) FOLIO_RETURN_IF_ERROR(Flush());
    }
    return Flush();
  }

 private:
  // The host path of the repository's folder or document at `path`.
  std::string Host(const std::string& path) const { return o_.data_dir + "/" + repo_.TreePath(path); }

  // False (and left out) when the source directory cannot become a folder.
  Result<bool> Folder(const std::string& path) {
    const std::string dir = Host(path);
    Status s = MakeDirectory(dir);
    if (s.kind() == ErrorKind::kConstraint) {
      report_.left_out.push_back({path + "/", "a document with that name is in the repository (kept)"});
      return false;
    }
    FOLIO_RETURN_IF_ERROR(s);
    RemoveStaleTemps(dir, Repository::ToolTempPrefix());
    folders_.push_back(path);
    return true;
  }

  Status File(const TreeEntry& e) {
    const std::string dest = Host(e.path);
    FOLIO_ASSIGN_OR_RETURN(std::optional<FileStat> there, HostStat(dest));
    const bool adopted = there && Adopted(e.path);
    if (there && there->type == FileType::kFile && there->size == e.size && there->mtime_ns == e.mtime_ns) {
      // Imported by an earlier run (perhaps not yet adopted: a kill between the
      // copy and the batch's records).
      ++report_.already_there;
      progress_.Add(1, e.size);
      if (!adopted) pending_.push_back(e.path);
      return OkStatus();
    }
    if (there && (there->type != FileType::kFile || adopted)) {
      report_.left_out.push_back({e.path, there->type == FileType::kFile
                                              ? "a different document with that name is in the "
                                                "repository (kept)"
                                              : "a folder with that name is in the repository"});
      progress_.Add(1, e.size);
      return OkStatus();
    }
    // Absent, or a file no record names yet that differs from the source (a
    // copy an interrupted run renamed into place, which a power loss may have
    // cut): copy.
    // The file as it was at one instant, dated by that instant's modification time
    // (a later run finds it "already there" by that time and size).
    const std::string source = o_.source + "/" + e.path;
    std::optional<CopiedState> copied;
    Status written = WriteFileReplacing(dest, Repository::ToolTempPrefix(), [&](int fd) -> Result<int64_t> {
      FOLIO_ASSIGN_OR_RETURN(copied, CopyStable(source, fd, kCopyTries, o_.copy_hook));
      if (!copied) return Constraint("'" + source + "' changed while it was copied");  // nothing is renamed
      return copied->mtime_ns;
    });
    if (!copied && written.kind() == ErrorKind::kConstraint) {
      report_.left_out.push_back({e.path, "changed while it was copied, " + std::to_string(kCopyTries) +
                                              " times: not imported (run folio import again once it is still)"});
      progress_.Add(1, e.size);
      return OkStatus();
    }
    FOLIO_RETURN_IF_ERROR(written);
    ++report_.copied;
    report_.copied_bytes += copied->size;
    ++batch_files_;
    batch_bytes_ += copied->size;
    progress_.Add(1, e.size);
    pending_.push_back(e.path);
    return OkStatus();
  }

  // True when the repository has a record of the file at `path` (a series or an
  // adoption table's entry); an unreadable record counts as one (the file is left alone).
  bool Adopted(const std::string& path) {
    auto has = repo_.HasDocumentRecord(path);
    return !has.ok() || *has;
  }

  // Syncs what the batch copied, then has every new folder and file adopted:
  // the engine adopts a folder's new files together (up to its batch), so only
  // the first file of a folder usually costs a change.
  Status Flush() {
    if (batch_files_ > 0) FOLIO_RETURN_IF_ERROR(SyncFilesystem(o_.data_dir));
    for (const std::string& folder : folders_) FOLIO_RETURN_IF_ERROR(Adopt(folder));
    for (const std::string& path : pending_) {
      if (Adopted(path)) continue;
      FOLIO_RETURN_IF_ERROR(Adopt(path));
    }
    folders_.clear();
    pending_.clear();
    batch_files_ = 0;
    batch_bytes_ = 0;
    return OkStatus();
  }

  Status Adopt(const std::string& path) {
    auto o = repo_.GetObjectByPath(path);
    if (o.ok()) return OkStatus();
    // Removed meanwhile (by hand, or by a client of a server beside us):
    // nothing to adopt.
    if (o.status().kind() == ErrorKind::kObjectNotFound) return OkStatus();
    return Status(o.status().kind(), "cannot adopt '/" + path + "': " + o.status().message());
  }

  const ImportOptions& o_;
  Repository& repo_;
  Progress& progress_;
  ImportReport& report_;
  std::vector<std::string> folders_;  // made or found this batch, parents first
  std::vector<std::string> pending_;  // files to adopt
  size_t batch_files_ = 0;
  uint64_t batch_bytes_ = 0;
};

}  // namespace

Result<ImportReport> RunImport(const ImportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  ImportReport report;
  const DirKind kind = ClassifyDirectory(o.data_dir);
  if (kind != DirKind::kDataDirectory && kind != DirKind::kEmpty && kind != DirKind::kMissing) {
    return InvalidArgument(NotADataDirectory(o.data_dir, kind, HintFor::kTool));
  }
  if (kind == DirKind::kDataDirectory) FOLIO_RETURN_IF_ERROR(CheckNotServed(o.data_dir, true, o.while_serving));

  std::vector<TreeEntry> entries;
  auto refuse = [](const std::string& name) -> std::string {
    Status s = storage::ValidateName(name);
    return s.ok() ? "" : s.message();
  };
  FOLIO_RETURN_IF_ERROR(WalkTree(o.source, refuse, entries, report.left_out));
  for (const TreeEntry& e : entries) {
    if (e.directory) {
      ++report.folders;
    } else {
      ++report.files;
      report.bytes += e.size;
    }
  }

  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.data_dir, {.create = true}));
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<Repository> repo, OpenTarget(*store, o, report));
  repo->SetMimeSniffer(MakeLibmagicSniffer());

  Progress progress("import", o.progress);
  progress.SetTotals(report.files, report.bytes);
  progress.Start();
  Importer importer(o, *repo, progress, report);
  Status s = importer.Run(entries);
  if (s.ok()) s = repo->Checkpoint();
  progress.Finish();
  FOLIO_RETURN_IF_ERROR(s);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace folio::cli
