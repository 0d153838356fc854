// FaultyFs wraps another Fs and makes its changing calls fail as a disk that dies,
// fills up or loses power would, so tests can walk a failure through every step of an
// operation. Changing calls are counted from 0 in the order they arrive: CreateNew,
// OpenToRewrite, Rename, RenameNoReplace, Exchange, SyncDir, MakeDir, Remove, RemoveTree, Lock (only when it
// creates its file), Link, OpenRandomAccess (when it creates its file), SyncAll, and on the files it hands out
// WritableFile::Append, AppendFrom, Sync, Truncate, Close and RandomAccessFile::WriteAt,
// DataSync. A failed call
// changes nothing (a failed Close still releases the file, as close(2) does). Reads
// keep working, except after a power cut. Thread-safe: a power cut waits for the calls
// already counted to finish, and no call of the dead process reaches the disk after it.
// It can also be a slow disk: set_sync_delay makes every flush of a file take longer.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "folio/fs.h"
#include "storage/mem_fs.h"

namespace folio::testing {

class FaultyFs : public Fs {
 public:
  enum class Mode { kFromNOn, kOnlyN };
  // Changing calls that fail with kStorage and cause() == `error`: with kFromNOn calls
  // `at`, at+1, ... (a dead disk); with kOnlyN only call `at` (a transient error;
  // cleanup afterwards works). `at` < 0: none.
  struct Failure {
    int at = -1;
    Mode mode = Mode::kFromNOn;
    std::errc error = std::errc::io_error;  // no_space_on_device: a full disk
  };
  // When changing call `at` arrives, the MemFs below loses power (MemFs::LosePower with
  // `model` and `keep`) before the call is made; that call and every later call of any
  // kind fail with kStorage (the process is dead). `at` < 0: never.
  struct PowerCut {
    int at = -1;
    storage::PowerLoss model = storage::PowerLoss::kDropUnsynced;
    size_t keep = SIZE_MAX;  // kKeepPrefix: how many changes after the last barrier survive
  };

  static Failure FailFrom(int n, std::errc error = std::errc::io_error) { return {n, Mode::kFromNOn, error}; }
  static Failure FailCallAt(int n, std::errc error = std::errc::io_error) { return {n, Mode::kOnlyN, error}; }
  static PowerCut CutPowerAt(int n, storage::PowerLoss model = storage::PowerLoss::kDropUnsynced,
                             size_t keep = SIZE_MAX) {
    return {n, model, keep};
  }

  FaultyFs(Fs& inner, int fail_from, Mode mode = Mode::kFromNOn)
      : FaultyFs(inner, Failure{fail_from, mode, std::errc::io_error}) {}
  FaultyFs(Fs& inner, Failure failure) : state_(std::make_shared<State>(inner)) { state_->failure = failure; }
  FaultyFs(storage::MemFs& inner, PowerCut cut) : state_(std::make_shared<State>(inner)) {
    state_->mem = &inner;
    state_->cut = cut;
  }

