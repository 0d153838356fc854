// Repairs of adoption tables (docs/STORAGE.md §4.1) under a repository's write lock;
// see repair_actions.h. Staged through repo::hand_edits::AdoptedDocs, as the engine stages them.
#include <algorithm>
#include <optional>

#include "fsck/repair_actions.h"
#include "fsck/walk_util.h"
#include "repo/changes/staging.h"
#include "repo/hand_edits/adopted_docs.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::fsck {
namespace {

using DocList = std::vector<std::shared_ptr<const repo::hand_edits::AdoptedDoc>>;

// The table at `path` as it is now; nullopt when it is gone. Errors: kStorage when it
// cannot be read or decoded.
Result<std::optional<repo::hand_edits::AdoptionTable>> TableNow(Fs& fs, const std::string& path) {
  auto j = storage::ReadJsonFile(fs, path);
  if (!j.ok()) {
    if (IsMissing(j.status())) return std::optional<repo::hand_edits::AdoptionTable>();
    return j.status();
  }
  FOLIO_ASSIGN_OR_RETURN(repo::hand_edits::AdoptionTable table, repo::hand_edits::AdoptionTableFromJson(*j, path));
  return std::optional<repo::hand_edits::AdoptionTable>(std::move(table));
}

// The entry `name` of the table `path` (R/.folio/adopted/<folderId>/<n>.json) as it is
// now; null when it is gone.
Result<std::shared_ptr<const repo::hand_edits::AdoptedDoc>> DocNow(Fs& fs, const std::string& path,
                                                                   const std::string& name) {
  const auto n = storage::AdoptionTableNumber(storage::BaseName(path));
  if (!n) return RuntimeError("'" + path + "' is not an adoption table");
  FOLIO_ASSIGN_OR_RETURN(auto table, TableNow(fs, path));
  if (!table) return std::shared_ptr<const repo::hand_edits::AdoptedDoc>();
  auto it = table->documents.find(name);
  if (it == table->documents.end()) return std::shared_ptr<const repo::hand_edits::AdoptedDoc>();
  return std::make_shared<const repo::hand_edits::AdoptedDoc>(storage::BaseName(storage::ParentPath(path)), name, *n,
                                                              it->second);
}

// Another object of the repository than the entry `name` of `table` has `id`: dropping
// the entry deletes nothing a client may know.
bool IdLivesOn(const RepoFacts& f, const std::string& id, const std::string& table, const std::string& name) {
  return std::any_of(f.records.begin(), f.records.end(), [&](const RecordFact& r) {
    return r.id == id && !(r.adopted && r.record == table && r.name == name);
  });
}

// Stages the removal of `docs` from their tables with a "deleted" event for each whose
// id is gone with it (`keep`: an id that stays anyway), and the removal of such an id's
// index entry, which only damage makes (else the engine would take the entry for an
// object removed by hand and record its deletion again). Returns the number of events.
Result<size_t> StageDrop(Fs& fs, const RepoFacts& f, const storage::RepoLayout& layout, storage::ChangeSet& change,
                         const DocList& docs, const std::string& keep = "") {
  repo::lookup::RecordReader records(fs, layout);
  repo::hand_edits::AdoptedDocs adopted(fs, layout, records);
  FOLIO_RETURN_IF_ERROR(adopted.StageWithout(change, docs));
  size_t events = 0;
  for (const auto& d : docs) {
    const std::string& id = d->entry.series_id;
    if (id == keep || IdLivesOn(f, id, layout.AdoptionTable(d->folder_id, d->table), d->name)) continue;
    // By the id its "created" event named (version 1.0), as the engine records it.
    for (storage::ChangeEvent& e :
         repo::changes::DocumentDeletedEvents(id, repo::hand_edits::AdoptedSeries(d->entry).versions, false, "",
                                              repo::hand_edits::AdoptedVersion(d->name, d->entry).acl)) {
      change.Record(std::move(e));
    }
    if (Exists(fs, layout.IndexEntry(id))) change.Remove(layout.IndexEntry(id));
    ++events;
  }
  return events;
}

std::string Recorded(size_t events, const std::string& id) {
  if (events == 0) return "";
  if (events == 1 && !id.empty()) return " and recorded the deletion of '" + id + "' in the change log";
  return " and recorded the deletion of " + std::to_string(events) + " documents in the change log";
}

}  // namespace

Result<std::string> DropAdoptedEntry(Fs& fs, const RepoFacts& f, const std::string& table, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(auto doc, DocNow(fs, table, name));
  if (!doc) return std::string();
  size_t events = 0;
  FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(events, StageDrop(fs, f, f.layout, change, {doc}));
    return OkStatus();
  }));
  return "removed the entry from '" + table + "'" + Recorded(events, doc->entry.series_id);
}

