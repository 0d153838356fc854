// Adoption tables read and staged; see adopted_docs.h.
#include "repo/adopted_docs.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "storage/committer.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo {

namespace {

// The locks of AdoptedDoc::made_, by the document's address: a mutex in each of a
// folder's thousands of entries would cost more than the weak pointer it guards, and a
// lock is held only to read or set that pointer.
std::mutex& MadeLock(const void* doc) {
  static std::array<std::mutex, 32> locks;
  return locks[(reinterpret_cast<uintptr_t>(doc) / alignof(std::max_align_t)) % locks.size()];
}

}  // namespace

std::shared_ptr<const AdoptedDoc::Made> AdoptedDoc::Make() const {
  std::mutex& mu = MadeLock(this);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto made = made_.lock()) return made;
  }
  auto fresh = std::make_shared<const Made>(Made{ToJson(AdoptedSeries(entry)), ToJson(AdoptedVersion(name, entry))});
  std::lock_guard<std::mutex> lock(mu);
  // Another thread may have made them meanwhile: the first made is the one everybody
  // gets, so that one document is one identity.
  if (auto made = made_.lock()) return made;
  made_ = fresh;
  return fresh;
}

std::shared_ptr<const storage::Json> AdoptedDoc::SeriesJson() const {
  auto made = Make();
  return std::shared_ptr<const storage::Json>(made, &made->series);
}

std::shared_ptr<const storage::Json> AdoptedDoc::VersionJson() const {
  auto made = Make();
  return std::shared_ptr<const storage::Json>(made, &made->version);
}

Result<std::vector<uint64_t>> AdoptedDocs::Numbers(const std::string& folder_id) {
  std::vector<uint64_t> numbers;
  const std::string dir = layout_.AdoptedFolderDir(folder_id);
  // Stat before listing: a change after the stat gives the directory a later mtime, so
  // what is kept below is never taken for a listing newer than it is.
  std::optional<FileStat> dir_st;
  if (!storage::Committer::InStaging()) {
    auto st = fs_.Stat(dir);
    if (!st.ok() && st.status().Is(std::errc::no_such_file_or_directory)) return numbers;
    if (st.ok() && st->type == FileType::kDirectory) dir_st = *st;
  }
  if (dir_st) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = numbers_memo_.find(folder_id);
    if (it != numbers_memo_.end() && it->second.dir_inode == dir_st->inode &&
        it->second.dir_mtime_ns == dir_st->mtime_ns) {
      return it->second.numbers;
    }
  }
  auto entries = fs_.List(dir);
  if (!entries.ok()) {
    if (entries.status().Is(std::errc::no_such_file_or_directory)) return numbers;
    return entries.status();
  }
  for (const DirEntry& e : *entries) {
    if (e.type != FileType::kFile) continue;
    if (auto n = storage::AdoptionTableNumber(e.name)) numbers.push_back(*n);
  }
  std::sort(numbers.begin(), numbers.end());
  // A directory changed within the clock's granularity may change again without its
  // mtime moving (git's "racy" case): such a listing is not kept.
  if (dir_st && !storage::IsRacy(dir_st->mtime_ns)) {
    std::lock_guard<std::mutex> lock(mu_);
    if (numbers_memo_.size() >= kMaxNumbersMemo) numbers_memo_.clear();
    numbers_memo_[folder_id] = NumbersMemo{dir_st->inode, dir_st->mtime_ns, numbers};
  }
  return numbers;
}

Result<AdoptionTable> AdoptedDocs::Decode(const storage::Json& json, const std::string& folder_id,
                                          const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(AdoptionTable table, AdoptionTableFromJson(json, path));
  if (table.folder_id != folder_id) {
    return StorageError("adoption table '" + path + "' names the folder '" + table.folder_id + "'");
  }
  return table;
}

