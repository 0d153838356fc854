// Spare files kept for their inodes; see spare_pool.h.
#include "storage/spare_pool.h"

#include <unistd.h>

#include <vector>

#include "storage/atomic_write.h"
#include "storage/datetime.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {


// The filesystem cannot do what the pool needs (no RENAME_EXCHANGE, another
// filesystem below the spares' directory, an Fs without the calls).
bool Unsupported(const Status& s) {
  return s.Is(std::errc::operation_not_supported) || s.Is(std::errc::invalid_argument) ||
         s.Is(std::errc::cross_device_link) || s.Is(std::errc::function_not_supported);
}

}  // namespace

SparePool::SparePool(std::string dir, SparePoolOptions options) : dir_(std::move(dir)), options_(options) {}

bool SparePool::MayRetire(std::string_view path, uint64_t size) {
  // Only below a .folio directory: the files there are Folio's own, read whole.
  static const std::string kMeta = std::string(kMetaDir) + "/";
  static const std::string kInMeta = "/" + kMeta;
  static const std::string kMarkers = kMeta + std::string(kCheckedOutDirName);
  if (!path.starts_with(kMeta) && path.find(kInMeta) == std::string_view::npos) return false;
  const size_t slash = path.rfind('/');
  const std::string_view parent = path.substr(0, slash);
  // Checked-out markers hold their series id, which no reader reads (their names say it).
  const bool checked_out_marker =
      parent == kMarkers || (parent.ends_with(kMarkers) && parent[parent.size() - kMarkers.size() - 1] == '/');
  const std::string_view name = path.substr(slash + 1);
  return size == 0 || checked_out_marker || (name.size() > 5 && name.ends_with(".json"));
}

std::string SparePool::PathOf(const std::string& name) const { return JoinPath(dir_, name); }

std::string SparePool::NewNameLocked() {
  return std::to_string(::getpid()) + "-" + std::to_string(next_name_++);
}

void SparePool::LoadLocked(Fs& fs) {
  if (loaded_) return;
  loaded_ = true;
  auto entries = fs.List(dir_);
  if (!entries.ok()) return;  // none yet (made by the first Retire)
  const auto now = std::chrono::steady_clock::now();
  for (const DirEntry& e : *entries) {
    if (!distrust_found_ && e.type == FileType::kFile && ready_.size() < options_.capacity) {
      ready_.push_back(Spare{e.name, now});
    } else {
      (void)fs.RemoveTree(PathOf(e.name));  // not a spare, or one too many
    }
  }
}

bool SparePool::TakeReady(Fs& fs, Spare& out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (disabled_) return false;
  LoadLocked(fs);
  if (ready_.empty() || std::chrono::steady_clock::now() - ready_.front().retired < options_.grace) return false;
  out = std::move(ready_.front());
  ready_.pop_front();
  return true;
}

void SparePool::GiveBack(Spare spare) {
  std::lock_guard<std::mutex> lock(mu_);
  ready_.push_back(std::move(spare));
}

void SparePool::Drop(Fs& fs, const Spare& spare) { (void)fs.Remove(PathOf(spare.name)); }

std::unique_ptr<WritableFile> SparePool::OpenReady(Fs& fs, const Spare& spare, uint64_t& old_size) {
  const auto disable = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    disabled_ = true;
  };
  // (A FIFO or a directory put there by hand is refused, EINVAL or EISDIR: dropped;
  // only an Fs without the call turns the pool off.)
  auto file = fs.OpenToRewrite(PathOf(spare.name));
  if (!file.ok()) {
    if (file.status().Is(std::errc::operation_not_supported)) disable();
    if (!IsNoEntry(file.status())) Drop(fs, spare);
    return nullptr;
  }
  auto st = (*file)->Stat();
  if (!st.ok()) {
    if (st.status().Is(std::errc::operation_not_supported)) disable();
    return nullptr;  // the name stays on disk; forgotten here
  }
  // Another name of the file (a power loss, a link made by hand): never written over.
  if (st->type != FileType::kFile || st->links != 1) {
    (void)(*file)->Close();
    Drop(fs, spare);
    return nullptr;
  }
  // A spare another process retired lately (its ctime says when): not yet.
  const int64_t grace_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(options_.grace).count();
  if (st->ctime_ns > WallNowNs() - grace_ns) {
    (void)(*file)->Close();
    GiveBack(Spare{spare.name, std::chrono::steady_clock::now()});
    return nullptr;
  }
  old_size = st->size;
  return std::move(*file);
}

