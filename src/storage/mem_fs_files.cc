// The handles of MemFs: open files, directories and locks; see mem_fs_files.h.
#include "storage/mem_fs_files.h"

#include <algorithm>
#include <cstring>

#include "storage/entry_name.h"

namespace folio::storage::mem {
namespace {

constexpr uint64_t kDevice = 0x6d656d;  // "mem"

// Copies up to `n` bytes of `data` from `offset` into `buf`; 0 at or past the end.
size_t CopyOut(const std::string& data, uint64_t offset, char* buf, size_t n) {
  if (offset >= data.size()) return 0;
  const size_t k = std::min<uint64_t>(n, data.size() - offset);
  std::memcpy(buf, data.data() + offset, k);
  return k;
}

class Handle {
 public:
  // Requires core->mu held.
  Handle(std::shared_ptr<Core> core, uint64_t ino, std::string path)
      : core_(std::move(core)), ino_(ino), boot_(core_->boot), path_(std::move(path)) {
    core_->OpenHandle(ino_);
  }
  ~Handle() {
    std::lock_guard<std::mutex> lock(core_->mu);
    Release();
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

 protected:
  // Requires core_->mu held. kStorage once the power was lost after the open.
  Status Alive(const std::string& what) const {
    if (core_->boot == boot_) return OkStatus();
    return StorageError("cannot " + what + " '" + path_ + "': opened before a power loss", std::errc::io_error);
  }
  bool alive() const { return core_->boot == boot_; }
  // Requires core_->mu held: the inode is no longer held open by this handle.
  void Release() {
    if (released_ || !alive()) return;
    released_ = true;
    core_->CloseHandle(ino_);
  }
  Inode& inode() { return *core_->live.Find(ino_); }
  // Requires core_->mu held. Writing nothing changes nothing (no mtime either).
  void Write(uint64_t offset, std::string_view bytes) {
    if (bytes.empty()) return;
    Op op;
    op.kind = Op::Kind::kWrite;
    op.ino = ino_;
    op.offset = offset;
    op.bytes = std::string(bytes);
    core_->Do(std::move(op));
  }

  std::shared_ptr<Core> core_;
  uint64_t ino_;
  uint64_t boot_;
  std::string path_;
  bool released_ = false;
};

class MemReadableFile : public ReadableFile, Handle {
 public:
  MemReadableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path)
      : Handle(std::move(core), ino, std::move(path)), opened_(StatOf(*core_, ino_)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("read"));
    const size_t k = CopyOut(inode().data, pos_, buf, n);
    pos_ += k;
    return k;
  }
  Status Seek(uint64_t offset) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("seek"));
    pos_ = offset;
    return OkStatus();
  }
  uint64_t size() const override { return opened_.size; }
  Result<FileStat> Stat() const override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("stat"));
    return StatOf(*core_, ino_);
  }
  Result<FileStat> StatAtOpen() const override { return opened_; }

 private:
  FileStat opened_;
  uint64_t pos_ = 0;
};

class MemWritableFile : public WritableFile, Handle {
 public:
  MemWritableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path)
      : Handle(std::move(core), ino, std::move(path)) {}
  Status Append(std::string_view bytes) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (closed_) return StorageError("write to closed file '" + path_ + "'");
    FOLIO_RETURN_IF_ERROR(Alive("write"));
    Write(pos_, bytes);
    pos_ += bytes.size();
    return OkStatus();
  }
  Status Sync() override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (closed_) return Errno("sync", path_, EBADF);
    FOLIO_RETURN_IF_ERROR(Alive("sync"));
    core_->SyncFile(ino_);
    return OkStatus();
  }
  Status Close() override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (closed_) return OkStatus();
    closed_ = true;
    FOLIO_RETURN_IF_ERROR(Alive("close"));
    Release();
    return OkStatus();
  }
  Result<FileStat> Stat() const override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (closed_) return Errno("stat", path_, EBADF);
    FOLIO_RETURN_IF_ERROR(Alive("stat"));
    return StatOf(*core_, ino_);
  }
  Status Truncate(uint64_t size) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (closed_) return Errno("truncate", path_, EBADF);
    FOLIO_RETURN_IF_ERROR(Alive("truncate"));
    Op op;
    op.kind = Op::Kind::kTruncate;
    op.ino = ino_;
    op.offset = size;
    core_->Do(std::move(op));
    return OkStatus();
  }

 private:
  uint64_t pos_ = 0;
  bool closed_ = false;
};

class MemRandomAccessFile : public RandomAccessFile, Handle {
 public:
  MemRandomAccessFile(std::shared_ptr<Core> core, uint64_t ino, std::string path)
      : Handle(std::move(core), ino, std::move(path)) {}
  Result<size_t> ReadAt(uint64_t offset, char* buf, size_t n) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("read"));
    return CopyOut(inode().data, offset, buf, n);
  }
  Status WriteAt(uint64_t offset, std::string_view bytes) override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("write"));
    Write(offset, bytes);
    return OkStatus();
  }
  Status DataSync() override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("sync"));
    core_->SyncFile(ino_);
    return OkStatus();
  }
  Result<uint64_t> Size() override {
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("stat"));
    return static_cast<uint64_t>(inode().data.size());
  }
};

