// Changes kept in memory above a filesystem left as it is; see overlay_fs.h.
#include "storage/overlay_fs.h"

#include <string>
#include <cstring>
#include <mutex>
#include <system_error>

#include "storage/change_set.h"
#include "storage/datetime.h"
#include "storage/layout.h"

namespace folio::storage {
namespace {

// The device of files held in memory: no real device has it, so an inode of the
// overlay never matches a file below.
constexpr uint64_t kOverlayDevice = 0x6f7665726c6179ull;  // "overlay"

Status Err(const std::string& what, const std::string& path, std::errc cause) {
  return StorageError("cannot " + what + " '" + path + "': " + std::make_error_code(cause).message(), cause);
}
Status ReadOnlyBelow(const std::string& what, const std::string& path) {
  return Err(what, path, std::errc::read_only_file_system);
}
std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}
// What one path and one node cost beyond their strings and bytes: the map's node, the
// Node, its shared_ptr control block and the string headers (rounded up).
constexpr uint64_t kPathOverhead = 96;
constexpr uint64_t kNodeOverhead = 160;

std::atomic<uint64_t> g_used{0};
std::atomic<uint64_t> g_limit{kOverlayMemoryLimit};

std::string SizeText(uint64_t bytes) {
  if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

struct OverlayFs::Node {
  enum class Kind { kFile, kDir, kAlias };
  // Counts itself against `owner`'s memory (set once its kind and target are).
  explicit Node(OverlayFs& o) : owner(o) {}
  ~Node() { owner.Charge(-static_cast<int64_t>(charged)); }
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  // Brings the count up to date with the bytes and target held now. Requires the
  // owner's mu_ (exclusive) once the node is in the map.
  void Recount() {
    const uint64_t now = kNodeOverhead + target.size() + bytes->size();
    owner.Charge(static_cast<int64_t>(now) - static_cast<int64_t>(charged));
    charged = now;
  }

  OverlayFs& owner;
  uint64_t charged = 0;
  Kind kind = Kind::kFile;
  std::shared_ptr<const std::string> bytes = std::make_shared<const std::string>();  // kFile
  std::string target;  // kAlias: the file below this is another name of
  uint64_t inode = 0;  // kFile, kDir
  int64_t mtime_ns = 0;

  FileStat StatOf() const {
    FileStat st;
    st.type = kind == Kind::kDir ? FileType::kDirectory : FileType::kFile;
    st.size = kind == Kind::kFile ? bytes->size() : 0;
    st.mtime_ns = mtime_ns;
    st.inode = inode;
    st.device = kOverlayDevice;
    return st;
  }
};

// A file held in memory, read from a snapshot of its bytes.
class OverlayFs::File : public ReadableFile {
 public:
  File(std::shared_ptr<const std::string> bytes, FileStat st) : bytes_(std::move(bytes)), st_(st) {}
  Result<size_t> Read(char* buf, size_t n) override {
    const size_t k = std::min(n, bytes_->size() - std::min(pos_, bytes_->size()));
    if (k > 0) std::memcpy(buf, bytes_->data() + pos_, k);
    pos_ += k;
    return k;
  }
  Status Seek(uint64_t offset) override {
    pos_ = offset;
    return OkStatus();
  }
  uint64_t size() const override { return bytes_->size(); }
  Result<FileStat> Stat() const override { return st_; }

 private:
  std::shared_ptr<const std::string> bytes_;
  FileStat st_;
  size_t pos_ = 0;
};

// Writes a file held in memory: its bytes are published at Close.
class OverlayFs::Writer : public WritableFile {
 public:
  Writer(OverlayFs& fs, std::shared_ptr<Node> node, std::string path)
      : fs_(fs), node_(std::move(node)), path_(std::move(path)) {}
  ~Writer() override { (void)Close(); }
  Status Append(std::string_view bytes) override {
    if (closed_) return StorageError("write to closed file '" + path_ + "'");
    buffer_.append(bytes);
    return OkStatus();
  }
  Status Sync() override { return OkStatus(); }
  Status Close() override {
    if (closed_) return OkStatus();
    closed_ = true;
    std::unique_lock lock(fs_.mu_);
    node_->bytes = std::make_shared<const std::string>(std::move(buffer_));
    node_->mtime_ns = WallNowNs();
    node_->Recount();
    return OkStatus();
  }

 private:
  OverlayFs& fs_;
  std::shared_ptr<Node> node_;
  std::string path_;
  std::string buffer_;
  bool closed_ = false;
};

OverlayFs::~OverlayFs() {
  std::unique_lock lock(mu_);
  while (!nodes_.empty()) EraseLocked(nodes_.begin());
}

void OverlayFs::Charge(int64_t delta) {
  used_.fetch_add(static_cast<uint64_t>(delta));  // wraps as a signed add would
  g_used.fetch_add(static_cast<uint64_t>(delta));
}

void OverlayFs::PutLocked(const std::string& path, std::shared_ptr<Node> node) {
  auto [it, inserted] = nodes_.try_emplace(path);
  if (inserted) {
    Charge(static_cast<int64_t>(kPathOverhead + path.size()));
    DirChangedLocked(ParentPath(path));
  }
  it->second = std::move(node);  // what was there goes (and uncounts itself) when unused
  empty_ = false;
}

void OverlayFs::EraseLocked(std::map<std::string, std::shared_ptr<Node>>::iterator it) {
  Charge(-static_cast<int64_t>(kPathOverhead + it->first.size()));
  DirChangedLocked(ParentPath(it->first));
  nodes_.erase(it);
}

void OverlayFs::DirChangedLocked(const std::string& dir) { ++dir_changes_[dir]; }

uint64_t OverlayFs::MemoryLimit() { return g_limit.load(); }
void OverlayFs::SetMemoryLimit(uint64_t bytes) { g_limit.store(bytes); }
uint64_t OverlayFs::MemoryUsedByAll() { return g_used.load(); }

uint64_t OverlayFs::CostOf(const ChangeSet& change) {
  uint64_t cost = 0;
  for (const Action& a : change.actions()) {
    switch (a.op) {
      case Action::Op::kPut:  // a temporary name, renamed onto the path
      case Action::Op::kCopy:
        cost += 2 * (kPathOverhead + a.path.size() + 32) + kNodeOverhead + a.bytes.size();
        break;
      case Action::Op::kMakeDir:
        cost += kPathOverhead + a.path.size() + kNodeOverhead;
        break;
      case Action::Op::kLink:
        cost += kPathOverhead + a.path.size() + kNodeOverhead + a.source.size();
        break;
      case Action::Op::kRename:
        cost += kPathOverhead + a.path.size();
        break;
      case Action::Op::kRemove:
        break;
    }
  }
  return cost;
}

Status OverlayFs::CheckRoom(uint64_t cost, const std::string& what) {
  const uint64_t used = g_used.load();
  const uint64_t limit = g_limit.load();
  if (used <= limit && cost <= limit - used) return OkStatus();
  return StorageError("read-only repository '" + what + "': adopting in memory what was added by hand would need " +
                          std::to_string(cost) + " bytes more than the " + SizeText(limit) +
                          " that a read-only process keeps for all its repositories (" + SizeText(used) +
                          " held); a writable folio serve, or folio fsck --repair, adopts it on disk once",
                      std::errc::not_enough_memory);
}

const std::shared_ptr<OverlayFs::Node>* OverlayFs::FindLocked(const std::string& path) const {
  auto it = nodes_.find(path);
  return it == nodes_.end() ? nullptr : &it->second;
}

bool OverlayFs::ExistsLocked(const std::string& path) {
  if (FindLocked(path) != nullptr) return true;
  auto st = lower_.IdentityStat(path);
  return st.ok();
}

Status OverlayFs::RequireParentLocked(const std::string& path) {
  const std::string parent = Parent(path);
  if (const auto* n = FindLocked(parent)) {
    if ((*n)->kind == Node::Kind::kDir) return OkStatus();
    return Err("create", path, std::errc::not_a_directory);
  }
  auto st = lower_.Stat(parent);
  if (!st.ok()) return st.status();
  if (st->type != FileType::kDirectory) return Err("create", path, std::errc::not_a_directory);
  return OkStatus();
}

size_t OverlayFs::size() const {
  std::shared_lock lock(mu_);
  return nodes_.size();
}

Result<std::unique_ptr<ReadableFile>> OverlayFs::Open(const std::string& path) {
  if (!empty_) {
    std::shared_lock lock(mu_);
    if (const auto* n = FindLocked(path)) {
      const Node& node = **n;
      if (node.kind == Node::Kind::kDir) return Err("open", path, std::errc::is_a_directory);
      if (node.kind == Node::Kind::kFile) {
        return std::unique_ptr<ReadableFile>(new File(node.bytes, node.StatOf()));
      }
      const std::string target = node.target;
      lock.unlock();
      return lower_.Open(target);
    }
  }
  return lower_.Open(path);
}

Result<std::unique_ptr<Directory>> OverlayFs::OpenDirectory(const std::string& path) {
  if (empty_) return lower_.OpenDirectory(path);
  return Fs::OpenDirectory(path);  // every file read through Open: the overlay first
}

Result<std::unique_ptr<WritableFile>> OverlayFs::CreateNew(const std::string& path) {
  std::unique_lock lock(mu_);
  if (ExistsLocked(path)) return Err("create", path, std::errc::file_exists);
  FOLIO_RETURN_IF_ERROR(RequireParentLocked(path));
  auto node = std::make_shared<Node>(*this);
  node->inode = next_inode_++;
  node->mtime_ns = WallNowNs();
  node->Recount();
  PutLocked(path, node);
  return std::unique_ptr<WritableFile>(new Writer(*this, std::move(node), path));
}

Status OverlayFs::RenameImpl(const std::string& from, const std::string& to, bool replace) {
  std::unique_lock lock(mu_);
  auto it = nodes_.find(from);
  if (it == nodes_.end()) {
    if (!lower_.IdentityStat(from).ok()) return Err("rename", from, std::errc::no_such_file_or_directory);
    return ReadOnlyBelow("rename", from);
  }
  if (it->second->kind == Node::Kind::kDir) return ReadOnlyBelow("rename", from);
  if (!replace && ExistsLocked(to)) return Err("rename to", to, std::errc::file_exists);
  // A file below under `to` is shadowed, not changed.
  FOLIO_RETURN_IF_ERROR(RequireParentLocked(to));
  std::shared_ptr<Node> node = std::move(it->second);
  EraseLocked(it);
  PutLocked(to, std::move(node));
  return OkStatus();
}

Status OverlayFs::Rename(const std::string& from, const std::string& to) { return RenameImpl(from, to, true); }
Status OverlayFs::RenameNoReplace(const std::string& from, const std::string& to) {
  return RenameImpl(from, to, false);
}

Result<std::vector<DirEntry>> OverlayFs::List(const std::string& dir) {
  if (empty_) return lower_.List(dir);
  std::shared_lock lock(mu_);
  const auto* self = FindLocked(dir);
  std::vector<DirEntry> out;
  if (self == nullptr) {
    FOLIO_ASSIGN_OR_RETURN(out, lower_.List(dir));
  } else if ((*self)->kind != Node::Kind::kDir) {
    return Err("list", dir, std::errc::not_a_directory);
  }
  const std::string prefix = dir.empty() ? std::string() : dir + "/";
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
       ++it) {
    const std::string name = it->first.substr(prefix.size());
    if (name.empty() || name.find('/') != std::string::npos) continue;
    const FileType type = it->second->kind == Node::Kind::kDir ? FileType::kDirectory : FileType::kFile;
    bool replaced = false;
    for (DirEntry& e : out) {
      if (e.name == name) {
        e.type = type;
        replaced = true;
      }
    }
    if (!replaced) out.push_back(DirEntry{name, type});
  }
  return out;
}

Status OverlayFs::MakeDir(const std::string& path) {
  std::unique_lock lock(mu_);
  if (ExistsLocked(path)) return Err("create directory", path, std::errc::file_exists);
  FOLIO_RETURN_IF_ERROR(RequireParentLocked(path));
  auto node = std::make_shared<Node>(*this);
  node->kind = Node::Kind::kDir;
  node->inode = next_inode_++;
  node->mtime_ns = WallNowNs();
  node->Recount();
  PutLocked(path, std::move(node));
  return OkStatus();
}

Status OverlayFs::Remove(const std::string& path) {
  std::unique_lock lock(mu_);
  auto it = nodes_.find(path);
  if (it == nodes_.end()) {
    if (!lower_.IdentityStat(path).ok()) return Err("remove", path, std::errc::no_such_file_or_directory);
    return ReadOnlyBelow("remove", path);
  }
  EraseLocked(it);
  return OkStatus();
}

Status OverlayFs::RemoveTree(const std::string& path) {
  std::unique_lock lock(mu_);
  auto it = nodes_.find(path);
  if (it == nodes_.end()) {
    if (!lower_.IdentityStat(path).ok()) return OkStatus();
    return ReadOnlyBelow("remove", path);
  }
  EraseLocked(it);
  const std::string prefix = path + "/";
  for (auto c = nodes_.lower_bound(prefix); c != nodes_.end() && c->first.compare(0, prefix.size(), prefix) == 0;) {
    EraseLocked(c++);
  }
  return OkStatus();
}

Result<FileStat> OverlayFs::StatImpl(const std::string& path, bool identity) {
  uint64_t changes = 0;  // of the entries of `path`, a directory
  if (!empty_) {
    std::shared_lock lock(mu_);
    if (auto c = dir_changes_.find(path); c != dir_changes_.end()) changes = c->second;
    if (const auto* n = FindLocked(path)) {
      if ((*n)->kind != Node::Kind::kAlias) {
        FileStat st = (*n)->StatOf();
        st.mtime_ns += static_cast<int64_t>(changes);
        return st;
      }
      const std::string target = (*n)->target;
      lock.unlock();
      return identity ? lower_.IdentityStat(target) : lower_.Stat(target);
    }
  }
  auto st = identity ? lower_.IdentityStat(path) : lower_.Stat(path);
  if (st.ok() && changes != 0) st->mtime_ns += static_cast<int64_t>(changes);
  return st;
}

Result<FileStat> OverlayFs::Stat(const std::string& path) { return StatImpl(path, false); }
Result<FileStat> OverlayFs::IdentityStat(const std::string& path) { return StatImpl(path, true); }

Status OverlayFs::Link(const std::string& from, const std::string& to) {
  std::unique_lock lock(mu_);
  if (ExistsLocked(to)) return Err("link to", to, std::errc::file_exists);
  FOLIO_RETURN_IF_ERROR(RequireParentLocked(to));
  std::shared_ptr<Node> node;
  if (const auto* n = FindLocked(from)) {
    if ((*n)->kind == Node::Kind::kDir) return Err("link", from, std::errc::operation_not_permitted);
    node = *n;  // the same file under two names, as a hard link is
  } else {
    FOLIO_ASSIGN_OR_RETURN(FileStat st, lower_.Stat(from));
    if (st.type != FileType::kFile) return Err("link", from, std::errc::operation_not_permitted);
    node = std::make_shared<Node>(*this);
    node->kind = Node::Kind::kAlias;
    node->target = from;
    node->Recount();
  }
  PutLocked(to, std::move(node));
  return OkStatus();
}

Result<std::unique_ptr<RandomAccessFile>> OverlayFs::OpenRandomAccess(const std::string& path) {
  if (!empty_) {
    std::shared_lock lock(mu_);
    if (FindLocked(path) != nullptr) return ReadOnlyBelow("open for writing", path);
  }
  return lower_.OpenRandomAccess(path);
}

}  // namespace folio::storage