  // An injected failure or the power cut happened.
  bool fired() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->fired;
  }
  // A slow disk: every WritableFile::Sync and RandomAccessFile::DataSync that succeeds
  // takes `delay` more (only its caller waits, as for a real flush).
  void set_sync_delay(std::chrono::microseconds delay) { state_->sync_delay_us = delay.count(); }
  // RandomAccessFile::DataSync calls so far (the commit log's flushes).
  int data_syncs() const { return state_->data_syncs; }
  // Changing calls so far (including failed ones).
  int calls() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->calls;
  }
  // MemFs::OpsSinceBarrier() just before the power cut: the `keep` values that give
  // different states are 0..this.
  size_t ops_at_cut() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->ops_at_cut;
  }

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("open", p));
    return inner().Open(p);
  }
  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("open", p));
    return inner().OpenDirectory(p);
  }
  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("create", p, gate));
    FOLIO_ASSIGN_OR_RETURN(auto file, inner().CreateNew(p));
    return std::unique_ptr<WritableFile>(new Writable(state_, std::move(file), p));
  }
  Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("open", p, gate));
    FOLIO_ASSIGN_OR_RETURN(auto file, inner().OpenToRewrite(p));
    return std::unique_ptr<WritableFile>(new Writable(state_, std::move(file), p));
  }
  Status Rename(const std::string& a, const std::string& b) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("rename", a, gate));
    return inner().Rename(a, b);
  }
  Status Exchange(const std::string& a, const std::string& b) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("exchange", a, gate));
    return inner().Exchange(a, b);
  }
  Status RenameNoReplace(const std::string& a, const std::string& b) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("rename", a, gate));
    return inner().RenameNoReplace(a, b);
  }
  Status SyncDir(const std::string& d) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("sync", d, gate));
    return inner().SyncDir(d);
  }
  Result<std::vector<DirEntry>> List(const std::string& d) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("list", d));
    return inner().List(d);
  }
  Status MakeDir(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("mkdir", p, gate));
    return inner().MakeDir(p);
  }
  Status Remove(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("remove", p, gate));
    return inner().Remove(p);
  }
  Status RemoveTree(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("remove", p, gate));
    return inner().RemoveTree(p);
  }
  Result<FileStat> Stat(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("stat", p));
    return inner().Stat(p);
  }
  Result<FileStat> IdentityStat(const std::string& p) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("stat", p));
    return inner().IdentityStat(p);
  }
  Result<std::unique_ptr<FileLock>> Lock(const std::string& p, LockMode m = LockMode::kExclusive) override {
    {
      auto gate = state_->Enter();
      // Counts only when it creates the file: locking an existing file writes nothing.
      if (Exists(inner(), p)) {
        FOLIO_RETURN_IF_ERROR(state_->Alive("lock", p));
      } else {
        FOLIO_RETURN_IF_ERROR(state_->Step("lock", p, gate));
      }
    }
    // Outside the gate: waiting for a holder must not hold up a power cut.
    FOLIO_ASSIGN_OR_RETURN(auto lock, inner().Lock(p, m));
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Alive("lock", p));  // not for a process already dead
    return lock;
  }
  Status Link(const std::string& a, const std::string& b) override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("link", a, gate));
    return inner().Link(a, b);
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& p) override {
    auto gate = state_->Enter();
    // Counts only when it creates the file, as Lock: opening the commit log of every
    // repository that is opened writes nothing.
    if (Exists(inner(), p)) {
      FOLIO_RETURN_IF_ERROR(state_->Alive("open", p));
    } else {
      FOLIO_RETURN_IF_ERROR(state_->Step("open", p, gate));
    }
    FOLIO_ASSIGN_OR_RETURN(auto file, inner().OpenRandomAccess(p));
    return std::unique_ptr<RandomAccessFile>(new RandomAccess(state_, std::move(file), p));
  }
  Status SyncAll() override {
    auto gate = state_->Enter();
    FOLIO_RETURN_IF_ERROR(state_->Step("sync", "", gate));
    return inner().SyncAll();
  }
  std::string BootId() override { return inner().BootId(); }
  std::string Describe(const std::string& p) const override { return state_->inner.Describe(p); }

 private:
  // Shared with the files handed out, which may outlive the FaultyFs.
  struct State {
    explicit State(Fs& fs) : inner(fs) {}

    // Held (shared) by every call from before its count to after the call below is
    // made, so that a power cut waits for calls already counted and no call of the
    // dead process lands after it.
    using Gate = std::shared_lock<std::shared_mutex>;
    Gate Enter() { return Gate(gate_mu); }

    // Counts one changing call; its error if this call fails. `gate` is the caller's.
    Status Step(const char* what, const std::string& path, Gate& gate) {
      std::unique_lock<std::mutex> lock(mu);
      if (dead) return Dead(what, path);
      const int n = calls++;
      if (mem != nullptr && cut.at >= 0 && n == cut.at) {
        dead = true;  // from now on every call fails
        fired = true;
        lock.unlock();
        gate.unlock();
        std::unique_lock<std::shared_mutex> all(gate_mu);
        const size_t ops = mem->OpsSinceBarrier();
        mem->LosePower(cut.model, cut.keep);
        lock.lock();
        ops_at_cut = ops;
        return Dead(what, path);
      }
      if (failure.at >= 0 && (n == failure.at || (failure.mode == Mode::kFromNOn && n > failure.at))) {
        fired = true;
        return StorageError(std::string("injected failure: ") + what + " '" + path + "': " +
                                std::make_error_code(failure.error).message(),
                            failure.error);
      }
      return OkStatus();
    }
    // Any call after a power cut fails.
    Status Alive(const char* what, const std::string& path) {
      std::lock_guard<std::mutex> lock(mu);
      return dead ? Dead(what, path) : OkStatus();
    }
    // The wait of a slow disk's flush (set_sync_delay).
    void SlowSync() const {
      const int64_t us = sync_delay_us;
      if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
    }
    static Status Dead(const char* what, const std::string& path) {
      return StorageError(std::string("power lost: cannot ") + what + " '" + path + "'", std::errc::io_error);
    }

    Fs& inner;
    storage::MemFs* mem = nullptr;
    std::shared_mutex gate_mu;
    Failure failure;
    PowerCut cut;
    std::mutex mu;
    int calls = 0;
    bool fired = false;
    bool dead = false;
    size_t ops_at_cut = 0;
    std::atomic<int64_t> sync_delay_us{0};
    std::atomic<int> data_syncs{0};
  };

  class Writable : public WritableFile {
   public:
    Writable(std::shared_ptr<State> state, std::unique_ptr<WritableFile> file, std::string path)
        : state_(std::move(state)), file_(std::move(file)), path_(std::move(path)) {}
    Status Append(std::string_view bytes) override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("write", path_, gate));
      return file_->Append(bytes);
    }
    Status AppendFrom(ReadableFile& src) override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("write", path_, gate));
      return file_->AppendFrom(src);
    }
    Status Sync() override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("sync", path_, gate));
      FOLIO_RETURN_IF_ERROR(file_->Sync());
      state_->SlowSync();
      return OkStatus();
    }
    Status Close() override {
      auto gate = state_->Enter();
      Status s = state_->Step("close", path_, gate);
      Status closed = file_->Close();
      return s.ok() ? closed : s;
    }
    Result<FileStat> Stat() const override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Alive("stat", path_));
      return file_->Stat();
    }
    Status Truncate(uint64_t size) override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("truncate", path_, gate));
      return file_->Truncate(size);
    }

   private:
    std::shared_ptr<State> state_;
    std::unique_ptr<WritableFile> file_;
    std::string path_;
  };

  class RandomAccess : public RandomAccessFile {
   public:
    RandomAccess(std::shared_ptr<State> state, std::unique_ptr<RandomAccessFile> file, std::string path)
        : state_(std::move(state)), file_(std::move(file)), path_(std::move(path)) {}
    Result<size_t> ReadAt(uint64_t offset, char* buf, size_t n) override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Alive("read", path_));
      return file_->ReadAt(offset, buf, n);
    }
    Status WriteAt(uint64_t offset, std::string_view bytes) override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("write", path_, gate));
      return file_->WriteAt(offset, bytes);
    }
    Status DataSync() override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Step("sync", path_, gate));
      ++state_->data_syncs;
      FOLIO_RETURN_IF_ERROR(file_->DataSync());
      state_->SlowSync();
      return OkStatus();
    }
    Result<uint64_t> Size() override {
      auto gate = state_->Enter();
      FOLIO_RETURN_IF_ERROR(state_->Alive("stat", path_));
      return file_->Size();
    }

   private:
    std::shared_ptr<State> state_;
    std::unique_ptr<RandomAccessFile> file_;
    std::string path_;
  };

  Fs& inner() { return state_->inner; }

  std::shared_ptr<State> state_;
};

}  // namespace folio::testing
