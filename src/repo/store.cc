// folio::Store: the data directory, its domains and their repositories. Creating a
// domain or repository builds it in a temp directory and renames it into place, so it
// appears whole or not at all.
#include "folio/store.h"

#include <algorithm>
#include <regex>
#include <sys/stat.h>

#include <cerrno>

#include "folio/cmis_ids.h"
#include "repo/acl/ace_list.h"
#include "repo/changes/staging.h"
#include "repo/records.h"
#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/fs_probe.h"
#include "storage/id_index.h"
#include "storage/ids.h"
#include "storage/json_access.h"
#include "storage/json_file.h"
#include "storage/layout.h"

namespace folio {
namespace {

using storage::Json;

const std::regex& DomainIdPattern() {
  static const std::regex kRe("^\\w{3,}$");
  return kRe;
}
const std::regex& RepositoryIdPattern() {
  static const std::regex kRe("^[a-zA-Z0-9-]{3,}$");
  return kRe;
}

Status CheckId(const std::string& id, const std::regex& re, const char* pattern, const char* what) {
  if (id.size() > 255 || !std::regex_match(id, re)) {
    return InvalidArgument(std::string(what) + " '" + id.substr(0, 100) + "' must match " + pattern +
                           " (at most 255 characters)");
  }
  return OkStatus();
}

// Writes a new file inside a directory being built, synced.
Status WriteNew(Fs& fs, const std::string& path, const Json& value) {
  FOLIO_ASSIGN_OR_RETURN(auto f, fs.CreateNew(path));
  FOLIO_RETURN_IF_ERROR(f->Append(storage::SerializeJson(value)));
  FOLIO_RETURN_IF_ERROR(f->Sync());
  return f->Close();
}

}  // namespace

Store::Store(Fs& fs, std::unique_ptr<Fs> owned, StoreOptions options)
    : owned_fs_(std::move(owned)), fs_(&fs), dir_(fs.Describe("")), options_(options) {}

Result<std::unique_ptr<Store>> Store::Open(const std::string& dir, StoreOptions options) {
  auto fs = OpenPosixFs(dir, PosixFsOptions{.durable = options.durable});
  if (!fs.ok() && fs.status().Is(std::errc::no_such_file_or_directory)) {
    if (!options.create) return ObjectNotFound("data directory '" + dir + "' does not exist");
    // Creating the data directory itself is the one step outside any Fs root.
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return StorageError("cannot create data directory '" + dir + "'", static_cast<std::errc>(errno));
    }
    fs = OpenPosixFs(dir, PosixFsOptions{.durable = options.durable});
  }
  if (!fs.ok()) return fs.status();
  bool probed = false;
  if (!options.read_only) {
    auto probe = storage::ProbeFilesystem(dir);
    if (probe.ok()) {
      FOLIO_RETURN_IF_ERROR(storage::RequireUsable(*probe, (*fs)->Describe("")));
      fs = OpenPosixFs(dir, PosixFsOptions{.durable = options.durable}, probe->features);
      if (!fs.ok()) return fs.status();
      probed = true;
      storage::AdaptToFilesystem(probe->features);
    } else if (!probe.status().Is(std::errc::read_only_file_system) &&
               !probe.status().Is(std::errc::permission_denied)) {
      return probe.status();
    }
    // A directory nobody may write is served for reading all the same: writes say why
    // they fail.
  }
  if (!probed) storage::AdaptWithoutProbing(dir);
  Fs& raw = **fs;
  std::unique_ptr<Store> store(new Store(raw, std::move(*fs), options));
  FOLIO_RETURN_IF_ERROR(store->Init());
  return store;
}

Result<std::unique_ptr<Store>> Store::Open(Fs& fs, StoreOptions options) {
  std::unique_ptr<Store> store(new Store(fs, nullptr, options));
  FOLIO_RETURN_IF_ERROR(store->Init());
  return store;
}

