// Adoption tables read and staged; see adopted_docs.h.
#include "repo/hand_edits/adopted_docs.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "storage/committer.h"
#include "storage/datetime.h"
#include "storage/ids.h"

namespace folio::repo::hand_edits {

namespace {

// The locks of AdoptedDoc::series_json_, by the document's address: a mutex in each of a
// folder's thousands of entries would cost more than the weak pointer it guards, and a
// lock is held only to read or set that pointer.
std::mutex& MadeLock(const void* doc) {
  static std::array<std::mutex, 32> locks;
  return locks[(reinterpret_cast<uintptr_t>(doc) / alignof(std::max_align_t)) % locks.size()];
}

}  // namespace

std::shared_ptr<const storage::Json> AdoptedDoc::SeriesJson() const {
  std::mutex& mu = MadeLock(this);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto made = series_json_.lock()) return made;
  }
  auto fresh = std::make_shared<const storage::Json>(ToJson(AdoptedSeries(entry)));
  std::lock_guard<std::mutex> lock(mu);
  // Another thread may have made it meanwhile: the first made is the one everybody
  // gets, so that one document is one identity.
  if (auto made = series_json_.lock()) return made;
  series_json_ = fresh;
  return fresh;
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
    if (numbers_memo_.size() >= max_folders_) numbers_memo_.clear();
    numbers_memo_[folder_id] = NumbersMemo{dir_st->inode, dir_st->mtime_ns, numbers};
  }
  return numbers;
}

Result<AdoptionTable> AdoptedDocs::Decode(std::string_view bytes, const std::string& folder_id,
                                          const std::string& path) {
  AdoptionTable table;
  {
    // The JSON value lives only while it is decoded: a table of 1,000 documents takes
    // about a megabyte as one, four times its decoding.
    FOLIO_ASSIGN_OR_RETURN(storage::Json json, storage::ParseStoredJson(bytes, path));
    FOLIO_ASSIGN_OR_RETURN(table, AdoptionTableFromJson(json, path));
  }
  if (table.folder_id != folder_id) {
    return StorageError("adoption table '" + path + "' names the folder '" + table.folder_id + "'");
  }
  return table;
}

std::shared_ptr<const AdoptedDocs::Decoded> AdoptedDocs::MakeDecoded(const std::string& folder_id, uint64_t n,
                                                                     AdoptionTable table) {
  auto decoded = std::make_shared<Decoded>();
  decoded->by_series.reserve(table.documents.size());
  for (auto& [name, entry] : table.documents) {
    auto doc = std::make_shared<const AdoptedDoc>(folder_id, name, n, std::move(entry));
    decoded->by_series.emplace(doc->entry.series_id, doc);
    decoded->by_name.emplace(name, std::move(doc));
  }
  return decoded;
}

uint64_t AdoptedDocs::CostOf(const Decoded& decoded) {
  // A string's own allocation, when it is too long for the short-string buffer.
  const auto heap = [](const std::string& s) -> uint64_t { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  // make_shared's block, a std::map node, an unordered_map node and its bucket.
  constexpr uint64_t kNodes = 16 + 64 + 48 + 8;
  uint64_t cost = sizeof(Decoded);
  for (const auto& [name, doc] : decoded.by_name) {
    // Each name and series id is held twice: in the document and as a key.
    cost += sizeof(AdoptedDoc) + kNodes + 2 * heap(doc->name) + 2 * heap(doc->entry.series_id) +
            heap(doc->folder_id) + heap(doc->entry.mime_type);
  }
  return cost;
}

Result<AdoptionTable> AdoptedDocs::ReadTable(const std::string& folder_id, uint64_t n) {
  FOLIO_ASSIGN_OR_RETURN(auto decoded, Table(folder_id, n));
  AdoptionTable table{folder_id, {}};
  for (const auto& [name, doc] : decoded->by_name) table.documents.emplace_hint(table.documents.end(), name, doc->entry);
  return table;
}

std::shared_ptr<const AdoptedDocs::Keys> AdoptedDocs::KeysOf(const Decoded& decoded) {
  auto keys = std::make_shared<Keys>();
  keys->names.reserve(decoded.by_name.size());
  keys->series.reserve(decoded.by_name.size());
  for (const auto& [name, doc] : decoded.by_name) {
    keys->names.push_back(Hash(name));
    keys->series.push_back(Hash(doc->entry.series_id));
  }
  std::sort(keys->names.begin(), keys->names.end());
  std::sort(keys->series.begin(), keys->series.end());
  return keys;
}

uint64_t AdoptedDocs::CostOf(const Keys& keys) {
  return sizeof(Keys) + 16 + (keys.names.capacity() + keys.series.capacity()) * sizeof(uint64_t);
}

uint64_t AdoptedDocs::Hash(std::string_view s) { return std::hash<std::string_view>()(s); }

Result<std::shared_ptr<const AdoptedDocs::Decoded>> AdoptedDocs::Table(const std::string& folder_id, uint64_t n) {
  const std::string path = layout_.AdoptionTable(folder_id, n);
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.IdentityStat(path));
  return Table(folder_id, n, path, st);
}

