// The query indexes of a server; see query_indexes.h.
#include "repo/query/query_indexes.h"

#include "storage/layout.h"

namespace folio::query {

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
  const storage::RepoLayout layout(base);
  IndexPaths paths;
  paths.label = base;
  paths.db_fs_path = layout.QueryIndexFile();
  paths.lock_fs_path = layout.QueryIndexLockFile();
  // SQLite opens files by host path; the data directory's Fs knows it.
  paths.db_path = store_.fs().Describe(paths.db_fs_path);
  auto index = std::make_shared<QueryIndex>(store_.fs(), std::move(paths), std::make_shared<InProcessFeed>(), log_);
  if (stop_) index->Stop();
  indexes_.emplace(base, index);
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

void QueryIndexes::NoteChanged(Repository& repo, const std::vector<std::string>& object_ids) {
  if (object_ids.empty()) return;
  const RepositoryInfo& info = repo.info();
  Status s = Get(info.domain_id, info.repository_id)->NoteWritten(repo, object_ids);
  if (!s.ok() && log_) log_("query index of " + info.domain_id + "/" + info.repository_id + ": " + s.message());
}

}  // namespace folio::query
