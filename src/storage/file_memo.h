// A bounded in-memory memo of what was made of files (a parse, a decoding), each kept
// with the identity (Fs::IdentityStat) of the file it was made of and handed out only
// while a stat still finds that identity. Folio replaces files by rename, so any change
// of ours gives a new inode; a change by hand changes mtime or inode. The one home of
// the eviction rules the caches of files share (storage::JsonCache, the adoption tables'
// decodings in repo/hand_edits/adopted_docs.h).
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "folio/fs.h"
#include "storage/datetime.h"

namespace folio::storage {

template <typename T>
class FileMemo {
 public:
  // At most `capacity` files, their values taking at most `max_bytes` as the caller
  // counts them (Keep's `cost`). The newest entry is kept even when it alone is over
  // `max_bytes`.
  FileMemo(size_t capacity, uint64_t max_bytes) : capacity_(capacity), max_bytes_(max_bytes) {}

  // The value kept for `path` when it was made of the file `st` still is (the same
  // inode, size and mtime), now the most recently used; nullptr otherwise (and a value
  // of an older state of the file is dropped). Thread-safe.
  std::shared_ptr<const T> Find(const std::string& path, const FileStat& st) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(path);
    if (it == map_.end()) return nullptr;
    if (!SameFileState(it->second.stat, st)) {
      EraseLocked(it);
      return nullptr;
    }
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.value;
  }
  // What `make` gives: the value made of a file's bytes, and its cost (as Keep's).
  using Made = std::pair<std::shared_ptr<const T>, uint64_t>;
  // The value of the file at `path`: the one kept while the file is in the same state
  // (one stat), else `make` of its bytes, read whole (the identity kept with it is the
  // one the file had when opened, read again if it changed meanwhile: its inode may be
  // reused). That value is kept (Offer) only when the file was stable before it was
  // read: a file changed within the clock's granularity may change again without its
  // mtime moving (git's "racy" case, storage::IsRacy). Errors: kStorage from the
  // filesystem (cause() no_such_file_or_directory when missing or not a regular file);
  // what `make` returns. Thread-safe.
  Result<std::shared_ptr<const T>> Read(Fs& fs, const std::string& path,
                                        const std::function<Result<Made>(std::string_view bytes)>& make) {
    FOLIO_ASSIGN_OR_RETURN(FileStat st, fs.IdentityStat(path));
    return Read(fs, path, st, make);
  }
  // As Read, for a caller that has just taken the file's identity stat `st` (its
  // IdentityStat). `offered`, when given, is set to the identity the value was offered
  // under (nullopt when it was kept already, or is not kept: a racy file).
  Result<std::shared_ptr<const T>> Read(Fs& fs, const std::string& path, FileStat st,
                                        const std::function<Result<Made>(std::string_view bytes)>& make,
                                        std::optional<FileStat>* offered = nullptr) {
    if (offered != nullptr) offered->reset();
    if (st.type != FileType::kFile) {
      return StorageError("'" + path + "' is not a regular file", std::errc::no_such_file_or_directory);
    }
    if (auto kept = Find(path, st)) return kept;
    FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeRecord(fs, path, UINT64_MAX, &st));
    FOLIO_ASSIGN_OR_RETURN(Made made, make(bytes));
    if (bytes.size() == st.size && !IsRacy(st.mtime_ns)) {
      Offer(path, st, made.first, made.second);
      if (offered != nullptr) *offered = st;
    }
    return std::move(made.first);
  }
  // The value kept for `path` WITHOUT validating it (nullptr if none): only for hints
  // that the caller verifies by other means.
  std::shared_ptr<const T> Peek(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(path);
    return it == map_.end() ? nullptr : it->second.value;
  }
  // Keeps `value` as what was made of `path` in state `st`, replacing what was kept for
  // it, counting `cost` (the caller's measure of `value`, computed outside the lock)
  // against max_bytes; evicts the least recently used beyond either bound. Nothing
  // when the capacity is 0. Thread-safe.
  void Keep(const std::string& path, const FileStat& st, std::shared_ptr<const T> value, uint64_t cost) {
    Put(path, st, std::move(value), cost, /*replace=*/true);
  }
  // As Keep, unless something is kept for `path` already: a reader's value, made of
  // what it read, gives way to one kept meanwhile by a writer (perhaps of a newer
  // state of the file).
  void Offer(const std::string& path, const FileStat& st, std::shared_ptr<const T> value, uint64_t cost) {
    Put(path, st, std::move(value), cost, /*replace=*/false);
  }
  // Forgets what was kept for `path`. Thread-safe.
  void Forget(const std::string& path) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(path);
    if (it != map_.end()) EraseLocked(it);
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    map_.clear();
    lru_.clear();
    bytes_ = 0;
  }
  // What the memo holds: entries, and the sum of their costs. Thread-safe.
  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.size();
  }
  uint64_t bytes() {
    std::lock_guard<std::mutex> lock(mu_);
    return bytes_;
  }

 private:
  struct Entry {
    FileStat stat;
    std::shared_ptr<const T> value;
    uint64_t cost;
    std::list<std::string>::iterator lru;
  };
  void Put(const std::string& path, const FileStat& st, std::shared_ptr<const T> value, uint64_t cost,
           bool replace) {
    if (capacity_ == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(path);
    if (it != map_.end() && !replace) return;
    if (it != map_.end()) {
      bytes_ -= it->second.cost;
      it->second.stat = st;
      it->second.value = std::move(value);
      it->second.cost = cost;
      lru_.splice(lru_.begin(), lru_, it->second.lru);
    } else {
      lru_.push_front(path);
      map_.emplace(path, Entry{st, std::move(value), cost, lru_.begin()});
    }
    bytes_ += cost;
    while (map_.size() > 1 && (map_.size() > capacity_ || bytes_ > max_bytes_)) EraseLocked(map_.find(lru_.back()));
  }
  // Requires mu_.
  void EraseLocked(typename std::unordered_map<std::string, Entry>::iterator it) {
    bytes_ -= it->second.cost;
    lru_.erase(it->second.lru);
    map_.erase(it);
  }

  const size_t capacity_;
  const uint64_t max_bytes_;
  std::mutex mu_;
  uint64_t bytes_ = 0;          // the sum of the entries' cost
  std::list<std::string> lru_;  // most recent first
  std::unordered_map<std::string, Entry> map_;
};

}  // namespace folio::storage
