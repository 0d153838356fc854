// Changes kept in memory above a filesystem left as it is; see overlay_fs.h.
#include "storage/overlay_fs.h"

#include <chrono>
#include <cstring>
#include <mutex>
#include <system_error>

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
int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct OverlayFs::Node {
  enum class Kind { kFile, kDir, kAlias };
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
    node_->mtime_ns = NowNs();
    return OkStatus();
  }

 private:
  OverlayFs& fs_;
  std::shared_ptr<Node> node_;
  std::string path_;
  std::string buffer_;
  bool closed_ = false;
};

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
  auto node = std::make_shared<Node>();
  node->inode = next_inode_++;
  node->mtime_ns = NowNs();
  nodes_[path] = node;
  empty_ = false;
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
  nodes_.erase(it);
  nodes_[to] = std::move(node);
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
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::kDir;
  node->inode = next_inode_++;
  node->mtime_ns = NowNs();
  nodes_[path] = std::move(node);
  empty_ = false;
  return OkStatus();
}

Status OverlayFs::Remove(const std::string& path) {
  std::unique_lock lock(mu_);
  auto it = nodes_.find(path);
  if (it == nodes_.end()) {
    if (!lower_.IdentityStat(path).ok()) return Err("remove", path, std::errc::no_such_file_or_directory);
    return ReadOnlyBelow("remove", path);
  }
  nodes_.erase(it);
  return OkStatus();
}

Status OverlayFs::RemoveTree(const std::string& path) {
  std::unique_lock lock(mu_);
  auto it = nodes_.find(path);
  if (it == nodes_.end()) {
    if (!lower_.IdentityStat(path).ok()) return OkStatus();
    return ReadOnlyBelow("remove", path);
  }
  nodes_.erase(it);
  const std::string prefix = path + "/";
  for (auto c = nodes_.lower_bound(prefix); c != nodes_.end() && c->first.compare(0, prefix.size(), prefix) == 0;) {
    c = nodes_.erase(c);
  }
  return OkStatus();
}

Result<FileStat> OverlayFs::StatImpl(const std::string& path, bool identity) {
  if (!empty_) {
    std::shared_lock lock(mu_);
    if (const auto* n = FindLocked(path)) {
      if ((*n)->kind != Node::Kind::kAlias) return (*n)->StatOf();
      const std::string target = (*n)->target;
      lock.unlock();
      return identity ? lower_.IdentityStat(target) : lower_.Stat(target);
    }
  }
  return identity ? lower_.IdentityStat(path) : lower_.Stat(path);
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
    node = std::make_shared<Node>();
    node->kind = Node::Kind::kAlias;
    node->target = from;
  }
  nodes_[to] = std::move(node);
  empty_ = false;
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