Result<bool> SparePool::Put(Fs& fs, const std::string& path, std::string_view bytes, bool keep_old) {
  Spare spare;
  std::unique_ptr<WritableFile> file;
  uint64_t old_size = 0;
  std::string at;  // the file written, then swapped in
  if (TakeReady(fs, spare)) {
    file = OpenReady(fs, spare, old_size);
    at = PathOf(spare.name);
  }
  // No spare ready: a record is still put by a swap, through a new file, so that the
  // record it replaces is kept, not freed (a pool that frees what it replaces while
  // none is ready never catches up with a steady load, and every inode freed slows
  // later allocations on ext4 without a journal). The new file is made beside `path`,
  // not among the spares: an allocation can be slow, and it holds its directory's lock
  // meanwhile, which every swap with a spare takes too.
  const bool made = file == nullptr && keep_old && HasRoom();
  if (made) {
    at = TempPathBeside(path);
    auto created = fs.CreateNew(at);
    if (!created.ok()) return false;  // the caller tries, and says what fails
    file = std::move(*created);
  }
  if (file == nullptr) return false;
  // What `at` holds when the put does not happen: a spare again, or nothing.
  const auto undo = [&] {
    if (made) {
      (void)fs.Remove(at);
    } else {
      GiveBack(Spare{spare.name, std::chrono::steady_clock::now()});
    }
  };
  Status s = file->Append(bytes);
  if (s.ok() && old_size > bytes.size()) s = file->Truncate(bytes.size());
  Status closed = file->Close();
  if (s.ok()) s = closed;
  if (!s.ok()) {
    if (made) {
      (void)fs.Remove(at);
    } else {
      Drop(fs, spare);
    }
    return s;
  }
  s = fs.Exchange(at, path);
  if (s.ok()) {
    // A rename over a directory fails; a swap would take it away: swap back, and let
    // the caller's rename fail as it did.
    auto swapped = fs.Stat(at);
    if (swapped.ok() && swapped->type == FileType::kDirectory) {
      FOLIO_RETURN_IF_ERROR(fs.Exchange(at, path));
      undo();
      return false;
    }
    // `at` now holds the file `path` named: the next spare, or freed as a rename over
    // it would free it.
    if (made) {
      CountPut(/*made=*/true);
      if (!keep_old || !MoveIn(fs, at)) (void)fs.Remove(at);
    } else {
      CountPut(/*made=*/false);
      if (!keep_old || !Requeue(spare.name)) Drop(fs, spare);
    }
    return true;
  }
  if (IsNoEntry(s)) {
    // Nothing at `path` yet: the file written becomes it.
    s = fs.Rename(at, path);
    if (s.ok()) {
      CountPut(made);
      return true;
    }
  }
  // A spare keeps its name (its bytes mean nothing); the caller writes a new file, and
  // says what the filesystem said if that fails too.
  if (Unsupported(s)) {
    std::lock_guard<std::mutex> lock(mu_);
    disabled_ = true;
  }
  undo();
  return false;
}

bool SparePool::HasRoom() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !disabled_ && ready_.size() < options_.capacity;
}

void SparePool::CountPut(bool made) {
  std::lock_guard<std::mutex> lock(mu_);
  ++(made ? made_ : reused_);
}

bool SparePool::Requeue(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ready_.size() >= options_.capacity) return false;
  ++retired_;
  ready_.push_back(Spare{name, std::chrono::steady_clock::now()});
  return true;
}

bool SparePool::MoveIn(Fs& fs, const std::string& path) {
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (disabled_) return false;
    LoadLocked(fs);
    if (ready_.size() >= options_.capacity) return false;
    name = NewNameLocked();
  }
  Status s = fs.RenameNoReplace(path, PathOf(name));
  if (IsNoEntry(s) || s.Is(std::errc::file_exists)) {
    // The spares' directory is not there yet, or an earlier process of this pid left
    // this name: once more, with the directory made and a new name.
    Status made = fs.MakeDir(dir_);
    if (!made.ok() && !made.Is(std::errc::file_exists)) return false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      name = NewNameLocked();
    }
    s = fs.RenameNoReplace(path, PathOf(name));
  }
  if (!s.ok()) {
    if (Unsupported(s)) {
      std::lock_guard<std::mutex> lock(mu_);
      disabled_ = true;
    }
    return false;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++retired_;
  ready_.push_back(Spare{std::move(name), std::chrono::steady_clock::now()});
  return true;
}

Result<bool> SparePool::Retire(Fs& fs, const std::string& path, const FileStat& st) {
  if (st.type != FileType::kFile || st.links > 1) return false;
  return MoveIn(fs, path);
}

void SparePool::Clear(Fs& fs) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.clear();
    loaded_ = true;
  }
  (void)fs.RemoveTree(dir_);
}

void SparePool::DistrustFound() {
  std::lock_guard<std::mutex> lock(mu_);
  if (loaded_) {
    // What this process has seen is gone too: it may have been found on disk.
    ready_.clear();
    loaded_ = false;
  }
  distrust_found_ = true;
}

void SparePool::Trim(Fs& fs, size_t keep) {
  std::vector<Spare> gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    while (ready_.size() > keep) {
      gone.push_back(std::move(ready_.front()));
      ready_.pop_front();
    }
  }
  for (const Spare& s : gone) Drop(fs, s);
}

uint64_t SparePool::reused() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reused_;
}

uint64_t SparePool::made() const {
  std::lock_guard<std::mutex> lock(mu_);
  return made_;
}

uint64_t SparePool::retired() const {
  std::lock_guard<std::mutex> lock(mu_);
  return retired_;
}

size_t SparePool::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_.size();
}

}  // namespace folio::storage
