// Processes that end, machines that lose power, disks that fail, damaged records and
// read-only readers, for the model-based test (model_test.cc). What the model says:
// nothing acknowledged is ever lost; a request that fails at a disk error took effect
// or did not, never half (and a client that retries it gets the new state); a reader
// that may not write changes no byte and no time stamp; a damaged record spoils only
// its own object.
#pragma once

#include <rapidcheck/state.h>

#include "model/commands.h"
#include "model/hand_edits.h"
#include "storage/atomic_write.h"

namespace folio::model {

// The requests a Faulty step wraps.
inline auto AnyRequest() {
  return rc::state::gen::execOneOfWithArgs<CreateFolder, CreateDocument, SetDescription, Rename, SetContent, Move,
                                           DeleteDocument, DeleteVersion, DeleteFolder, DeleteTree, CheckOut, CheckIn,
                                           CancelCheckOut, ApplyAcl>();
}

// The process exits and another opens the repository.
class Restart : public Cmd {
 public:
  void run(const Model& m, Sut& sut) const override {
    sut.Reopen();
    Verify(m, sut, false, "Restart");
  }
  void show(std::ostream& os) const override { os << "Restart"; }
};

// The machine loses power between requests: whatever was acknowledged survives.
class PowerLoss : public Cmd {
 public:
  PowerLoss() : keep_all_but_(*rc::gen::inRange(-1, 4)) {}
  void run(const Model& m, Sut& sut) const override {
    sut.Close();
    if (keep_all_but_ < 0) {
      sut.disk().DropUnsynced();
    } else {
      const size_t ops = sut.disk().OpsSinceBarrier();
      sut.disk().KeepPrefix(ops > static_cast<size_t>(keep_all_but_) ? ops - keep_all_but_ : 0);
    }
    sut.Reopen();
    Verify(m, sut, false, Text());
  }
  std::string Text() const {
    return keep_all_but_ < 0 ? "PowerLoss (drop unsynced)"
                             : "PowerLoss (ordered, all but the last " + std::to_string(keep_all_but_) + " changes)";
  }
  void show(std::ostream& os) const override { os << Text(); }

 private:
  int keep_all_but_;
};

// A request made by a process whose disk fails at its changing call `at` (FaultyFs):
// EIO or ENOSPC from then on (a dead or full disk; the process then exits), EIO at that
// call only (the process goes on), or a power cut there under either model. Then the
// repository holds the old state or the new one; a request reported done is done; a
// request that did not take effect logged nothing, and the client's retry succeeds.
class Faulty : public Cmd {
 public:
  enum Kind { kEio, kNoSpace, kEioOnce, kPowerDrop, kPowerKeep, kKinds };
  explicit Faulty(const Model& m)
      : op_(std::dynamic_pointer_cast<const ApiOp>(*AnyRequest()(m))), kind_(static_cast<Kind>(*rc::gen::inRange(0, 5))),
        at_(*rc::gen::inRange(0, 40)), keep_(*rc::gen::inRange(0, 6)) {}
  void checkPreconditions(const Model& m) const override {
    op_->checkPreconditions(m);
  }
  void apply(Model& m) const override { op_->apply(m); }
  void run(const Model& m, Sut& sut) const override {
    const Model after = nextState(m);
    const bool want = op_->Succeeds(m);
    sut.Close();
    testing::FaultyFs fs = MakeFs(sut.disk());
    Status s;
    bool goes_on = false;
    {
      auto repo = Repository::Open(fs, kBase, kRepoOptions);
      if (!repo.ok()) {
        s = repo.status();
      } else {
        s = op_->Request(m, **repo, sut);
        // The process goes on after its failed call (a fault the request did not meet
        // would fail a call of the checks, not of the request: this process ends).
        goes_on = kind_ == kEioOnce && fs.fired();
        if (goes_on) sut.Use(*repo);
      }
    }
    const bool fired = fs.fired();
    if (!fired && s.ok() != want) {
      sut.Reopen();
      RC_FAIL(Text() + " (no fault came): " + (want ? "failed: " + s.ToString() : std::string("succeeded")));
    }
    if (!goes_on) sut.Reopen();
    if (fired && (kind_ == kPowerDrop || kind_ == kPowerKeep)) sut.ForgetQueryIndex();
    sut.LearnIds(after, false);
    const std::string as_new = sut.Check(after, {});
    if (!as_new.empty()) {
      const std::string as_old = sut.Check(m, {});
      if (s.ok()) {
        sut.Reopen();
        RC_FAIL(Text() + " was reported done, and is not:\n" + as_new);
      }
      if (!as_old.empty()) {
        sut.Reopen();
        RC_FAIL(Text() + " left neither the old state nor the new (" + s.ToString() + "):\nas the old:\n" + as_old +
                "as the new:\n" + as_new);
      }
      // Not done: it changed nothing, logged nothing, and a retry makes it.
      const std::vector<std::string> events = sut.NewEvents();
      if (!events.empty()) {
        sut.Reopen();
        RC_FAIL(Text() + " failed (" + s.ToString() + ") and changed nothing, yet logged " + events.front());
      }
      if (want) {
        const Status again = op_->Request(m, sut.repo(), sut);
        if (!again.ok()) {
          sut.Reopen();
          RC_FAIL(Text() + ": the retry failed: " + again.ToString());
        }
      }
    }
    sut.Reopen();  // off the FaultyFs, which goes now
    Verify(after, sut, false, Text());
  }
  std::string Text() const {
    static const char* const kNames[] = {"EIO from", "ENOSPC from", "EIO once at", "power cut (drop unsynced) at",
                                         "power cut (ordered) at"};
    std::string out = "Faulty[" + std::string(kNames[kind_]) + " call " + std::to_string(at_);
    if (kind_ == kPowerKeep) out += ", keeping " + std::to_string(keep_);
    return out + "] " + op_->Text();
  }
  void show(std::ostream& os) const override { os << Text(); }

