// The query indexes of a server; see query_indexes.h.
#include "repo/query/query_indexes.h"

#include "storage/layout.h"

namespace folio::query {

QueryIndexes::QueryIndexes(Store& store, QueryIndex::Logger log) : store_(store), log_(std::move(log)) {}

QueryIndexes::~QueryIndexes() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [key, entry] : entries_) entry.index->Stop();
  }
  if (background_.joinable()) background_.join();
}

std::shared_ptr<QueryIndex> QueryIndexes::Get(const std::string& domain_id, const std::string& repository_id) {
  const std::string base = domain_id + "/" + repository_id;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(base);
  if (it != entries_.end()) return it->second.index;
  const storage::RepoLayout layout(base);
  IndexPaths paths;
  paths.label = base;
  paths.db_fs_path = layout.QueryIndexFile();
  paths.lock_fs_path = layout.QueryIndexLockFile();
  // SQLite opens files by host path; the data directory's Fs knows it.
  paths.db_path = store_.fs().Describe(paths.db_fs_path);
  Entry e;
  e.feed = std::make_shared<InProcessFeed>();
  e.index = std::make_shared<QueryIndex>(store_.fs(), std::move(paths), e.feed, log_);
  if (stop_) e.index->Stop();
  auto index = e.index;
  entries_.emplace(base, std::move(e));
  return index;
}

void QueryIndexes::StartBackground() {
  std::lock_guard<std::mutex> lock(mu_);
  if (background_.joinable() || stop_) return;
  background_ = std::thread([this] { PrepareAll(); });
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

void QueryIndexes::NoteChanged(Repository& repo, const std::vector<std::pair<std::string, BaseType>>& objects) {
  if (objects.empty()) return;
  const RepositoryInfo& info = repo.info();
  std::shared_ptr<QueryIndex> index = Get(info.domain_id, info.repository_id);
  std::shared_ptr<InProcessFeed> feed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    feed = entries_[info.domain_id + "/" + info.repository_id].feed;
  }
  for (const auto& [id, base] : objects) feed->Append(ChangeType::kUpdated, id, base);
  Status s = index->CatchUp(repo);
  if (!s.ok() && log_) log_("query index of " + info.domain_id + "/" + info.repository_id + ": " + s.message());
}

}  // namespace folio::query
