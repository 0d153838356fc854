// Applying MemFs operations to an inode table; see mem_fs_tree.h.
#include "storage/mem_fs_tree.h"

namespace folio::storage::mem {

Inode* Tree::Find(uint64_t ino) {
  auto it = inodes.find(ino);
  return it == inodes.end() ? nullptr : &it->second;
}

const Inode* Tree::Find(uint64_t ino) const {
  auto it = inodes.find(ino);
  return it == inodes.end() ? nullptr : &it->second;
}

namespace {

// Removes dir/name (if present), counting the link away.
void Unlink(Tree& tree, Inode& dir, const std::string& name) {
  auto it = dir.entries.find(name);
  if (it == dir.entries.end()) return;
  if (Inode* child = tree.Find(it->second); child != nullptr && child->links > 0) --child->links;
  dir.entries.erase(it);
}

}  // namespace

void Apply(Tree& tree, const Op& op) {
  switch (op.kind) {
    case Op::Kind::kCreate: {
      Inode* dir = tree.Find(op.dir);
      if (dir == nullptr) return;
      Inode& made = tree.inodes[op.ino];
      made.type = op.type;
      made.data = op.bytes;
      made.mtime_ns = op.time_ns;
      made.links = 1;
      dir->entries[op.name] = op.ino;
      dir->mtime_ns = op.time_ns;
      return;
    }
    case Op::Kind::kWrite: {
      Inode* file = tree.Find(op.ino);
      if (file == nullptr) return;
      const size_t end = static_cast<size_t>(op.offset) + op.bytes.size();
      if (file->data.size() < end) file->data.resize(end, '\0');
      file->data.replace(static_cast<size_t>(op.offset), op.bytes.size(), op.bytes);
      file->mtime_ns = op.time_ns;
      return;
    }
    case Op::Kind::kLink: {
      Inode* dir = tree.Find(op.dir);
      Inode* file = tree.Find(op.ino);
      if (dir == nullptr || file == nullptr) return;
      dir->entries[op.name] = op.ino;
      ++file->links;
      dir->mtime_ns = op.time_ns;
      return;
    }
    case Op::Kind::kUnlink: {
      Inode* dir = tree.Find(op.dir);
      if (dir == nullptr) return;
      Unlink(tree, *dir, op.name);
      dir->mtime_ns = op.time_ns;
      return;
    }
    case Op::Kind::kRename: {
      Inode* from = tree.Find(op.dir);
      Inode* to = tree.Find(op.dir2);
      if (from == nullptr || to == nullptr) return;
      auto it = from->entries.find(op.name);
      if (it == from->entries.end()) return;
      const uint64_t moved = it->second;
      auto target = to->entries.find(op.name2);
      // Two names of one inode: rename(2) does nothing and both names stay.
      if (target != to->entries.end() && target->second == moved) return;
      if (target != to->entries.end()) Unlink(tree, *to, op.name2);
      from->entries.erase(op.name);
      to->entries[op.name2] = moved;
      from->mtime_ns = op.time_ns;
      to->mtime_ns = op.time_ns;
      return;
    }
  }
}

}  // namespace folio::storage::mem
