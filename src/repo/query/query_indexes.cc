// The query indexes of a server; see query_indexes.h.
#include "repo/query/query_indexes.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

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

std::shared_ptr<QueryIndex> MakeQueryIndex(Fs& fs, const std::string& base, QueryIndex::Logger log) {
  const storage::RepoLayout layout(base);
  IndexPaths paths;
  paths.label = base;
  paths.db_fs_path = IndexFileOf(base);
  paths.lock_fs_path = IndexLockFileOf(base);
  // SQLite opens files by host path; the data directory's Fs knows it.
  paths.db_path = fs.Describe(paths.db_fs_path);
  return std::make_shared<QueryIndex>(fs, std::move(paths), std::make_shared<ChangeLogFeed>(fs, layout.ChangesDir()),
                                      std::move(log));
}

QueryIndexes::QueryIndexes(Store& store, QueryIndex::Logger log) : store_(store), log_(std::move(log)) {}

QueryIndexes::~QueryIndexes() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [key, index] : indexes_) index->Stop();
  }
  if (background_.joinable()) background_.join();
}

std::shared_ptr<QueryIndex> QueryIndexes::Get(const std::string& domain_id, const std::string& repository_id) {
  const std::string base = domain_id + "/" + repository_id;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = indexes_.find(base);
  if (it != indexes_.end()) return it->second;
  Fs& fs = repo::StoreFs::Of(store_);
  auto index = MakeQueryIndex(fs, base, log_);
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
      Status s = Get(d.domain_id, r.repository_id)->Prepare(**repo);
      if (!s.ok() && !stop_ && log_) {
        log_("query index of " + d.domain_id + "/" + r.repository_id + ": " + s.message());
      }
    }
  }
}

}  // namespace folio::query
