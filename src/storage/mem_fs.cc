// MemFs: every Fs call on the inode table of mem_fs_core.h, with the errors and causes
// PosixFs gives for the same call (posix_fs.cc: which path a message names follows the
// system calls PosixFs makes).
#include "storage/mem_fs.h"

#include <algorithm>

#include "storage/mem_fs_core.h"
#include "storage/mem_fs_files.h"

namespace folio::storage {
namespace {

using mem::Child;
using mem::Core;
using mem::Errno;
using mem::Inode;
using mem::kRootInode;
using mem::Op;
using mem::StatOf;

// The segments of a valid path: relative, '/'-separated, none empty, '.' or '..',
// no NUL. "" (the root) has none.
Result<std::vector<std::string>> Segments(const std::string& path) {
  std::vector<std::string> out;
  if (path.empty()) return out;
  if (path.find('\0') != std::string::npos) return InvalidArgument("path contains NUL");
  size_t start = 0;
  for (;;) {
    const size_t slash = path.find('/', start);
    std::string seg = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (seg.empty() || seg == "." || seg == "..") return InvalidArgument("invalid storage path '" + path + "'");
    out.push_back(std::move(seg));
    if (slash == std::string::npos) return out;
    start = slash + 1;
  }
}

std::string Joined(const std::vector<std::string>& segs, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += (i == 0 ? "" : "/") + segs[i];
  return out;
}

// Where a path leads: the directory holding its final name and what that name is.
struct Where {
  int err = 0;          // ENOENT, ENOTDIR or ELOOP met before the final name
  uint64_t parent = 0;  // the directory holding the final name (0 for the root)
  std::string name;     // the final name ("" for the root)
  uint64_t ino = 0;     // the inode it names; 0 if none
};

// Resolves every segment but the last as a directory, never through a symlink (as
// openat2 with RESOLVE_NO_SYMLINKS does).
Where Resolve(const Core& core, const std::vector<std::string>& segs) {
  Where w;
  if (segs.empty()) {
    w.ino = kRootInode;
    return w;
  }
  uint64_t dir = kRootInode;
  for (size_t i = 0; i + 1 < segs.size(); ++i) {
    const Inode& d = *core.live.Find(dir);
    auto it = d.entries.find(segs[i]);
    if (it == d.entries.end()) {
      w.err = ENOENT;
      return w;
    }
    const Inode& child = *core.live.Find(it->second);
    if (child.type == FileType::kSymlink) w.err = ELOOP;
    else if (child.type != FileType::kDirectory) w.err = ENOTDIR;
    if (w.err != 0) return w;
    dir = it->second;
  }
  w.parent = dir;
  w.name = segs.back();
  const Inode& d = *core.live.Find(dir);
  if (auto it = d.entries.find(w.name); it != d.entries.end()) w.ino = it->second;
  return w;
}

// How PosixFs opens a directory: O_PATH (OpenDirectory, the parent of a name) refuses
// a final symlink with ELOOP (RESOLVE_NO_SYMLINKS); O_RDONLY | O_NOFOLLOW (SyncDir,
// List) opens the symlink itself, which O_DIRECTORY then refuses with ENOTDIR.
enum class DirOpen { kPath, kRead };

// The directory at the first `n` segments, as PosixFs opens one: errors name that
// path with the verb "open".
Result<uint64_t> DirAt(const Core& core, const std::vector<std::string>& segs, size_t n,
                       DirOpen how = DirOpen::kPath) {
  const std::vector<std::string> head(segs.begin(), segs.begin() + static_cast<std::ptrdiff_t>(n));
  const Where w = Resolve(core, head);
  int err = w.err;
  if (err == 0 && w.ino == 0) err = ENOENT;
  if (err == 0) {
    const FileType type = core.live.Find(w.ino)->type;
    if (type == FileType::kSymlink && how == DirOpen::kPath) err = ELOOP;
    else if (type != FileType::kDirectory) err = ENOTDIR;
  }
  if (err != 0) return Errno("open", Joined(segs, n), err);
  return w.ino;
}

Result<uint64_t> ParentOf(const Core& core, const std::vector<std::string>& segs) {
  return DirAt(core, segs, segs.size() - 1);
}

// The two names of Rename, Exchange and Link: split (neither may be the root:
// InvalidArgument naming `verb`), both parents opened as PosixFs opens them (first
// `from`'s), and what each name refers to (0: nothing). Requires core.mu.
struct TwoNames {
  std::vector<std::string> a, b;  // the segments of `from` and `to`
  std::string shown;              // "<from>' to '<to>", for errors
  uint64_t from_dir = 0, to_dir = 0, src = 0, dst = 0;
};

Result<TwoNames> ResolveTwo(const Core& core, const std::string& from, const std::string& to, const char* verb) {
  TwoNames n;
  FOLIO_ASSIGN_OR_RETURN(n.a, Segments(from));
  FOLIO_ASSIGN_OR_RETURN(n.b, Segments(to));
  if (n.a.empty() || n.b.empty()) return InvalidArgument(std::string("cannot ") + verb + " the data directory itself");
  n.shown = from + "' to '" + to;
  FOLIO_ASSIGN_OR_RETURN(n.from_dir, ParentOf(core, n.a));
  FOLIO_ASSIGN_OR_RETURN(n.to_dir, ParentOf(core, n.b));
  n.src = Child(core, n.from_dir, n.a.back());
  n.dst = Child(core, n.to_dir, n.b.back());
  return n;
}

Op MakeOp(Op::Kind kind, uint64_t dir, std::string name) {
  Op op;
  op.kind = kind;
  op.dir = dir;
  op.name = std::move(name);
  return op;
}

// An open file, directory or lock: keeps its inode alive, dies with a power loss.

}  // namespace

MemFs::MemFs() : core_(std::make_shared<mem::Core>()) {}
MemFs::MemFs(std::shared_ptr<mem::Core> core) : core_(std::move(core)) {}
MemFs::~MemFs() = default;
MemFs::MemFs(MemFs&&) noexcept = default;
MemFs& MemFs::operator=(MemFs&&) noexcept = default;

MemFs MemFs::Clone() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return MemFs(std::make_shared<mem::Core>(*core_));
}

