// The shared state of a MemFs and its handles: the live tree, what each power loss
// model would keep (mem_fs.h), open handles and locks. Every member function requires
// `mu` held by the caller.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "storage/mem_fs_tree.h"

namespace folio::storage::mem {

class Core {
 public:
  Core();
  // A copy of the contents and durability state of `other` (which the caller has
  // locked), without its open handles and locks.
  explicit Core(const Core& other);

  // Applies `op` to the live tree (stamping it with the clock) and records it.
  void Do(Op op);
  uint64_t NewInode() { return next_ino_++; }

  // Syncs: model (a) records the durable state of the inode; every one is a barrier
  // of model (b).
  void SyncFile(uint64_t ino);
  void SyncDir(uint64_t ino);
  void SyncAll();
  size_t OpsSinceBarrier() const { return log_.size(); }

  // The power losses of mem_fs.h.
  void DropUnsynced();
  void KeepPrefix(size_t n);

  // Handles of this boot: an open inode stays in the live tree while unlinked.
  void OpenHandle(uint64_t ino) { ++open_[ino]; }
  void CloseHandle(uint64_t ino);

  struct LockState {
    bool exclusive = false;
    uint32_t shared = 0;
  };
  LockState& LockOf(uint64_t ino) { return locks_[ino]; }
  void ForgetLockIfFree(uint64_t ino);

  std::mutex mu;
  std::condition_variable lock_released;  // also notified by a power loss
  Tree live;
  uint64_t boot = 0;  // counts power losses
  size_t lock_waiters = 0;

 private:
  int64_t Tick() { return clock_ns_ += 1000; }
  void Barrier();
  // Model (a): `record` becomes the durable state of `ino`; names in it that have no
  // durable record get one holding no data (a file never synced is empty).
  void SetDurable(uint64_t ino, Inode record);
  void EraseDurable(uint64_t ino);
  // One durable name of `child` fewer; its record goes with the last one unless it is
  // live (it may be synced into a directory again).
  void DropDurableRef(uint64_t child);
  // Drops a live inode that no name and no handle refers to any more.
  void ReleaseIfDead(uint64_t ino);
  // Every surviving inode is durable; handles and locks die; the boot changes.
  void Restart(Tree survivors);
  // Model (a) state of exactly the live tree, as after SyncAll.
  void DurableFromLive();

  Tree barrier_;                       // model (b): the state at the last barrier
  std::vector<Op> log_;                // model (b): changes since then, in order
  std::map<uint64_t, Inode> durable_;  // model (a): each inode as last synced
  std::map<uint64_t, uint32_t> durable_refs_;  // durable entries naming each inode
  std::map<uint64_t, uint32_t> open_;
  std::map<uint64_t, LockState> locks_;
  uint64_t next_ino_ = kRootInode + 1;
  int64_t clock_ns_ = 1700000000LL * 1000000000LL;
};

}  // namespace folio::storage::mem