Result<AdoptionTable> AdoptedDocs::ReadTable(const std::string& folder_id, uint64_t n) {
  const std::string path = layout_.AdoptionTable(folder_id, n);
  FOLIO_ASSIGN_OR_RETURN(auto json, records_.Read(path));
  return Decode(*json, folder_id, path);
}

Result<std::shared_ptr<const AdoptedDocs::Decoded>> AdoptedDocs::Table(const std::string& folder_id, uint64_t n) {
  const std::string path = layout_.AdoptionTable(folder_id, n);
  FOLIO_ASSIGN_OR_RETURN(auto json, records_.Read(path));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = memo_.find(json.get());
    if (it != memo_.end() && it->second.json.lock() == json) return it->second.decoded;
  }
  FOLIO_ASSIGN_OR_RETURN(AdoptionTable table, Decode(*json, folder_id, path));
  auto decoded = std::make_shared<Decoded>();
  decoded->by_series.reserve(table.documents.size());
  for (auto& [name, entry] : table.documents) {
    auto doc = std::make_shared<const AdoptedDoc>(folder_id, name, n, std::move(entry));
    decoded->by_series.emplace(doc->entry.series_id, doc);
    decoded->by_name.emplace(name, std::move(doc));
  }
  std::lock_guard<std::mutex> lock(mu_);
  // A decoding whose table left the record cache can never be found again, and it is
  // large (an AdoptedDoc per document, about 200 bytes each, the records made of one
  // while anything holds them): it goes at once, not when the memo has doubled, so that
  // what is kept follows the record cache's byte budget.
  std::erase_if(memo_, [](const auto& e) { return e.second.json.expired(); });
  if (memo_.size() >= kMaxTableMemo) memo_.clear();
  memo_[json.get()] = TableMemo{json, decoded};
  return std::shared_ptr<const Decoded>(decoded);
}

Result<std::shared_ptr<const AdoptedDoc>> AdoptedDocs::Find(const std::string& folder_id, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(folder_id));
  for (uint64_t n : numbers) {
    FOLIO_ASSIGN_OR_RETURN(auto table, Table(folder_id, n));
    auto it = table->by_name.find(name);
    if (it != table->by_name.end()) return it->second;
  }
  return std::shared_ptr<const AdoptedDoc>();
}

Result<bool> AdoptedDocs::IsCurrentFile(const std::string& folder_id, const std::string& name,
                                        const std::string& series_id, const FileStat& file) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<const AdoptedDoc> doc, Find(folder_id, name));
  if (doc == nullptr || doc->entry.series_id != series_id) return false;
  return file.type == FileType::kFile && SameIdentity(doc->entry, file);
}

Result<std::shared_ptr<const AdoptedDoc>> AdoptedDocs::FindId(const std::string& series_id) {
  auto folder_id = storage::AdoptedFolderOf(series_id);
  if (!folder_id) return std::shared_ptr<const AdoptedDoc>();
  FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(*folder_id));
  std::vector<std::shared_ptr<const Decoded>> lower;  // the tables before the one holding it
  for (uint64_t n : numbers) {
    FOLIO_ASSIGN_OR_RETURN(auto table, Table(*folder_id, n));
    auto it = table->by_series.find(series_id);
    if (it == table->by_series.end()) {
      lower.push_back(std::move(table));
      continue;
    }
    // As in All: a name in two tables (only a hand edit makes one) is the lowest table's
    // document, and the other one is not there.
    for (const auto& t : lower) {
      if (t->by_name.count(it->second->name) != 0) return std::shared_ptr<const AdoptedDoc>();
    }
    return it->second;
  }
  return std::shared_ptr<const AdoptedDoc>();
}

Result<std::map<std::string, std::shared_ptr<const AdoptedDoc>>> AdoptedDocs::All(const std::string& folder_id) {
  std::map<std::string, std::shared_ptr<const AdoptedDoc>> all;
  FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(folder_id));
  for (uint64_t n : numbers) {
    FOLIO_ASSIGN_OR_RETURN(auto table, Table(folder_id, n));
    for (const auto& [name, doc] : table->by_name) all.emplace(name, doc);  // the lowest n wins
  }
  return all;
}