Result<std::unique_ptr<ReadableFile>> MemFs::Open(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::lock_guard<std::mutex> lock(core_->mu);
  const Where w = Resolve(*core_, segs);
  if (w.err != 0) return Errno("open", path, w.err);
  if (w.ino == 0) return Errno("open", path, ENOENT);
  const Inode& inode = *core_->live.Find(w.ino);
  switch (inode.type) {
    case FileType::kFile: break;
    case FileType::kSymlink: return Errno("open", path, ELOOP);
    case FileType::kDirectory: return Errno("open", path, EISDIR);
    case FileType::kOther: return Errno("open", path, EINVAL);
  }
  return mem::NewReadableFile(core_, w.ino, path);
}

Result<std::unique_ptr<Directory>> MemFs::OpenDirectory(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, DirAt(*core_, segs, segs.size()));
  return mem::NewDirectory(core_, ino, path);
}

Result<std::unique_ptr<WritableFile>> MemFs::CreateNew(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::lock_guard<std::mutex> lock(core_->mu);
  const Where w = Resolve(*core_, segs);
  if (w.err != 0) return Errno(w.err == ELOOP ? "open" : "create", path, w.err);
  if (w.ino != 0) return Errno("create", path, EEXIST);
  Op op = MakeOp(Op::Kind::kCreate, w.parent, w.name);
  op.ino = core_->NewInode();
  const uint64_t ino = op.ino;
  core_->Do(std::move(op));
  return mem::NewWritableFile(core_, ino, path);
}

Result<std::unique_ptr<WritableFile>> MemFs::OpenToRewrite(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::lock_guard<std::mutex> lock(core_->mu);
  const Where w = Resolve(*core_, segs);
  if (w.err != 0) return Errno("open", path, w.err);
  if (w.ino == 0) return Errno("open", path, ENOENT);
  switch (core_->live.Find(w.ino)->type) {
    case FileType::kFile: break;
    case FileType::kSymlink: return Errno("open", path, ELOOP);
    case FileType::kDirectory: return Errno("open", path, EISDIR);
    case FileType::kOther: return Errno("open", path, EINVAL);
  }
  return mem::NewWritableFile(core_, w.ino, path);
}

Status MemFs::Rename(const std::string& from, const std::string& to) { return RenameImpl(from, to, false); }

Status MemFs::Exchange(const std::string& a_path, const std::string& b_path) {
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(const TwoNames n, ResolveTwo(*core_, a_path, b_path, "exchange"));
  const std::vector<std::string>& a = n.a;
  const std::vector<std::string>& b = n.b;
  const std::string& shown = n.shown;
  if (n.src == 0 || n.dst == 0) return Errno("exchange", shown, ENOENT);
  // Neither may end up below itself (renameat2 says EINVAL).
  const auto below = [](const std::vector<std::string>& x, const std::vector<std::string>& y) {
    return y.size() > x.size() && std::equal(x.begin(), x.end(), y.begin());
  };
  if (below(a, b) || below(b, a)) return Errno("exchange", shown, EINVAL);
  if (n.src == n.dst) return OkStatus();
  Op op = MakeOp(Op::Kind::kExchange, n.from_dir, a.back());
  op.dir2 = n.to_dir;
  op.name2 = b.back();
  core_->Do(std::move(op));
  return OkStatus();
}