Result<std::shared_ptr<const AdoptedDocs::Decoded>> AdoptedDocs::Table(const std::string& folder_id, uint64_t n,
                                                                       const std::string& path,
                                                                       const FileStat& st) {
  std::optional<FileStat> offered;
  FOLIO_ASSIGN_OR_RETURN(
      std::shared_ptr<const Decoded> decoded,
      tables_->Read(
          fs_, path, st,
          [&](std::string_view bytes) -> Result<storage::FileMemo<Decoded>::Made> {
            decoded_count_.fetch_add(1, std::memory_order_relaxed);
            FOLIO_ASSIGN_OR_RETURN(AdoptionTable table, Decode(bytes, folder_id, path));
            auto made = MakeDecoded(folder_id, n, std::move(table));
            const uint64_t cost = CostOf(*made);
            return storage::FileMemo<Decoded>::Made(std::move(made), cost);
          },
          &offered));
  // The keys are kept under the same identity as the decoding, and outlive it.
  if (offered) {
    auto keys = KeysOf(*decoded);
    const uint64_t cost = CostOf(*keys);
    keys_->Offer(path, *offered, std::move(keys), cost);
  }
  return decoded;
}

Result<std::shared_ptr<const AdoptedDocs::Decoded>> AdoptedDocs::TableIfMayHold(const std::string& folder_id,
                                                                                uint64_t n, KeyKind kind,
                                                                                uint64_t hash) {
  const std::string path = layout_.AdoptionTable(folder_id, n);
  // One stat serves both: the keys are those of the file's present state, or none.
  FOLIO_ASSIGN_OR_RETURN(FileStat st, fs_.IdentityStat(path));
  if (auto keys = keys_->Find(path, st)) {
    const std::vector<uint64_t>& hashes = kind == KeyKind::kName ? keys->names : keys->series;
    if (!std::binary_search(hashes.begin(), hashes.end(), hash)) return std::shared_ptr<const Decoded>();
  }
  return Table(folder_id, n, path, st);
}

void AdoptedDocs::StageTable(storage::ChangeSet& change, const std::string& folder_id, uint64_t n,
                             AdoptionTable table) {
  const std::string path = layout_.AdoptionTable(folder_id, n);
  std::string text = AdoptionTableText(table);
  std::shared_ptr<const Decoded> decoded = MakeDecoded(folder_id, n, std::move(table));
  const uint64_t cost = CostOf(*decoded);
  std::shared_ptr<const Keys> keys = KeysOf(*decoded);
  const uint64_t keys_cost = CostOf(*keys);
  std::weak_ptr<storage::FileMemo<Decoded>> memo = tables_;
  std::weak_ptr<storage::FileMemo<Keys>> key_memo = keys_;
  change.Put(path, std::move(text),
             [memo, key_memo, path, decoded = std::move(decoded), cost, keys = std::move(keys),
              keys_cost](const FileStat& st) {
               if (auto tables = memo.lock()) tables->Keep(path, st, decoded, cost);
               if (auto key_tables = key_memo.lock()) key_tables->Keep(path, st, keys, keys_cost);
             });
}

Result<std::shared_ptr<const AdoptedDoc>> AdoptedDocs::Find(const std::string& folder_id, const std::string& name) {
  FOLIO_ASSIGN_OR_RETURN(std::vector<uint64_t> numbers, Numbers(folder_id));
  const uint64_t hash = Hash(name);
  for (uint64_t n : numbers) {
    FOLIO_ASSIGN_OR_RETURN(auto table, TableIfMayHold(folder_id, n, KeyKind::kName, hash));
    if (table == nullptr) continue;
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
  const uint64_t hash = Hash(series_id);
  for (size_t i = 0; i < numbers.size(); ++i) {
    FOLIO_ASSIGN_OR_RETURN(auto table, TableIfMayHold(*folder_id, numbers[i], KeyKind::kSeries, hash));
    if (table == nullptr) continue;
    auto it = table->by_series.find(series_id);
    if (it == table->by_series.end()) continue;
    // As in All: a name in two tables (only a hand edit makes one) is the lowest table's
    // document, and the other one is not there.
    const std::string& name = it->second->name;
    const uint64_t name_hash = Hash(name);
    for (size_t j = 0; j < i; ++j) {
      FOLIO_ASSIGN_OR_RETURN(auto lower, TableIfMayHold(*folder_id, numbers[j], KeyKind::kName, name_hash));
      if (lower != nullptr && lower->by_name.count(name) != 0) return std::shared_ptr<const AdoptedDoc>();
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
  StageTable(change, folder_id, n, AdoptionTable{folder_id, std::move(documents)});
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
    if (table.documents.empty()) {
      change.Remove(layout_.AdoptionTable(key.first, key.second));
      ++emptied[key.first];
    } else {
      StageTable(change, key.first, key.second, std::move(table));
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
  StageTable(change, doc.folder_id, doc.table, std::move(table));
  return OkStatus();
}

size_t AdoptedDocs::TableMemoSize() { return tables_->size(); }

uint64_t AdoptedDocs::TableMemoBytes() { return tables_->bytes(); }

void AdoptedDocs::DropCaches() {
  tables_->Clear();
  keys_->Clear();
  std::lock_guard<std::mutex> lock(mu_);
  numbers_memo_.clear();
}

void AdoptedDocs::StageRemoveFolder(storage::ChangeSet& change, const std::string& folder_id) {
  change.Remove(layout_.AdoptedFolderDir(folder_id));
}

}  // namespace folio::repo::hand_edits