Status Store::Init() {
  if (!Exists(*fs_, storage::ServerMetaDir()) && options_.create && !options_.read_only) {
    Status made = storage::EnsureDir(*fs_, storage::ServerMetaDir());
    // A read-only mount is served for reading all the same; writes say why they fail.
    if (made.Is(std::errc::read_only_file_system)) return OkStatus();
    FOLIO_RETURN_IF_ERROR(made);
    FOLIO_RETURN_IF_ERROR(storage::WriteJsonAtomically(
        *fs_, storage::DataMarkerFile(), Json{{"format", 1}, {"created", storage::FormatIsoMs(storage::NowMs())}}));
  }
  return OkStatus();
}

Status Store::RequireWritable() const {
  if (options_.read_only) return PermissionDenied("the server is read-only");
  return OkStatus();
}

Result<std::vector<DomainInfo>> Store::ListDomains() {
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, fs_->List(""));
  std::vector<DomainInfo> out;
  for (const DirEntry& e : entries) {
    if (e.type != FileType::kDirectory || storage::IsReservedName(e.name)) continue;
    auto d = GetDomain(e.name);
    if (d.ok()) out.push_back(*d);
  }
  std::sort(out.begin(), out.end(), [](const DomainInfo& a, const DomainInfo& b) { return a.domain_id < b.domain_id; });
  return out;
}

Result<DomainInfo> Store::GetDomain(const std::string& domain_id) {
  if (!std::regex_match(domain_id, DomainIdPattern())) return ObjectNotFound("no domain '" + domain_id + "'");
  auto j = storage::ReadJsonFile(*fs_, storage::DomainFile(domain_id));
  if (!j.ok()) {
    if (IsMissing(j.status()) || j.status().Is(std::errc::too_many_symbolic_link_levels)) {
      return ObjectNotFound("no domain '" + domain_id + "'");
    }
    return j.status();
  }
  DomainInfo d;
  d.domain_id = domain_id;
  d.description = storage::StringOr(*j, "description", "");
  d.created_ms = storage::StoredIsoMsOr(storage::StringOr(*j, "created", ""), 0);
  return d;
}

Result<DomainInfo> Store::CreateDomain(const std::string& domain_id, const std::string& description,
                                       const DomainInit& init) {
  FOLIO_RETURN_IF_ERROR(RequireWritable());
  FOLIO_RETURN_IF_ERROR(CheckId(domain_id, DomainIdPattern(), "^\\w{3,}$", "domain id"));
  FOLIO_ASSIGN_OR_RETURN(auto lock, fs_->Lock(storage::ServerLockFile()));
  if (Exists(*fs_, storage::DomainDir(domain_id))) {
    return ContentAlreadyExists("domain '" + domain_id + "' exists");
  }
  DomainInfo d{domain_id, description, storage::NowMs()};
  const std::string tmp = storage::TempPathBeside(domain_id);
  FOLIO_RETURN_IF_ERROR(fs_->MakeDir(tmp));
  Status s = fs_->MakeDir(storage::DomainMetaDir(tmp));
  if (s.ok()) {
    s = WriteNew(*fs_, storage::DomainFile(tmp),
                 Json{{"domainId", domain_id}, {"description", description},
                      {"created", storage::FormatIsoMs(d.created_ms)}});
  }
  if (s.ok() && init) s = init(*fs_, tmp);
  if (s.ok()) s = fs_->SyncDir(storage::DomainMetaDir(tmp));
  if (s.ok()) s = fs_->SyncDir(tmp);
  if (s.ok()) s = fs_->RenameNoReplace(tmp, domain_id);
  if (!s.ok()) {
    (void)fs_->RemoveTree(tmp);
    if (s.Is(std::errc::file_exists)) return ContentAlreadyExists("domain '" + domain_id + "' exists");
    return s;
  }
  FOLIO_RETURN_IF_ERROR(fs_->SyncDir(""));
  return d;
}