Status MemFs::RenameNoReplace(const std::string& from, const std::string& to) {
  return RenameImpl(from, to, true);
}

Status MemFs::RenameImpl(const std::string& from, const std::string& to, bool no_replace) {
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(const TwoNames n, ResolveTwo(*core_, from, to, "rename"));
  const std::vector<std::string>& a = n.a;
  const std::vector<std::string>& b = n.b;
  const std::string& shown = n.shown;
  if (n.src == 0) return Errno("rename", shown, ENOENT);
  const bool src_dir = core_->live.Find(n.src)->type == FileType::kDirectory;
  // A directory cannot move below itself; `to` above `from` is a non-empty directory.
  if (src_dir && b.size() > a.size() && std::equal(a.begin(), a.end(), b.begin())) {
    return Errno("rename", shown, EINVAL);
  }
  if (n.dst != 0) {
    if (no_replace) return Errno("rename", shown, EEXIST);
    if (n.dst == n.src) return OkStatus();  // two names of one inode: nothing happens
    const Inode& target = *core_->live.Find(n.dst);
    const bool dst_dir = target.type == FileType::kDirectory;
    if (src_dir && !dst_dir) return Errno("rename", shown, ENOTDIR);
    if (!src_dir && dst_dir) return Errno("rename", shown, EISDIR);
    if (dst_dir && !target.entries.empty()) return Errno("rename", shown, ENOTEMPTY);
  }
  Op op = MakeOp(Op::Kind::kRename, n.from_dir, a.back());
  op.dir2 = n.to_dir;
  op.name2 = b.back();
  core_->Do(std::move(op));
  return OkStatus();
}

Status MemFs::SyncDir(const std::string& dir) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(dir));
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, DirAt(*core_, segs, segs.size(), DirOpen::kRead));
  core_->SyncDir(ino);
  return OkStatus();
}

Result<std::vector<DirEntry>> MemFs::List(const std::string& dir) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(dir));
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, DirAt(*core_, segs, segs.size(), DirOpen::kRead));
  std::vector<DirEntry> out;
  for (const auto& [name, child] : core_->live.Find(ino)->entries) {
    out.push_back(DirEntry{name, core_->live.Find(child)->type});
  }
  return out;
}

Status MemFs::MakeDir(const std::string& path) { return MakeNode(path, FileType::kDirectory, ""); }

Status MemFs::MakeSymlinkForTest(const std::string& path, const std::string& target) {
  return MakeNode(path, FileType::kSymlink, target);
}

Status MemFs::MakeSpecialFileForTest(const std::string& path) { return MakeNode(path, FileType::kOther, ""); }

Status MemFs::MakeNode(const std::string& path, FileType type, const std::string& bytes) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  const std::string what = type == FileType::kDirectory ? "create directory" : "create";
  if (segs.empty()) return Errno(what, path, EEXIST);
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t parent, ParentOf(*core_, segs));
  if (Child(*core_, parent, segs.back()) != 0) return Errno(what, path, EEXIST);
  Op op = MakeOp(Op::Kind::kCreate, parent, segs.back());
  op.ino = core_->NewInode();
  op.type = type;
  op.bytes = bytes;
  core_->Do(std::move(op));
  return OkStatus();
}

Status MemFs::Remove(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  if (segs.empty()) return InvalidArgument("cannot remove the data directory itself");
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t parent, ParentOf(*core_, segs));
  const uint64_t ino = Child(*core_, parent, segs.back());
  if (ino == 0) return Errno("remove", path, ENOENT);
  const Inode& inode = *core_->live.Find(ino);
  if (inode.type == FileType::kDirectory && !inode.entries.empty()) return Errno("remove", path, ENOTEMPTY);
  core_->Do(MakeOp(Op::Kind::kUnlink, parent, segs.back()));
  return OkStatus();
}

Status MemFs::RemoveTree(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  if (segs.empty()) return InvalidArgument("cannot remove the data directory itself");
  std::lock_guard<std::mutex> lock(core_->mu);
  auto parent = ParentOf(*core_, segs);
  if (!parent.ok()) {
    return parent.status().Is(std::errc::no_such_file_or_directory) ? OkStatus() : parent.status();
  }
  RemoveTreeAt(*parent, segs.back());
  return OkStatus();
}

