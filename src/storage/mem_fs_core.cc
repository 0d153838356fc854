// MemFs state: recording changes, syncs and the two power loss models; see
// mem_fs_core.h and mem_fs.h.
#include "storage/mem_fs_core.h"

#include <deque>
#include <set>

namespace folio::storage::mem {
namespace {

// What a sync makes durable of `inode`: its bytes or its entries, and its mtime.
Inode Record(const Inode& inode) {
  Inode out;
  out.type = inode.type;
  out.data = inode.data;
  out.entries = inode.entries;
  out.mtime_ns = inode.mtime_ns;
  return out;
}

// The durable record of an inode never synced itself: a file with no bytes, a
// directory with no entries. A symlink's target and a special file are written when
// they are made, so they survive as made.
Inode Blank(const Inode& inode) {
  Inode out;
  out.type = inode.type;
  out.mtime_ns = inode.mtime_ns;
  if (inode.type == FileType::kSymlink || inode.type == FileType::kOther) out.data = inode.data;
  return out;
}

}  // namespace

Core::Core() {
  Inode root;
  root.type = FileType::kDirectory;
  root.links = 1;
  root.mtime_ns = clock_ns_;
  live.inodes[kRootInode] = root;
  barrier_ = live;
  DurableFromLive();
}

Core::Core(const Core& other)
    : live(other.live),
      boot(other.boot),
      barrier_(other.barrier_),
      log_(other.log_),
      durable_(other.durable_),
      durable_refs_(other.durable_refs_),
      next_ino_(other.next_ino_),
      clock_ns_(other.clock_ns_) {
  // Inodes only the source's open handles kept alive have no name here.
  std::vector<uint64_t> unlinked;
  for (const auto& [ino, inode] : live.inodes) {
    if (inode.links == 0 && ino != kRootInode) unlinked.push_back(ino);
  }
  for (uint64_t ino : unlinked) ReleaseIfDead(ino);
}

void Core::Do(Op op) {
  op.time_ns = Tick();
  // The inode this change may leave without a name.
  uint64_t victim = 0;
  if (op.kind == Op::Kind::kUnlink || op.kind == Op::Kind::kRename) {
    const Inode* dir = live.Find(op.kind == Op::Kind::kUnlink ? op.dir : op.dir2);
    const std::string& name = op.kind == Op::Kind::kUnlink ? op.name : op.name2;
    if (dir != nullptr) {
      auto it = dir->entries.find(name);
      if (it != dir->entries.end()) victim = it->second;
    }
  }
  Apply(live, op);
  log_.push_back(std::move(op));
  if (victim != 0) ReleaseIfDead(victim);
}

void Core::ReleaseIfDead(uint64_t ino) {
  const Inode* inode = live.Find(ino);
  if (inode == nullptr || inode->links > 0 || ino == kRootInode) return;
  if (auto it = open_.find(ino); it != open_.end() && it->second > 0) return;
  live.inodes.erase(ino);
  if (durable_refs_.count(ino) == 0) EraseDurable(ino);
}

void Core::CloseHandle(uint64_t ino) {
  auto it = open_.find(ino);
  if (it == open_.end()) return;
  if (--it->second == 0) open_.erase(it);
  ReleaseIfDead(ino);
}

void Core::ForgetLockIfFree(uint64_t ino) {
  auto it = locks_.find(ino);
  if (it != locks_.end() && !it->second.exclusive && it->second.shared == 0) locks_.erase(it);
}

void Core::SetDurable(uint64_t ino, Inode record) {
  // Count the new names first, so that an inode named before and after is kept.
  for (const auto& [name, child] : record.entries) {
    ++durable_refs_[child];
    if (durable_.count(child) == 0) {
      if (const Inode* c = live.Find(child)) durable_[child] = Blank(*c);
    }
  }
  std::map<std::string, uint64_t> old;
  if (auto it = durable_.find(ino); it != durable_.end()) old = std::move(it->second.entries);
  durable_[ino] = std::move(record);
  for (const auto& [name, child] : old) DropDurableRef(child);
}

void Core::DropDurableRef(uint64_t child) {
  auto ref = durable_refs_.find(child);
  if (ref == durable_refs_.end()) return;
  if (--ref->second == 0) {
    durable_refs_.erase(ref);
    if (live.Find(child) == nullptr) EraseDurable(child);
  }
}

void Core::EraseDurable(uint64_t ino) {
  auto it = durable_.find(ino);
  if (it == durable_.end()) return;
  const std::map<std::string, uint64_t> entries = std::move(it->second.entries);
  durable_.erase(it);
  for (const auto& [name, child] : entries) DropDurableRef(child);
}

void Core::DurableFromLive() {
  durable_.clear();
  durable_refs_.clear();
  for (const auto& [ino, inode] : live.inodes) {
    if (inode.links == 0 && ino != kRootInode) continue;  // open but unlinked: unreachable
    durable_[ino] = Record(inode);
    for (const auto& [name, child] : inode.entries) ++durable_refs_[child];
  }
}

void Core::Barrier() {
  for (const Op& op : log_) Apply(barrier_, op);
  log_.clear();
  barrier_.DropUnlinked([](uint64_t) { return false; });
}

void Core::SyncFile(uint64_t ino) {
  if (const Inode* inode = live.Find(ino)) {
    Inode record = Record(*inode);
    record.entries.clear();
    SetDurable(ino, std::move(record));
  }
  Barrier();
}

void Core::SyncDir(uint64_t ino) {
  if (const Inode* inode = live.Find(ino)) SetDurable(ino, Record(*inode));
  Barrier();
}

void Core::SyncAll() {
  DurableFromLive();
  Barrier();
}

void Core::DropUnsynced() {
  // Walk the durable names from the root, breadth first, names in byte order.
  Tree survivors;
  std::set<uint64_t> seen{kRootInode};
  std::deque<uint64_t> queue{kRootInode};
  while (!queue.empty()) {
    const uint64_t ino = queue.front();
    queue.pop_front();
    // Only the root can lack a record: every durable name has one (SetDurable).
    auto rec = durable_.find(ino);
    Inode inode;
    inode.type = FileType::kDirectory;
    if (rec != durable_.end()) inode = rec->second;
    for (auto it = inode.entries.begin(); it != inode.entries.end();) {
      const uint64_t child = it->second;
      auto child_rec = durable_.find(child);
      const bool is_dir = child_rec != durable_.end() && child_rec->second.type == FileType::kDirectory;
      if (child_rec == durable_.end() || (is_dir && seen.count(child) > 0)) {
        it = inode.entries.erase(it);  // see the class comment of MemFs
        continue;
      }
      if (seen.insert(child).second) queue.push_back(child);
      ++it;
    }
    inode.links = 0;
    survivors.inodes[ino] = std::move(inode);
  }
  for (auto& [ino, inode] : survivors.inodes) {
    for (const auto& [name, child] : inode.entries) ++survivors.inodes[child].links;
  }
  survivors.inodes[kRootInode].links = 1;
  Restart(std::move(survivors));
}

void Core::KeepPrefix(size_t n) {
  Tree survivors = barrier_;
  for (size_t i = 0; i < n && i < log_.size(); ++i) Apply(survivors, log_[i]);
  survivors.DropUnlinked([](uint64_t) { return false; });
  Restart(std::move(survivors));
}

void Core::Restart(Tree survivors) {
  live = std::move(survivors);
  barrier_ = live;
  log_.clear();
  DurableFromLive();
  open_.clear();
  locks_.clear();
  ++boot;
  lock_released.notify_all();
}

}  // namespace folio::storage::mem