class MemDirectory : public Directory, Handle {
 public:
  MemDirectory(std::shared_ptr<Core> core, uint64_t ino, std::string path)
      : Handle(std::move(core), ino, std::move(path)) {}
  Status ReadFile(const std::string& name, std::string& out) override {
    FOLIO_ASSIGN_OR_RETURN(const std::string shown, EntryPath(path_, name));
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("open"));
    // A directory removed since it was opened has no entries left.
    const uint64_t ino = Child(*core_, ino_, name);
    if (ino == 0) return Errno("open", shown, ENOENT);
    const Inode& file = *core_->live.Find(ino);
    switch (file.type) {
      case FileType::kFile: out = file.data; return OkStatus();
      case FileType::kSymlink: return Errno("open", shown, ELOOP);
      case FileType::kDirectory: return Errno("open", shown, EISDIR);
      case FileType::kOther: return Errno("open", shown, EINVAL);
    }
    return OkStatus();
  }
  Result<FileStat> IdentityStat(const std::string& name) override {
    FOLIO_ASSIGN_OR_RETURN(const std::string shown, EntryPath(path_, name));
    std::lock_guard<std::mutex> lock(core_->mu);
    FOLIO_RETURN_IF_ERROR(Alive("stat"));
    const uint64_t ino = Child(*core_, ino_, name);
    if (ino == 0) return Errno("stat", shown, ENOENT);
    return StatOf(*core_, ino);
  }

};

class MemLock : public FileLock, Handle {
 public:
  MemLock(std::shared_ptr<Core> core, uint64_t ino, std::string path, LockMode mode)
      : Handle(std::move(core), ino, std::move(path)), mode_(mode) {}
  ~MemLock() override {
    std::lock_guard<std::mutex> lock(core_->mu);
    if (!alive() || !held_) return;
    Core::LockState& state = core_->LockOf(ino_);
    if (mode_ == LockMode::kExclusive) state.exclusive = false;
    else --state.shared;
    core_->ForgetLockIfFree(ino_);
    core_->lock_released.notify_all();
  }

  // Requires `lock` held on core_->mu. Waits until no conflicting holder is left.
  Status Acquire(std::unique_lock<std::mutex>& lock) {
    ++core_->lock_waiters;
    core_->lock_released.wait(lock, [&] {
      if (!alive()) return true;
      const Core::LockState& s = core_->LockOf(ino_);
      return mode_ == LockMode::kExclusive ? !s.exclusive && s.shared == 0 : !s.exclusive;
    });
    --core_->lock_waiters;
    FOLIO_RETURN_IF_ERROR(Alive("lock"));
    Core::LockState& s = core_->LockOf(ino_);
    if (mode_ == LockMode::kExclusive) s.exclusive = true;
    else ++s.shared;
    held_ = true;
    return OkStatus();
  }

 private:
  LockMode mode_;
  bool held_ = false;
};

}  // namespace

Status Errno(const std::string& what, const std::string& path, int err) {
  return StorageError("cannot " + what + " '" + path + "': " + std::strerror(err), static_cast<std::errc>(err));
}


uint64_t Child(const Core& core, uint64_t dir, const std::string& name) {
  const Inode& d = *core.live.Find(dir);
  auto it = d.entries.find(name);
  return it == d.entries.end() ? 0 : it->second;
}

FileStat StatOf(const Core& core, uint64_t ino) {
  const Inode& inode = *core.live.Find(ino);
  FileStat st;
  st.type = inode.type;
  st.size = inode.type == FileType::kDirectory ? inode.entries.size()
            : inode.type == FileType::kOther   ? 0
                                               : inode.data.size();
  st.mtime_ns = inode.mtime_ns;
  st.ctime_ns = inode.ctime_ns;
  st.links = inode.links;
  st.inode = ino;
  st.device = kDevice;
  return st;
}


std::unique_ptr<ReadableFile> NewReadableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path) {
  return std::make_unique<MemReadableFile>(std::move(core), ino, std::move(path));
}

std::unique_ptr<WritableFile> NewWritableFile(std::shared_ptr<Core> core, uint64_t ino, std::string path) {
  return std::make_unique<MemWritableFile>(std::move(core), ino, std::move(path));
}

std::unique_ptr<RandomAccessFile> NewRandomAccessFile(std::shared_ptr<Core> core, uint64_t ino, std::string path) {
  return std::make_unique<MemRandomAccessFile>(std::move(core), ino, std::move(path));
}

std::unique_ptr<Directory> NewDirectory(std::shared_ptr<Core> core, uint64_t ino, std::string path) {
  return std::make_unique<MemDirectory>(std::move(core), ino, std::move(path));
}

Result<std::unique_ptr<FileLock>> LockInode(std::shared_ptr<Core> core, uint64_t ino, std::string path,
                                            LockMode mode, std::unique_lock<std::mutex>& lock) {
  auto held = std::make_unique<MemLock>(std::move(core), ino, std::move(path), mode);
  Status s = held->Acquire(lock);
  if (!s.ok()) {
    lock.unlock();  // the handle's destructor takes the mutex
    held.reset();
    return s;
  }
  return std::unique_ptr<FileLock>(std::move(held));
}

}  // namespace folio::storage::mem