Status Store::DeleteDomain(const std::string& domain_id) {
  FOLIO_RETURN_IF_ERROR(RequireWritable());
  FOLIO_RETURN_IF_ERROR(GetDomain(domain_id).status());
  FOLIO_ASSIGN_OR_RETURN(auto lock, fs_->Lock(storage::ServerLockFile()));
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto it = open_.begin(); it != open_.end();) {
      it = it->first.rfind(domain_id + "/", 0) == 0 ? open_.erase(it) : std::next(it);
    }
  }
  // Gone in one rename; removing the files may then take its time.
  const std::string trash = storage::ServerTrash(storage::NewId('x'));
  FOLIO_RETURN_IF_ERROR(fs_->Rename(domain_id, trash));
  FOLIO_RETURN_IF_ERROR(fs_->SyncDir(""));
  return fs_->RemoveTree(trash);
}

Result<std::vector<RepositoryInfo>> Store::ListRepositories(const std::string& domain_id) {
  FOLIO_RETURN_IF_ERROR(GetDomain(domain_id).status());
  FOLIO_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, fs_->List(storage::DomainDir(domain_id)));
  std::vector<std::string> ids;
  for (const DirEntry& e : entries) {
    if (e.type == FileType::kDirectory && !storage::IsReservedName(e.name)) ids.push_back(e.name);
  }
  std::sort(ids.begin(), ids.end());
  std::vector<RepositoryInfo> out;
  for (const std::string& id : ids) {
    auto r = GetRepository(domain_id, id);
    if (r.ok()) out.push_back((*r)->info());
  }
  return out;
}

Result<RepositoryInfo> Store::CreateRepository(const std::string& domain_id, const RepositoryInfo& in) {
  FOLIO_RETURN_IF_ERROR(RequireWritable());
  FOLIO_RETURN_IF_ERROR(CheckId(in.repository_id, RepositoryIdPattern(), "^[a-zA-Z0-9-]{3,}$", "repository id"));
  if (in.variant != "A" && in.variant != "B") {
    return InvalidArgument("variant '" + in.variant + "' must be 'A' or 'B'");
  }
  FOLIO_RETURN_IF_ERROR(GetDomain(domain_id).status());
  FOLIO_ASSIGN_OR_RETURN(auto lock, fs_->Lock(storage::ServerLockFile()));
  const std::string base = storage::JoinPath(domain_id, in.repository_id);
  if (Exists(*fs_, base)) return ContentAlreadyExists("repository '" + in.repository_id + "' exists");
  RepositoryInfo info = in;
  info.domain_id = domain_id;
  if (info.name.empty()) info.name = info.repository_id;
  info.created_ms = storage::NowMs();
  info.root_folder_id = storage::NewId('f');

  const std::string tmp = storage::TempPathBeside(base);
  storage::RepoLayout layout(tmp);
  Status s = fs_->MakeDir(tmp);
  if (s.ok()) s = fs_->MakeDir(layout.MetaDir());
  if (s.ok()) {
    s = WriteNew(*fs_, layout.RepositoryFile(),
                 Json{{"repositoryId", info.repository_id}, {"repositoryName", info.name},
                      {"description", info.description}, {"variant", info.variant},
                      {"created", storage::FormatIsoMs(info.created_ms)}, {"rootFolderId", info.root_folder_id},
                      {"format", 1}});
  }
  if (s.ok()) {
    repo::ObjectRecord root;
    root.id = info.root_folder_id;
    root.properties = repo::changes::NewObjectProperties(cmis::kFolder, "system", info.created_ms);
    root.acl = acl::RootFolderAcl(info.repository_id);
    s = WriteNew(*fs_, layout.FolderFile(""), repo::ToJson(root));
  }
  if (s.ok()) s = fs_->MakeDir(layout.IndexDir());
  if (s.ok()) s = fs_->MakeDir(layout.IndexShardDir(info.root_folder_id));
  if (s.ok()) {
    s = WriteNew(*fs_, layout.IndexEntry(info.root_folder_id),
                 storage::IndexEntryToJson({"folder", "", "", ""}));
  }
  for (const std::string& d : {layout.IndexShardDir(info.root_folder_id), layout.IndexDir(), layout.MetaDir(), tmp}) {
    if (s.ok()) s = fs_->SyncDir(d);
  }
  if (s.ok()) s = fs_->RenameNoReplace(tmp, base);
  if (!s.ok()) {
    (void)fs_->RemoveTree(tmp);
    if (s.Is(std::errc::file_exists)) return ContentAlreadyExists("repository '" + in.repository_id + "' exists");
    return s;
  }
  FOLIO_RETURN_IF_ERROR(fs_->SyncDir(domain_id));
  return info;
}

