// FaultyFs wraps another Fs and makes every changing call from the Nth on fail with
// kStorage (as a disk that fills up or dies would), so tests can walk a failure
// through every step of an operation. Reads keep working.
#pragma once

#include <atomic>
#include <memory>

#include "folio/fs.h"

namespace folio::testing {

class FaultyFs : public Fs {
 public:
  enum class Mode { kFromNOn, kOnlyN };
  // fail_from < 0: never fail. kFromNOn: calls N, N+1, ... fail (a dead disk);
  // kOnlyN: only call N fails (a transient error; cleanup afterwards works).
  FaultyFs(Fs& inner, int fail_from, Mode mode = Mode::kFromNOn)
      : inner_(inner), fail_from_(fail_from), mode_(mode) {}

  bool fired() const { return fired_; }
  int calls() const { return calls_; }

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& p) override { return inner_.Open(p); }
  Result<std::unique_ptr<Directory>> OpenDirectory(const std::string& p) override { return inner_.OpenDirectory(p); }
  Result<std::unique_ptr<WritableFile>> CreateNew(const std::string& p) override {
    FOLIO_RETURN_IF_ERROR(Step("create", p));
    return inner_.CreateNew(p);
  }
  Status Rename(const std::string& a, const std::string& b) override {
    FOLIO_RETURN_IF_ERROR(Step("rename", a));
    return inner_.Rename(a, b);
  }
  Status RenameNoReplace(const std::string& a, const std::string& b) override {
    FOLIO_RETURN_IF_ERROR(Step("rename", a));
    return inner_.RenameNoReplace(a, b);
  }
  Status SyncDir(const std::string& d) override {
    FOLIO_RETURN_IF_ERROR(Step("sync", d));
    return inner_.SyncDir(d);
  }
  Result<std::vector<DirEntry>> List(const std::string& d) override { return inner_.List(d); }
  Status MakeDir(const std::string& p) override {
    FOLIO_RETURN_IF_ERROR(Step("mkdir", p));
    return inner_.MakeDir(p);
  }
  Status Remove(const std::string& p) override {
    FOLIO_RETURN_IF_ERROR(Step("remove", p));
    return inner_.Remove(p);
  }
  Status RemoveTree(const std::string& p) override {
    FOLIO_RETURN_IF_ERROR(Step("remove", p));
    return inner_.RemoveTree(p);
  }
  Result<FileStat> Stat(const std::string& p) override { return inner_.Stat(p); }
  Result<std::unique_ptr<FileLock>> Lock(const std::string& p, LockMode m) override { return inner_.Lock(p, m); }
  Status Link(const std::string& a, const std::string& b) override {
    FOLIO_RETURN_IF_ERROR(Step("link", a));
    return inner_.Link(a, b);
  }
  // Opening (the commit log, at every open of a repository) is not a step; its writes
  // go through the file, which this Fs does not wrap.
  Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccess(const std::string& p) override {
    return inner_.OpenRandomAccess(p);
  }
  Status SyncAll() override {
    FOLIO_RETURN_IF_ERROR(Step("syncall", ""));
    return inner_.SyncAll();
  }
  std::string BootId() override { return inner_.BootId(); }
  std::string Describe(const std::string& p) const override { return inner_.Describe(p); }

 private:
  Status Step(const char* what, const std::string& path) {
    int n = calls_++;
    if (fail_from_ >= 0 && (n == fail_from_ || (mode_ == Mode::kFromNOn && n > fail_from_))) {
      fired_ = true;
      return StorageError(std::string("injected failure: ") + what + " '" + path + "'", std::errc::io_error);
    }
    return OkStatus();
  }

  Fs& inner_;
  int fail_from_;
  Mode mode_;
  std::atomic<int> calls_{0};
  std::atomic<bool> fired_{false};
};

}  // namespace folio::testing