Result<std::string> DropAdoptedDuplicates(Fs& fs, const RepoFacts& f, const std::string& kept,
                                          const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(auto kept_doc, DocNow(fs, kept, name));
  const std::string dir = storage::ParentPath(kept);
  auto entries = fs.List(dir);
  if (!entries.ok()) return IsMissing(entries.status()) ? Result<std::string>(std::string()) : entries.status();
  DocList drop;
  std::string dropped;
  for (const DirEntry& e : *entries) {
    const std::string path = storage::JoinPath(dir, e.name);
    if (path == kept || e.type != FileType::kFile || !storage::AdoptionTableNumber(e.name)) continue;
    auto doc = DocNow(fs, path, name);
    if (!doc.ok() || !*doc) continue;  // an unreadable table is adopted-table-unreadable's
    drop.push_back(*doc);
    dropped += (dropped.empty() ? "'" : ", '") + path + "'";
  }
  if (drop.empty()) return std::string();
  // The entry kept may be gone meanwhile (its file missing): its id is not deleted twice.
  const std::string keep = kept_doc ? kept_doc->entry.series_id : "";
  size_t events = 0;
  FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
    FOLIO_ASSIGN_OR_RETURN(events, StageDrop(fs, f, f.layout, change, drop, keep));
    return OkStatus();
  }));
  return "removed the entries from " + dropped + Recorded(events, drop.size() == 1 ? drop[0]->entry.series_id : "");
}

Result<std::string> ForgetAdoptedFolder(Fs& fs, const RepoFacts& f, const std::string& dir) {
  auto entries = fs.List(dir);
  if (!entries.ok()) return IsMissing(entries.status()) ? Result<std::string>(std::string()) : entries.status();
  std::vector<uint64_t> numbers;
  for (const DirEntry& e : *entries) {
    const auto n = storage::AdoptionTableNumber(e.name);
    if (e.type != FileType::kFile || !n) {
      return StorageError("'" + dir + "' holds '" + e.name + "', which is not an adoption table");
    }
    numbers.push_back(*n);
  }
  std::sort(numbers.begin(), numbers.end());
  const std::string folder_id = storage::BaseName(dir);
  size_t events = 0;
  // A change per table (at most 1,000 documents each); the last one removes `dir`.
  for (uint64_t n : numbers) {
    const std::string path = f.layout.AdoptionTable(folder_id, n);
    FOLIO_ASSIGN_OR_RETURN(auto table, TableNow(fs, path));
    if (!table) continue;
    DocList docs;
    for (const auto& [name, entry] : table->documents) {
      docs.push_back(std::make_shared<const repo::hand_edits::AdoptedDoc>(folder_id, name, n, entry));
    }
    FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
      if (docs.empty()) {
        change.Remove(path);  // an empty table: nothing to stage but its removal
        return OkStatus();
      }
      FOLIO_ASSIGN_OR_RETURN(size_t recorded, StageDrop(fs, f, f.layout, change, docs));
      events += recorded;
      return OkStatus();
    }));
  }
  if (Exists(fs, dir)) {
    FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
      change.Remove(dir);
      return OkStatus();
    }));
  }
  return "removed the tables" + Recorded(events, "");
}

Result<std::string> AbsorbAdoptedFile(Fs& fs, const RepoFacts& f, const std::string& table, const std::string& name) {
  const AdoptedFact* fact = nullptr;
  for (const AdoptedFact& a : f.adopted) {
    if (a.table == table && a.name == name && a.Shown()) fact = &a;
  }
  if (fact == nullptr) return std::string();
  FOLIO_ASSIGN_OR_RETURN(auto doc, DocNow(fs, table, name));
  if (!doc) return std::string();
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs.Stat(fact->visible));
  repo::hand_edits::AdoptedEntry entry = doc->entry;
  if (st.type != FileType::kFile || repo::hand_edits::SameIdentity(entry, st)) return std::string();
  repo::hand_edits::TakeIdentity(entry, st);
  FOLIO_RETURN_IF_ERROR(CommitUnderLock(fs, f.layout, [&](storage::ChangeSet& change) -> Status {
    repo::lookup::RecordReader records(fs, f.layout);
    repo::hand_edits::AdoptedDocs adopted(fs, f.layout, records);
    FOLIO_RETURN_IF_ERROR(adopted.StageReplace(change, *doc, entry));
    change.Record(repo::changes::Event("updated", storage::VersionId(entry.series_id, "1.0"), BaseType::kDocument, ""));
    return OkStatus();
  }));
  return "took the file in (its identity, and modified at " + storage::FormatIsoMs(entry.modified_ms) +
         ") with an updated event";
}

}  // namespace folio::fsck