// Requires core_->mu held. One change per name removed, children first (as PosixFs
// removes them, one system call each).
void MemFs::RemoveTreeAt(uint64_t dir, const std::string& name) {
  const uint64_t ino = Child(*core_, dir, name);
  if (ino == 0) return;
  const Inode& inode = *core_->live.Find(ino);
  if (inode.type == FileType::kDirectory) {
    std::vector<std::string> children;
    for (const auto& [child, unused] : inode.entries) children.push_back(child);
    for (const std::string& child : children) RemoveTreeAt(ino, child);
  }
  core_->Do(MakeOp(Op::Kind::kUnlink, dir, name));
}

Result<FileStat> MemFs::Stat(const std::string& path) {
  // Resolved and read under one lock: another thread may unlink it in between otherwise.
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, StatTargetLocked(path));
  return StatOf(*core_, ino);
}

Result<uint32_t> MemFs::LinkCount(const std::string& path) {
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, StatTargetLocked(path));
  return core_->live.Find(ino)->links;
}

Result<uint64_t> MemFs::StatTargetLocked(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  if (segs.empty()) return kRootInode;
  FOLIO_ASSIGN_OR_RETURN(uint64_t parent, ParentOf(*core_, segs));
  const uint64_t ino = Child(*core_, parent, segs.back());
  if (ino == 0) return Errno("stat", path, ENOENT);
  return ino;
}

Result<FileStat> MemFs::IdentityStat(const std::string& path) { return Stat(path); }

Result<std::unique_ptr<FileLock>> MemFs::Lock(const std::string& path, LockMode mode) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::unique_lock<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, OpenOrCreate(segs, path));
  return mem::LockInode(core_, ino, path, mode, lock);
}

// Requires core_->mu held. As PosixFs opens with O_RDWR | O_CREAT: creates a missing
// file; a directory is EISDIR, a symlink ELOOP. A special file is opened.
Result<uint64_t> MemFs::OpenOrCreate(const std::vector<std::string>& segs, const std::string& path) {
  const Where w = Resolve(*core_, segs);
  if (w.err != 0) return Errno(w.err == ELOOP ? "open" : "create", path, w.err);
  if (w.ino == 0) {
    Op op = MakeOp(Op::Kind::kCreate, w.parent, w.name);
    op.ino = core_->NewInode();
    const uint64_t ino = op.ino;
    core_->Do(std::move(op));
    return ino;
  }
  const FileType type = core_->live.Find(w.ino)->type;
  if (type == FileType::kDirectory) return Errno("create", path, EISDIR);
  if (type == FileType::kSymlink) return Errno("open", path, ELOOP);
  return w.ino;
}

Status MemFs::Link(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(const TwoNames n, ResolveTwo(*core_, from, to, "link"));
  const std::string& shown = n.shown;
  if (n.src == 0) return Errno("link", shown, ENOENT);
  if (n.dst != 0) return Errno("link", shown, EEXIST);
  if (core_->live.Find(n.src)->type == FileType::kDirectory) return Errno("link", shown, EPERM);
  Op op = MakeOp(Op::Kind::kLink, n.to_dir, n.b.back());
  op.ino = n.src;
  core_->Do(std::move(op));
  return OkStatus();
}

Result<std::unique_ptr<RandomAccessFile>> MemFs::OpenRandomAccess(const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(auto segs, Segments(path));
  std::lock_guard<std::mutex> lock(core_->mu);
  FOLIO_ASSIGN_OR_RETURN(uint64_t ino, OpenOrCreate(segs, path));
  if (core_->live.Find(ino)->type != FileType::kFile) return Errno("open", path, EINVAL);
  return mem::NewRandomAccessFile(core_, ino, path);
}

Status MemFs::SyncAll() {
  std::lock_guard<std::mutex> lock(core_->mu);
  core_->SyncAll();
  return OkStatus();
}

std::string MemFs::BootId() {
  std::lock_guard<std::mutex> lock(core_->mu);
  return "memfs-boot-" + std::to_string(core_->boot);
}

std::string MemFs::Describe(const std::string& path) const { return "memfs:/" + path; }

size_t MemFs::LockWaitersForTest() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->lock_waiters;
}

void MemFs::DropUnsynced() {
  std::lock_guard<std::mutex> lock(core_->mu);
  core_->DropUnsynced();
}

size_t MemFs::OpsSinceBarrier() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->OpsSinceBarrier();
}

void MemFs::KeepPrefix(size_t n) {
  std::lock_guard<std::mutex> lock(core_->mu);
  core_->KeepPrefix(n);
}

void MemFs::LosePower(PowerLoss model, size_t keep) {
  if (model == PowerLoss::kDropUnsynced) {
    DropUnsynced();
  } else {
    KeepPrefix(keep);
  }
}

}  // namespace folio::storage
