// The query indexes of a server; see query_indexes.h.
#include "repo/query/query_indexes.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "repo/query/change_log_feed.h"
#include "repo/store_fs.h"
#include "storage/layout.h"

namespace folio::query {

std::string IndexFileOf(const std::string& base) {
  return storage::RepoLayout(base).QueryIndexFile();
}

std::string IndexLockFileOf(const std::string& base) {
  return storage::RepoLayout(base).QueryIndexLockFile();
}

std::string ScratchIndexFileOf(const std::string& base) {
  std::string name = base;
  std::replace(name.begin(), name.end(), '/', '.');
  return name + ".sqlite";
}

bool MayWriteIndexBeside(Fs& fs, const std::string& base, bool read_only) {
  if (read_only) return false;
  // The host path SQLite would open; what the kernel says of it is what counts (root
  // may write a directory it does not own; nobody writes a read-only mount).
  return ::access(fs.Describe(storage::RepoLayout(base).MetaDir()).c_str(), W_OK) == 0;
}

std::shared_ptr<QueryIndex> MakeQueryIndex(Fs& fs, const std::string& base, QueryIndex::Logger log, Fs* scratch) {
  const storage::RepoLayout layout(base);
  IndexPaths paths;
  paths.label = base;
  if (scratch != nullptr) {
    paths.files = scratch;
    paths.db_fs_path = ScratchIndexFileOf(base);
    paths.lock_fs_path = paths.db_fs_path + ".lock";
  } else {
    paths.db_fs_path = IndexFileOf(base);
    paths.lock_fs_path = IndexLockFileOf(base);
  }
  // SQLite opens files by host path; the Fs that holds them knows it.
  paths.db_path = (scratch != nullptr ? *scratch : fs).Describe(paths.db_fs_path);
  return std::make_shared<QueryIndex>(fs, std::move(paths), std::make_shared<ChangeLogFeed>(fs, layout.ChangesDir()),
                                      std::move(log));
}

QueryIndexes::QueryIndexes(Store& store, QueryIndex::Logger log, std::string scratch_dir, bool read_only,
                           const Foreground* foreground)
    : store_(store),
      log_(std::move(log)),
      read_only_(read_only),
      foreground_(foreground),
      scratch_dir_(std::move(scratch_dir)) {}

QueryIndexes::~QueryIndexes() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [key, index] : indexes_) index->Stop();
  }
  if (background_.joinable()) background_.join();
  std::lock_guard<std::mutex> lock(mu_);
  indexes_.clear();  // their databases are closed before their files go
  scratch_fs_.reset();
  if (own_scratch_) {
    std::error_code ignored;
    std::filesystem::remove_all(scratch_dir_, ignored);
  }
}

Result<Fs*> QueryIndexes::ScratchLocked() {
  if (scratch_fs_) return scratch_fs_.get();
  if (scratch_dir_.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/folio-index-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      return StorageError("cannot make a directory for the query indexes in '" + pattern + "'",
                          static_cast<std::errc>(errno));
    }
    scratch_dir_ = pattern;
    own_scratch_ = true;
  }
  FOLIO_ASSIGN_OR_RETURN(scratch_fs_, OpenPosixFs(scratch_dir_, PosixFsOptions{.durable = false}));
  return scratch_fs_.get();
}

Result<std::shared_ptr<QueryIndex>> QueryIndexes::Get(const std::string& domain_id, const std::string& repository_id) {
  const std::string base = domain_id + "/" + repository_id;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = indexes_.find(base);
  if (it != indexes_.end()) return it->second;
  Fs& fs = repo::StoreFs::Of(store_);
  Fs* scratch = nullptr;
  if (!MayWriteIndexBeside(fs, base, read_only_)) {
    FOLIO_ASSIGN_OR_RETURN(scratch, ScratchLocked());
  }
  auto index = MakeQueryIndex(fs, base, log_, scratch);
  if (!inotify_) inotify_ = std::make_shared<Inotify>();
  index->SetHandWatcher(
      std::make_unique<HandWatcher>(fs, base, inotify_, [log = log_, base](const std::string& line) {
        if (log) log("query index of " + base + ": " + line);
      }));
  if (stop_) index->Stop();
  indexes_.emplace(base, index);
  return index;
}

void QueryIndexes::StartBackground() {
  std::lock_guard<std::mutex> lock(mu_);
  if (background_.joinable() || stop_) return;
  background_ = std::thread([this] {
    YieldToRequests();
    PrepareAll();
  });
}

void QueryIndexes::YieldToRequests() {
  // Linux keeps a nice value per thread, and a thread starts with its creator's: the
  // scan's workers made by this thread inherit it. Raising one's own nice value needs
  // no privilege; were it refused, the build would only compete as before.
  const id_t self = static_cast<id_t>(::gettid());
  errno = 0;
  const int now = ::getpriority(PRIO_PROCESS, self);
  if (errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, self, std::min(kMaxNice, now + kBackgroundNiceIncrement));
}

void QueryIndexes::PrepareAll() {
  auto domains = store_.ListDomains();
  if (!domains.ok()) {
    if (log_) log_("query indexes: cannot list the domains: " + domains.status().message());
    return;
  }
  for (const DomainInfo& d : *domains) {
    auto repos = store_.ListRepositories(d.domain_id);
    if (!repos.ok()) continue;
    for (const RepositoryInfo& r : *repos) {
      if (stop_) return;
      auto repo = store_.GetRepository(d.domain_id, r.repository_id);
      if (!repo.ok()) continue;
      auto index = Get(d.domain_id, r.repository_id);
      Status s = index.ok() ? (*index)->Prepare(**repo, foreground_) : index.status();
      if (!s.ok() && !stop_ && log_) {
        log_("query index of " + d.domain_id + "/" + r.repository_id + ": " + s.message());
      }
    }
  }
}

}  // namespace folio::query