 private:
  testing::FaultyFs MakeFs(storage::MemFs& disk) const {
    switch (kind_) {
      case kEio: return testing::FaultyFs(disk, testing::FaultyFs::FailFrom(at_, std::errc::io_error));
      case kNoSpace: return testing::FaultyFs(disk, testing::FaultyFs::FailFrom(at_, std::errc::no_space_on_device));
      case kEioOnce: return testing::FaultyFs(disk, testing::FaultyFs::FailCallAt(at_, std::errc::io_error));
      case kPowerDrop: return testing::FaultyFs(disk, testing::FaultyFs::CutPowerAt(at_, storage::PowerLoss::kDropUnsynced));
      default: return testing::FaultyFs(disk, testing::FaultyFs::CutPowerAt(at_, storage::PowerLoss::kKeepPrefix, keep_));
    }
  }

  std::shared_ptr<const ApiOp> op_;
  Kind kind_;
  int at_, keep_;
};

// A file added by hand, then a read-only process (folio serve --read-only, folio
// inspect) reads everything: it shows the file, and writes no byte and no time stamp.
// Then the writer finds it as usual.
class ReadOnlyLook : public Cmd {
 public:
  explicit ReadOnlyLook(const Model& m) : add_(std::make_shared<HandAddFile>(m)) {}
  void checkPreconditions(const Model& m) const override {
    add_->checkPreconditions(m);
  }
  void apply(Model& m) const override { add_->apply(m); }
  void run(const Model& m, Sut& sut) const override {
    const Model after = nextState(m);
    sut.Close();
    const Status edit = add_->Edit(m, sut.disk());
    if (!edit.ok()) RC_FAIL("the hand edit failed: " + edit.ToString());
    const std::string before = sut.Snapshot();
    RepositoryOptions ro = kRepoOptions;
    ro.read_only = true;
    auto repo = Repository::Open(sut.disk(), kBase, ro);
    if (!repo.ok()) RC_FAIL("read-only open: " + repo.status().ToString());
    sut.Use(*repo);
    sut.LearnIds(after, false);
    Sut::Checks reads;  // the query index and fsck are a writer's
    reads.query = false;
    reads.fsck = false;
    std::string errors = sut.Check(after, reads);
    sut.Close();
    const std::string later = sut.Snapshot();
    if (later != before) errors += "the read-only process wrote:\n" + FirstDifference(before, later);
    sut.Reopen();
    if (!errors.empty()) RC_FAIL(Text() + ":\n" + errors);
    Verify(after, sut, false, Text());
  }
  static std::string FirstDifference(const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    std::string l1, l2, out;
    while (out.size() < 2000) {
      const bool more1 = static_cast<bool>(std::getline(x, l1));
      const bool more2 = static_cast<bool>(std::getline(y, l2));
      if (!more1 && !more2) break;
      if (!more1) l1 = "(none)";
      if (!more2) l2 = "(none)";
      if (l1 != l2) out += "  before: " + l1 + "\n  after:  " + l2 + "\n";
    }
    return out;
  }
  std::string Text() const { return "ReadOnlyLook after " + add_->Text(); }
  void show(std::ostream& os) const override { os << Text(); }

 private:
  std::shared_ptr<const HandAddFile> add_;
};

// A document's record damaged by hand (its series.json), then restored: meanwhile
// everything else answers as before (listings, descendants, the query) and the
// document is left out; restored, it is back, and the query index has caught up.
class DamageRecord : public Cmd {
 public:
  explicit DamageRecord(const Model& m) : doc_(AnyDoc(m)) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_));
  }
  void run(const Model& m, Sut& sut) const override {
    const std::string path = ParentDir(DiskPath(m, doc_)) + "/.folio/docs/" + m.docs.at(doc_).name + "/series.json";
    auto saved = ReadWholeFile(sut.disk(), path);
    if (!saved.ok()) {  // an adopted document (no series yet): nothing of its own to damage
      Verify(m, sut, false, Text());
      return;
    }
    const Status wrote = WriteFileAtomically(sut.disk(), path, "{ damaged");
    if (!wrote.ok()) RC_FAIL("damaging " + path + ": " + wrote.ToString());
    Model without = m;
    without.docs.erase(doc_);
    Sut::Checks damaged;  // fsck reports the damage
    damaged.fsck = false;
    damaged.damaged = doc_;
    damaged.damaged_path = m.PathOf(doc_);
    std::string errors = sut.Check(without, damaged);
    const Status restored = WriteFileAtomically(sut.disk(), path, *saved);
    if (!restored.ok()) RC_FAIL("restoring " + path + ": " + restored.ToString());
    if (!errors.empty()) RC_FAIL(Text() + ", while damaged:\n" + errors);
    Verify(m, sut, false, Text() + " (restored)");
  }
  std::string Text() const { return "DamageRecord " + H(doc_) + " (series.json)"; }
  void show(std::ostream& os) const override { os << Text(); }

 private:
  int doc_;
};

}  // namespace folio::model