Result<std::optional<std::string>> AdoptedDocs::FolderIdAt(const std::string& folder) {
  auto folder_id = records_.FolderId(folder);
  if (folder_id.ok()) return std::optional<std::string>(std::move(*folder_id));
  // A folder without a record has no table yet.
  if (folder_id.status().Is(std::errc::no_such_file_or_directory)) return std::optional<std::string>();
  return folder_id.status();
}

Result<std::shared_ptr<const AdoptedDoc>> AdoptedDocs::FindAt(const std::string& folder, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(std::optional<std::string> folder_id, FolderIdAt(folder));
  if (!folder_id) return std::shared_ptr<const AdoptedDoc>();
  return Find(*folder_id, name);
}

Result<std::map<std::string, std::shared_ptr<const AdoptedDoc>>> AdoptedDocs::AllAt(const std::string& folder) {
  FOLIO_ASSIGN_OR_RETURN(std::optional<std::string> folder_id, FolderIdAt(folder));
  if (!folder_id) return std::map<std::string, std::shared_ptr<const AdoptedDoc>>();
  return All(*folder_id);
}

Status AdoptedDocs::StageNewTable(storage::ChangeSet& change, const std::string& folder_id,
                                  std::map<std::string, AdoptedEntry> documents) {
  if (documents.empty()) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(folder_id));
  const uint64_t n = numbers.empty() ? 1 : numbers.back() + 1;
  change.MakeDir(layout_.AdoptedDir());
  change.MakeDir(layout_.AdoptedFolderDir(folder_id));
  change.PutJson(layout_.AdoptionTable(folder_id, n), ToJson(AdoptionTable{folder_id, std::move(documents)}));
  return OkStatus();
}

Status AdoptedDocs::StageWithout(storage::ChangeSet& change, const std::vector<std::shared_ptr<const AdoptedDoc>>& docs) {
  // Grouped by table: each table is rewritten (or removed) once.
  std::map<std::pair<std::string, uint64_t>, std::vector<std::string>> by_table;
  for (const auto& d : docs) by_table[{d->folder_id, d->table}].push_back(d->name);
  std::map<std::string, size_t> emptied;  // tables left empty, by folder
  for (const auto& [key, names] : by_table) {
    FOLIO_ASSIGN_OR_RETURN(AdoptionTable table, ReadTable(key.first, key.second));
    for (const std::string& name : names) table.documents.erase(name);
    const std::string path = layout_.AdoptionTable(key.first, key.second);
    if (table.documents.empty()) {
      change.Remove(path);
      ++emptied[key.first];
    } else {
      change.PutJson(path, ToJson(table));
    }
  }
  // A folder left without tables loses its directory too.
  for (const auto& [folder_id, count] : emptied) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(folder_id));
    if (numbers.size() == count) StageRemoveFolder(change, folder_id);
  }
  return OkStatus();
}

Status AdoptedDocs::StageReplace(storage::ChangeSet& change, const AdoptedDoc& doc, const AdoptedEntry& entry) {
  FOLIO_ASSIGN_OR_RETURN(AdoptionTable table, ReadTable(doc.folder_id, doc.table));
  table.documents[doc.name] = entry;
  change.PutJson(layout_.AdoptionTable(doc.folder_id, doc.table), ToJson(table));
  return OkStatus();
}

size_t AdoptedDocs::TableMemoSize() {
  std::lock_guard<std::mutex> lock(mu_);
  return memo_.size();
}

void AdoptedDocs::DropCaches() {
  std::lock_guard<std::mutex> lock(mu_);
  memo_.clear();
  numbers_memo_.clear();
}

void AdoptedDocs::StageRemoveFolder(storage::ChangeSet& change, const std::string& folder_id) {
  change.Remove(layout_.AdoptedFolderDir(folder_id));
}

}  // namespace folio::repo
