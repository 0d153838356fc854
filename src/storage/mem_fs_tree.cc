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
void Unlink(Tree& tree, Inode& dir, const std::string& name, int64_t time_ns) {
  auto it = dir.entries.find(name);
  if (it == dir.entries.end()) return;
  if (Inode* child = tree.Find(it->second); child != nullptr) {
    if (child->links > 0) --child->links;
    child->ctime_ns = time_ns;
  }
  dir.entries.erase(it);
}

void Touch(Tree& tree, uint64_t ino, int64_t time_ns) {
  if (Inode* inode = tree.Find(ino); inode != nullptr) inode->ctime_ns = time_ns;
}

void Modified(Inode& inode, int64_t time_ns) { inode.mtime_ns = inode.ctime_ns = time_ns; }

}  // namespace

void Apply(Tree& tree, const Op& op) {
  switch (op.kind) {
    case Op::Kind::kCreate: {
      Inode* dir = tree.Find(op.dir);
      if (dir == nullptr) return;
      Inode& made = tree.inodes[op.ino];
      made.type = op.type;
      made.data = op.bytes;
      Modified(made, op.time_ns);
      made.links = 1;
      dir->entries[op.name] = op.ino;
      Modified(*dir, op.time_ns);
      return;
    }
    case Op::Kind::kWrite: {
      Inode* file = tree.Find(op.ino);
      if (file == nullptr) return;
      const size_t end = static_cast<size_t>(op.offset) + op.bytes.size();
      if (file->data.size() < end) file->data.resize(end, '\0');
      file->data.replace(static_cast<size_t>(op.offset), op.bytes.size(), op.bytes);
      Modified(*file, op.time_ns);
      return;
    }
    case Op::Kind::kTruncate: {
      Inode* file = tree.Find(op.ino);
      if (file == nullptr) return;
      file->data.resize(static_cast<size_t>(op.offset), '\0');
      Modified(*file, op.time_ns);
      return;
    }
    case Op::Kind::kLink: {
      Inode* dir = tree.Find(op.dir);
      Inode* file = tree.Find(op.ino);
      if (dir == nullptr || file == nullptr) return;
      dir->entries[op.name] = op.ino;
      ++file->links;
      file->ctime_ns = op.time_ns;
      Modified(*dir, op.time_ns);
      return;
    }
    case Op::Kind::kUnlink: {
      Inode* dir = tree.Find(op.dir);
      if (dir == nullptr) return;
      Unlink(tree, *dir, op.name, op.time_ns);
      Modified(*dir, op.time_ns);
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
      if (target != to->entries.end()) Unlink(tree, *to, op.name2, op.time_ns);
      from->entries.erase(op.name);
      to->entries[op.name2] = moved;
      Touch(tree, moved, op.time_ns);
      Modified(*from, op.time_ns);
      Modified(*to, op.time_ns);
      return;
    }
    case Op::Kind::kExchange: {
      Inode* a = tree.Find(op.dir);
      Inode* b = tree.Find(op.dir2);
      if (a == nullptr || b == nullptr) return;
      auto ia = a->entries.find(op.name);
      auto ib = b->entries.find(op.name2);
      if (ia == a->entries.end() || ib == b->entries.end()) return;
      std::swap(ia->second, ib->second);
      Touch(tree, ia->second, op.time_ns);
      Touch(tree, ib->second, op.time_ns);
      Modified(*a, op.time_ns);
      Modified(*b, op.time_ns);
      return;
    }
  }
}

}  // namespace folio::storage::mem
