// Adoption of hand-added folders and files, and absorption of hand edits, through the
// public engine (Store, Repository), which writes exactly the records it would write
// itself on the first request touching them (docs/STORAGE.md §9).
#include <algorithm>

#include "folio/store.h"
#include "fsck/repair.h"
#include "repo/hand_edits/adopted_docs.h"
#include "storage/json_access.h"
#include "storage/json_file.h"
#include "storage/layout.h"

namespace folio::fsck {
namespace {

// The string `key` of the JSON file `path`, or "" if there is none.
std::string IdIn(Fs& fs, const std::string& path, const char* key) {
  auto j = storage::ReadJsonFile(fs, path);
  if (!j.ok()) return "";
  return storage::StringOr(*j, key, "");
}

// The series id of the document at `object` (repository-relative): its series', or its
// adoption table entry's (docs/STORAGE.md §4.1); "" if it has neither.
std::string DocumentIdAt(Fs& fs, const storage::RepoLayout& layout, const std::string& object) {
  const std::string folder = storage::ParentPath(object);
  const std::string name = storage::BaseName(object);
  std::string id = IdIn(fs, layout.SeriesFile(folder, name), "seriesId");
  if (!id.empty()) return id;
  const std::string folder_id = IdIn(fs, layout.FolderFile(folder), "id");
  if (folder_id.empty()) return "";
  repo::lookup::RecordReader records(fs, layout);
  repo::hand_edits::AdoptedDocs adopted(fs, layout, records);
  auto doc = adopted.Find(folder_id, name);
  return doc.ok() && *doc ? (*doc)->entry.series_id : "";
}

// The repository `base` as the engine opens it, through a Store of its own (`store`).
Result<std::shared_ptr<Repository>> OpenEngine(Fs& fs, const std::string& base, std::unique_ptr<Store>& store) {
  StoreOptions options;
  options.create = false;
  FOLIO_ASSIGN_OR_RETURN(store, Store::Open(fs, options));
  return store->GetRepository(storage::ParentPath(base), storage::BaseName(base));
}

}  // namespace

bool RepairThroughEngine(Fs& fs, const std::string& base, const Problems& problems,
                         RepairLog& log) {
  std::vector<const Problem*> folders, files, edits;
  for (const Problem& p : problems) {
    if (p.action.kind == Action::Kind::kAbsorb) edits.push_back(&p);
    if (p.action.kind != Action::Kind::kAdopt) continue;
    (p.finding.id == kFolderRecordMissing.id ? folders : files).push_back(&p);
  }
  if (folders.empty() && files.empty() && edits.empty()) return false;
  // Parents before children.
  std::sort(folders.begin(), folders.end(),
            [](const Problem* a, const Problem* b) { return a->action.object < b->action.object; });

  auto fail_all = [&](const Status& s) {
    for (const auto* group : {&folders, &files, &edits}) {
      for (const Problem* p : *group) log.Failed(*p, s);
    }
  };
  std::unique_ptr<Store> store;
  auto repo = OpenEngine(fs, base, store);
  if (!repo.ok()) {
    fail_all(repo.status());
    return false;
  }
  Repository& r = **repo;
  const storage::RepoLayout layout(base);
  auto touch = [&](const std::string& object) { return r.GetObjectByPath(object).status(); };

  bool progress = false;
  for (const Problem* p : folders) {
    const Status s = touch(p->action.object);
    const std::string id = IdIn(fs, layout.FolderFile(p->action.object), "id");
    if (id.empty()) {
      log.Failed(*p, s.ok() ? RuntimeError("no record was written") : s);
      continue;
    }
    log.Done(*p, "adopted as folder '" + id + "'");
    progress = true;
  }
  for (const Problem* p : files) {
    const std::string& object = p->action.object;
    const Status s = touch(object);
    const std::string id = DocumentIdAt(fs, layout, object);
    if (id.empty()) {
      log.Failed(*p, s.ok() ? RuntimeError("no record was written") : s);
      continue;
    }
    log.Done(*p, "adopted as document '" + id + "' (version 1.0)");
    progress = true;
  }
  for (const Problem* p : edits) {
    // Reading the latest version makes the engine take the edited file as its content.
    const Status s = touch(p->action.object);
    if (!s.ok()) {
      log.Failed(*p, s);
      continue;
    }
    log.Done(*p, "took the file as the latest version's content");
    progress = true;
  }
  return progress;
}

}  // namespace folio::fsck

namespace folio::fsck {

bool ForgetThroughEngine(Fs& fs, const std::string& base, const Problems& problems, RepairLog& log) {
  std::vector<std::pair<const Problem*, std::string>> dangling;
  for (const Problem& p : problems) {
    if (p.finding.id != kIndexEntryDangling.id) continue;
    auto id = storage::IdOfRecordFileName(storage::BaseName(p.finding.path));
    if (id) dangling.emplace_back(&p, *id);
  }
  if (dangling.empty()) return false;
  std::unique_ptr<Store> store;
  auto repo = OpenEngine(fs, base, store);
  if (!repo.ok()) {
    for (const auto& [p, id] : dangling) log.Failed(*p, repo.status());
    return false;
  }
  bool progress = false;
  for (const auto& [p, id] : dangling) {
    // A lookup of a vanished id has the engine record the deletion of everything that
    // vanished with it (the first lookup does it all; the others find their entry gone).
    auto o = (*repo)->GetObject(id);
    if (Exists(fs, p->finding.path)) {
      // Not gone after all (it resolves: RebuildIndex corrects it), or the engine failed.
      if (!o.ok() && o.status().kind() != ErrorKind::kObjectNotFound) log.Failed(*p, o.status());
      continue;
    }
    log.Done(*p, "recorded the deletion of '" + id + "' in the change log and removed the entry");
    progress = true;
  }
  return progress;
}

}  // namespace folio::fsck
