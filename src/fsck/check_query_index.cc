// The repository's query index (docs/STORAGE.md §12) against the
// records: query-index-unreadable, query-index-incomplete, query-index-stale; and its
// repair, a rebuild from the files through the engine (src/repo/query).
#include "folio/cmis_ids.h"
#include "folio/store.h"
#include "fsck/checks.h"
#include "fsck/repair.h"
#include "repo/query/index_check.h"
#include "repo/query/query_indexes.h"
#include "storage/change_log_store.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::fsck {
namespace {

// The rows the records imply (see query::ExpectedRow).
std::vector<query::ExpectedRow> ExpectedRows(const RepoFacts& f) {
  std::vector<query::ExpectedRow> out;
  std::map<std::string, std::string> folder_ids;  // folder path -> id
  for (const RecordFact& r : f.records) {
    if (r.kind == "folder") folder_ids[r.path] = r.id;
    if (r.kind == "document") continue;  // by version, below
    if (r.kind == "relationship") {
      out.push_back(query::ExpectedRow{r.id, std::string(), std::nullopt, true, std::nullopt});
    } else {
      out.push_back(query::ExpectedRow{r.id, r.parent, r.name, true, std::nullopt});
    }
  }
  for (const SeriesFact& s : f.series) {
    if (!s.series || !s.visible_stat) continue;  // not an object the engine shows
    const auto folder = folder_ids.find(s.folder);
    for (const std::string& label : s.all_labels) {
      query::ExpectedRow e;
      e.id = s.series->series_id + ";" + label;
      if (folder != folder_ids.end()) e.folder = folder->second;
      e.current = label == s.series->versions.back();
      const auto files = s.labels.find(label);
      if (files != s.labels.end() && files->second.record) {
        const Json& p = files->second.record->properties;
        e.name = p.contains(cmis::kName) && p[cmis::kName].is_string() ? p[cmis::kName].get<std::string>() : s.name;
        if (p.contains(cmis::kLastModificationDate) && p[cmis::kLastModificationDate].is_string()) {
          auto ms = storage::ParseIsoMs(p[cmis::kLastModificationDate].get<std::string>());
          if (ms.ok()) e.modified_ms = *ms;
        }
      }
      out.push_back(std::move(e));
    }
  }
  // An adopted document is one version, 1.0, named after its file (docs/STORAGE.md §4.1).
  for (const AdoptedFact& a : f.adopted) {
    if (!a.Shown()) continue;
    out.push_back(query::ExpectedRow{storage::VersionId(a.entry.series_id, "1.0"), a.folder_id, a.name, true,
                                     a.entry.modified_ms});
  }
  return out;
}

}  // namespace

Problems CheckQueryIndex(Fs& fs, const RepoFacts& f) {
  const std::string file = query::IndexFileOf(f.layout.base());
  const Action rebuild = Act(Action::Kind::kRebuildQueryIndex, file);
  // The index is in step when it has applied the change log's last event.
  storage::ChangeLogStore changes(fs, f.layout.ChangesDir());
  auto log_token = changes.LastToken();
  if (!log_token.ok()) {
    return {MakeProblem(kQueryIndexUnreadable, file,
                        "query index '" + file + "' cannot be checked: the change log cannot be read (" +
                            log_token.status().message() + ")",
                        rebuild)};
  }
  const query::IndexCheck check = query::CheckIndexFile(fs.Describe(file), ExpectedRows(f), *log_token);
  switch (check.state) {
    case query::IndexCheck::State::kAbsent:
      return {};
    case query::IndexCheck::State::kUnreadable:
      return {MakeProblem(
          kQueryIndexUnreadable, file,
          "query index '" + file + "' cannot be used: " + check.detail + " (a server rebuilds it when it needs it)",
          rebuild)};
    case query::IndexCheck::State::kIncomplete:
      return {MakeProblem(kQueryIndexIncomplete, file, "query index '" + file + "' is not complete: " + check.detail,
                          rebuild)};
    case query::IndexCheck::State::kChecked:
      break;
  }
  if (check.differences == 0) return {};
  std::string message = "query index '" + file + "' differs from the files in " + std::to_string(check.differences) +
                        (check.differences == 1 ? " object: " : " objects: ");
  for (size_t i = 0; i < check.examples.size(); ++i) message += (i ? "; " : "") + check.examples[i];
  if (check.examples.size() < check.differences) message += "; ...";
  return {MakeProblem(kQueryIndexStale, file, message, rebuild)};
}

bool RebuildQueryIndex(Fs& fs, const std::string& base, const Problems& problems, RepairLog& log) {
  std::vector<const Problem*> mine;
  for (const Problem& p : problems) {
    if (p.action.kind == Action::Kind::kRebuildQueryIndex) mine.push_back(&p);
  }
  if (mine.empty()) return false;
  auto fail = [&](const Status& s) {
    for (const Problem* p : mine) log.Failed(*p, s);
    return false;
  };
  StoreOptions options;
  options.create = false;
  auto store = Store::Open(fs, options);
  if (!store.ok()) return fail(store.status());
  auto repo = (*store)->GetRepository(storage::ParentPath(base), storage::BaseName(base));
  if (!repo.ok()) return fail(repo.status());
  const std::shared_ptr<query::QueryIndex> index = query::MakeQueryIndex(fs, base);
  // A file SQLite cannot use at all is removed and made anew by the rebuild.
  const Status s = index->Rebuild(**repo);
  if (!s.ok()) return fail(s);
  for (const Problem* p : mine) log.Done(*p, "rebuilt it from the files");
  return true;
}

}  // namespace folio::fsck