Status Store::DeleteRepository(const std::string& domain_id, const std::string& repository_id) {
  FOLIO_RETURN_IF_ERROR(RequireWritable());
  FOLIO_RETURN_IF_ERROR(GetRepository(domain_id, repository_id).status());
  FOLIO_ASSIGN_OR_RETURN(auto lock, fs_->Lock(storage::ServerLockFile()));
  const std::string base = storage::JoinPath(domain_id, repository_id);
  {
    std::lock_guard<std::mutex> g(mu_);
    open_.erase(base);
  }
  const std::string trash = storage::ServerTrash(storage::NewId('x'));
  FOLIO_RETURN_IF_ERROR(fs_->Rename(base, trash));
  FOLIO_RETURN_IF_ERROR(fs_->SyncDir(domain_id));
  return fs_->RemoveTree(trash);
}

Result<std::shared_ptr<Repository>> Store::GetRepository(const std::string& domain_id,
                                                         const std::string& repository_id) {
  // Every request comes here: an open repository is found first (only ids that passed
  // the patterns below are ever in open_), and validated with one stat, not trusted:
  // another process may have deleted it.
  const std::string base = storage::JoinPath(domain_id, repository_id);
  std::lock_guard<std::mutex> g(mu_);
  auto it = open_.find(base);
  if (it != open_.end()) {
    if (fs_->IdentityStat(storage::RepoLayout(base).RepositoryFile()).ok()) return it->second;
    open_.erase(it);
  }
  if (!std::regex_match(domain_id, DomainIdPattern()) || !std::regex_match(repository_id, RepositoryIdPattern())) {
    return ObjectNotFound("no repository '" + domain_id + "/" + repository_id + "'");
  }
  RepositoryOptions repo_options;
  repo_options.read_only = options_.read_only;
  repo_options.change_log_max_events = options_.change_log_max_events;
  repo_options.on_changes = options_.on_changes;
  repo_options.spare_grace_ms = options_.spare_grace_ms;
  repo_options.version_list_max = options_.version_list_max;
  repo_options.caches = options_.caches;
  auto repo = Repository::Open(*fs_, base, repo_options);
  if (!repo.ok()) {
    if (repo.status().kind() == ErrorKind::kObjectNotFound) {
      return ObjectNotFound("no repository '" + repository_id + "' in domain '" + domain_id + "'");
    }
    return repo.status();
  }
  open_[base] = *repo;
  return *repo;
}

void Store::CloseRepositories() {
  std::map<std::string, std::shared_ptr<Repository>> closing;
  {
    std::lock_guard<std::mutex> g(mu_);
    closing.swap(open_);
  }
}

std::string ServingMarkFile(bool read_only) { return storage::ServingLockFile(read_only); }

DirKind ClassifyDirectory(const std::string& dir) {
  auto fs = OpenPosixFs(dir, {.durable = false});
  if (!fs.ok()) {
    if (fs.status().Is(std::errc::no_such_file_or_directory)) return DirKind::kMissing;
    if (fs.status().Is(std::errc::not_a_directory)) return DirKind::kNotADirectory;
    return DirKind::kUnreadable;
  }
  Fs& f = **fs;
  if (Exists(f, storage::DataMarkerFile())) return DirKind::kDataDirectory;
  if (Exists(f, storage::RepoLayout("").RepositoryFile())) return DirKind::kRepository;
  if (Exists(f, storage::DomainFile(""))) return DirKind::kDomain;
  auto entries = f.List("");
  if (!entries.ok()) return DirKind::kUnreadable;
  if (entries->empty()) return DirKind::kEmpty;
  for (const DirEntry& e : *entries) {
    if (e.type == FileType::kDirectory && Exists(f, storage::DomainFile(e.name))) return DirKind::kDataDirectory;
  }
  return DirKind::kOther;
}

}  // namespace folio
