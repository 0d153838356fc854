// The inode table behind MemFs (mem_fs.h) and the operations that change it. Every
// change MemFs makes is one Op applied to its live tree and recorded, so that the same
// Op can be replayed later on the tree of the last barrier (the ordered-metadata power
// loss model, MemFs::KeepPrefix).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "folio/fs.h"

namespace folio::storage::mem {

inline constexpr uint64_t kRootInode = 2;  // as on ext4; numbers below are never used

struct Inode {
  FileType type = FileType::kFile;
  std::string data;                         // a file's bytes; a symlink's target
  std::map<std::string, uint64_t> entries;  // a directory's names -> inode numbers
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;  // every change of the inode: its bytes, or its names
  uint32_t links = 0;    // names that refer to it (the root counts as linked)
};

struct Tree {
  std::map<uint64_t, Inode> inodes;

  // The inode `ino`, or nullptr if the tree does not hold it.
  Inode* Find(uint64_t ino);
  const Inode* Find(uint64_t ino) const;
  // Removes every inode no name refers to (except the root and those in `keep`).
  template <typename Keep>
  void DropUnlinked(Keep keep) {
    for (auto it = inodes.begin(); it != inodes.end();) {
      if (it->second.links == 0 && it->first != kRootInode && !keep(it->first)) {
        it = inodes.erase(it);
      } else {
        ++it;
      }
    }
  }
};

// One change, with everything needed to replay it on another tree that held the same
// inodes before it. Validation happens before an Op is made: applying one never fails.
// An Op naming an inode the tree no longer holds (a write to a file unlinked while
// open) changes nothing there: no name can reach that inode any more.
struct Op {
  enum class Kind {
    kCreate,  // dir/name -> new inode `ino` of `type`, with `bytes` (a symlink's target)
    kWrite,   // `bytes` at `offset` of file `ino`, zero-filling any gap
    kLink,    // dir/name -> existing inode `ino`
    kUnlink,  // removes dir/name (a file, symlink, special file or empty directory)
    kRename,    // dir/name -> dir2/name2, replacing what dir2/name2 named
    kExchange,  // dir/name and dir2/name2 swap the inodes they name
    kTruncate,  // file `ino` cut (or zero-extended) to `offset` bytes
  };
  Kind kind = Kind::kCreate;
  int64_t time_ns = 0;  // the fake clock when it happened: the mtime it sets
  uint64_t dir = 0;
  std::string name;
  uint64_t dir2 = 0;
  std::string name2;
  uint64_t ino = 0;
  FileType type = FileType::kFile;
  uint64_t offset = 0;
  std::string bytes;
};

// Applies `op` to `tree` (see Op). Unlinked inodes stay in the tree until dropped.
void Apply(Tree& tree, const Op& op);

}  // namespace folio::storage::mem
