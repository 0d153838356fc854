// The operations of the model-based test (model_test.cc), as RapidCheck commands: each
// is generated from the model's state, applies its effect to the model (apply), makes
// the same change on the system under test (run) and checks the whole repository
// against the model afterwards. Objects are named by model handles (#0 is the root
// folder), so that a shrunk sequence prints as a readable script.
//
// Requests (ApiOp) predict from the model whether they must succeed (Succeeds) and
// what they change (Change); a request that must fail must change nothing (the model
// stays as it was and the engine must agree, change log included). Hand edits change
// the disk directly, as a person would; Restart, PowerLoss and Faulty play a process
// that exits, a machine that loses power, and a disk that fails in the middle of a
// request (FaultyFs).
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "model/sut.h"
#include "support/faulty_fs.h"

namespace folio::model {

inline constexpr size_t kMaxPath = 4000;  // contract §8

using Cmd = rc::state::Command<Model, Sut>;

// --- Generating -------------------------------------------------------------------

inline std::vector<int> FolderHandles(const Model& m, bool with_root) {
  std::vector<int> out;
  for (const auto& [h, f] : m.folders) {
    if (h != 0 || with_root) out.push_back(h);
  }
  return out;
}
inline std::vector<int> DocHandles(const Model& m) {
  std::vector<int> out;
  for (const auto& [h, d] : m.docs) out.push_back(h);
  return out;
}
inline int AnyFolder(const Model& m, bool with_root = true) {
  const std::vector<int> hs = FolderHandles(m, with_root);
  RC_PRE(!hs.empty());
  return *rc::gen::elementOf(hs);
}
inline int AnyDoc(const Model& m) {
  const std::vector<int> hs = DocHandles(m);
  RC_PRE(!hs.empty());
  return *rc::gen::elementOf(hs);
}
// A few names, so that they collide often.
inline std::string AnyName() { return *rc::gen::elementOf(std::vector<std::string>{"a", "b", "c.txt", "d.txt"}); }
inline std::string AnyBytes() {
  return *rc::gen::resize(4, rc::gen::container<std::string>(rc::gen::inRange('p', 'x')));
}
inline std::string ShowName(const std::string& name) {
  return name.size() > 20 ? "L*" + std::to_string(name.size()) : "\"" + name + "\"";
}
inline std::string H(int h) { return "#" + std::to_string(h); }

// True when `path` is within the limit (contract §8): past it, a request is refused.
inline bool PathFits(const std::string& path) { return path.size() <= kMaxPath; }
// The longest path below folder `f` (itself included), relative to `f`'s parent.
inline size_t DeepestBelow(const Model& m, int f) {
  size_t deepest = 0;
  const size_t base = m.PathOf(f).size() - m.folders.at(f).name.size();
  for (const auto& [h, folder] : m.folders) {
    if (h != 0 && m.Within(h, f)) deepest = std::max(deepest, m.PathOf(h).size() - base);
  }
  for (const auto& [h, d] : m.docs) {
    if (m.Within(d.parent, f)) deepest = std::max(deepest, m.PathOf(h).size() - base);
  }
  return deepest;
}
// The path an object named `name` gets in folder `f`.
inline std::string PathIn(const Model& m, int f, const std::string& name) {
  const std::string up = m.PathOf(f);
  return up.empty() ? name : up + "/" + name;
}

// --- Checking ---------------------------------------------------------------------

// After a step: learns the ids of new objects, checks the repository against `after`,
// and reads the change log: a request that failed must have logged nothing, and every
// object logged as deleted must be gone.
inline void Verify(const Model& after, Sut& sut, bool failed, const std::string& step) {
  ++Sut::StepsRun();
  sut.LearnIds(after);
  std::string errors = sut.Check(after, {});
  const std::vector<std::string> events = sut.NewEvents();
  for (const std::string& e : events) {
    if (e.rfind("<", 0) == 0) errors += "change log: " + e + "\n";
    if (failed) errors += "a failed request logged: " + e + "\n";
    if (e.rfind("deleted ", 0) == 0) {
      auto o = sut.repo().GetObject(e.substr(8));
      if (o.ok()) errors += "logged deleted, yet still there: " + e + " at /" + o->path + "\n";
    }
  }
  if (!errors.empty()) RC_FAIL("after " + step + ":\n" + errors);
}

// --- Requests ---------------------------------------------------------------------

// The id a client has of object `h`: a folder's id; a document's series id, or its
// working copy's id while it has no version (created checked out: the series id names
// the latest version, of which there is none).
inline std::string ObjectId(const Model& m, Sut& sut, int h) {
  return m.HasDoc(h) && m.docs.at(h).versions.empty() ? sut.Id(h) + ";pwc" : sut.Id(h);
}

class ApiOp : public Cmd {
 public:
  // Whether the contract says the request succeeds in state `m`.
  virtual bool Succeeds(const Model& m) const = 0;
  // What it changes when it does.
  virtual void Change(Model& m) const = 0;
  // Makes the request on `r`, recording in `sut` the id of what it makes.
  virtual Status Request(const Model& m, Repository& r, Sut& sut) const = 0;
  virtual std::string Text() const = 0;
  // The error kind of a refusal, where the contract names one (checked when no fault
  // is injected).
  virtual std::optional<ErrorKind> Refusal(const Model&) const { return std::nullopt; }

  void apply(Model& m) const override {
    if (Succeeds(m)) Change(m);
  }
  void run(const Model& m, Sut& sut) const override {
    const bool want = Succeeds(m);
    const Status s = Request(m, sut.repo(), sut);
    if (s.ok() != want) {
      RC_FAIL(Text() + (want ? " failed: " + s.ToString() : std::string(" succeeded; the model expected a failure")));
    }
    if (const auto kind = Refusal(m); !want && kind && s.kind() != *kind) {
      RC_FAIL(Text() + " failed as expected, but with " + s.ToString());
    }
    Verify(nextState(m), sut, !s.ok(), Text());
  }
  void show(std::ostream& os) const override { os << Text(); }
};

class CreateFolder : public ApiOp {
 public:
  explicit CreateFolder(const Model& m) : h_(m.NextHandle()), parent_(AnyFolder(m)), name_(AnyName()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(!m.Exists(h_) && m.HasFolder(parent_));
  }
  bool Succeeds(const Model& m) const override {
    return !m.NameTaken(parent_, name_) && PathFits(PathIn(m, parent_, name_));
  }
  void Change(Model& m) const override { m.folders[h_] = Folder{parent_, name_, "", {}}; }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    NewObject o;
    o.name = name_;
    auto made = r.CreateFolder(sut.Id(parent_), o, kUser, WriteCheck::Trusted());
    if (made.ok()) sut.SetId(h_, made->id);
    return made.status();
  }
  std::string Text() const override { return "CreateFolder " + H(h_) + " " + ShowName(name_) + " in " + H(parent_); }

 private:
  int h_, parent_;
  std::string name_;
};

// Folders nested `count` deep, each named with `length` L's (200 to 255 bytes): what
// reaches the path limit, at any offset of it.
class CreateDeepFolders : public ApiOp {
 public:
  explicit CreateDeepFolders(const Model& m)
      : h_(m.NextHandle()), parent_(AnyFolder(m)), count_(*rc::gen::inRange(1, 21)), length_(*rc::gen::inRange(200, 256)) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasFolder(parent_));
    for (int i = 0; i < count_; ++i) RC_PRE(!m.Exists(h_ + i));
  }
  // As many as fit are made, one request each; the first that does not fit fails
  // (constraint, contract §8), and the run stops there.
  bool Succeeds(const Model& m) const override { return Made(m) == count_; }
  std::optional<ErrorKind> Refusal(const Model& m) const override {
    return m.NameTaken(parent_, Name()) ? ErrorKind::kNameConstraintViolation : ErrorKind::kConstraint;
  }
  void Change(Model&) const override {}
  void apply(Model& m) const override {
    const int made = Made(m);
    for (int i = 0; i < made; ++i) m.folders[h_ + i] = Folder{i == 0 ? parent_ : h_ + i - 1, Name(), "", {}};
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    std::string parent = sut.Id(parent_);
    for (int i = 0; i < count_; ++i) {
      NewObject o;
      o.name = Name();
      auto made = r.CreateFolder(parent, o, kUser, WriteCheck::Trusted());
      if (!made.ok()) return made.status();
      sut.SetId(h_ + i, made->id);
      parent = made->id;
    }
    return OkStatus();
  }
  std::string Text() const override {
    return "CreateDeepFolders " + H(h_) + ".." + H(h_ + count_ - 1) + " L*" + std::to_string(length_) + " nested in " +
           H(parent_);
  }

 private:
  std::string Name() const { return std::string(static_cast<size_t>(length_), 'L'); }
  int Made(const Model& m) const {
    if (m.NameTaken(parent_, Name())) return 0;
    std::string path = m.PathOf(parent_);
    for (int i = 0; i < count_; ++i) {
      path += (path.empty() ? "" : "/") + Name();
      if (!PathFits(path)) return i;
    }
    return count_;
  }
  int h_, parent_, count_, length_;
};

class CreateDocument : public ApiOp {
 public:
  explicit CreateDocument(const Model& m)
      : h_(m.NextHandle()), parent_(AnyFolder(m)), name_(AnyName()), bytes_(AnyBytes()),
        state_(*rc::gen::elementOf(std::vector<VersioningState>{VersioningState::kMajor, VersioningState::kMinor,
                                                                 VersioningState::kCheckedOut})) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(!m.Exists(h_) && m.HasFolder(parent_));
  }
  bool Succeeds(const Model& m) const override {
    return !m.NameTaken(parent_, name_) && PathFits(PathIn(m, parent_, name_));
  }
  void Change(Model& m) const override {
    Doc d;
    d.parent = parent_;
    d.name = name_;
    if (state_ == VersioningState::kCheckedOut) {
      d.pwc = bytes_;
      d.pwc_name = name_;
    } else {
      Version v;
      v.major = state_ == VersioningState::kMajor ? 1 : 0;
      v.minor = state_ == VersioningState::kMajor ? 0 : 1;
      v.content = bytes_;
      v.name = name_;
      d.versions.push_back(v);
    }
    m.docs[h_] = d;
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    NewObject o;
    o.name = name_;
    auto made = r.CreateDocument(sut.Id(parent_), o, ContentSource::FromBytes(bytes_, "text/plain"), state_, kUser,
                                 WriteCheck::Trusted());
    if (made.ok()) sut.SetId(h_, made->series_id);
    return made.status();
  }
  std::string Text() const override {
    const char* state = state_ == VersioningState::kMajor ? "major" : state_ == VersioningState::kMinor ? "minor" : "checkedOut";
    return "CreateDocument " + H(h_) + " " + ShowName(name_) + " in " + H(parent_) + " " + state + " \"" + bytes_ + "\"";
  }

 private:
  int h_, parent_;
  std::string name_, bytes_;
  VersioningState state_;
};

// updateProperties cmis:description of a folder or a document. A document's series id
// names its working copy while it is checked out (docs/API.md §6.4: changes between
// check-out and check-in go to the working copy), else its latest version.
class SetDescription : public ApiOp {
 public:
  explicit SetDescription(const Model& m) : target_(*rc::gen::elementOf(Targets(m))), text_(AnyBytes()) {}
  static std::vector<int> Targets(const Model& m) {
    std::vector<int> out = FolderHandles(m, false);
    for (int h : DocHandles(m)) out.push_back(h);
    RC_PRE(!out.empty());
    return out;
  }
  void checkPreconditions(const Model& m) const override { RC_PRE(target_ != 0 && m.Exists(target_)); }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override {
    if (m.HasFolder(target_)) {
      m.folders[target_].description = text_;
    } else if (m.docs[target_].pwc) {
      m.docs[target_].pwc_description = text_;
    } else {
      m.docs[target_].versions.back().description = text_;
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.UpdateProperties(sut.Id(target_), Json{{"cmis:description", text_}}, kUser,
                              WriteCheck::Trusted()).status();
  }
  std::string Text() const override { return "SetDescription " + H(target_) + " \"" + text_ + "\""; }

 private:
  int target_;
  std::string text_;
};

// updateProperties cmis:name: a rename of a folder or a document; of a checked-out
// document, its working copy's name, which its check-in gives the document.
class Rename : public ApiOp {
 public:
  explicit Rename(const Model& m) : target_(*rc::gen::elementOf(SetDescription::Targets(m))), name_(AnyName()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(target_ != 0 && m.Exists(target_));
  }
  // A checked-out document with a version: the working copy's name, which its check-in
  // gives the document. One created checked out (no version) is named by its working
  // copy alone: renamed at once.
  bool RenamesWorkingCopyOnly(const Model& m) const {
    return m.HasDoc(target_) && m.docs.at(target_).pwc && !m.docs.at(target_).versions.empty();
  }
  bool Fits(const Model& m) const {
    if (m.HasDoc(target_)) return PathFits(PathIn(m, m.docs.at(target_).parent, name_));
    const Folder& f = m.folders.at(target_);
    return m.PathOf(f.parent).size() + 1 + DeepestBelow(m, target_) - f.name.size() + name_.size() <= kMaxPath;
  }
  bool Succeeds(const Model& m) const override {
    if (RenamesWorkingCopyOnly(m)) return true;  // checked for at check-in
    const int parent = m.HasFolder(target_) ? m.folders.at(target_).parent : m.docs.at(target_).parent;
    const std::string& now = m.HasFolder(target_) ? m.folders.at(target_).name : m.docs.at(target_).name;
    return (now == name_ || !m.NameTaken(parent, name_)) && Fits(m);
  }
  void Change(Model& m) const override {
    if (m.HasFolder(target_)) {
      m.folders[target_].name = name_;
    } else if (RenamesWorkingCopyOnly(m)) {
      m.docs[target_].pwc_name = name_;
    } else if (m.docs[target_].versions.empty()) {
      m.docs[target_].name = name_;
      m.docs[target_].pwc_name = name_;
    } else {
      m.docs[target_].name = name_;
      m.docs[target_].versions.back().name = name_;
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.UpdateProperties(sut.Id(target_), Json{{"cmis:name", name_}}, kUser, WriteCheck::Trusted()).status();
  }
  std::string Text() const override { return "Rename " + H(target_) + " to " + ShowName(name_); }

 private:
  int target_;
  std::string name_;
};

// setContent by the document's series id (its working copy while checked out, else its
// latest version), by the working copy's id, or by the latest version's own id (that
// version in place, also while the series is checked out).
class SetContent : public ApiOp {
 public:
  enum Target { kSeries, kPwc, kLatestVersion };
  explicit SetContent(const Model& m)
      : doc_(AnyDoc(m)), target_(static_cast<Target>(*rc::gen::inRange(0, 3))), bytes_(AnyBytes()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_));
    const Doc& d = m.docs.at(doc_);
    if (target_ == kPwc) RC_PRE(d.pwc.has_value());
    if (target_ == kLatestVersion) RC_PRE(!d.versions.empty());
  }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override {
    Doc& d = m.docs[doc_];
    if (target_ == kPwc || (target_ == kSeries && d.pwc)) {
      d.pwc = bytes_;
    } else {
      d.versions.back().content = bytes_;
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    std::string id = sut.Id(doc_);
    if (target_ == kPwc) id += ";pwc";
    if (target_ == kLatestVersion) id += ";" + m.docs.at(doc_).versions.back().Label();
    return r.SetContent(id, ContentSource::FromBytes(bytes_, "text/plain"), true, kUser,
                        WriteCheck::Trusted()).status();
  }
  std::string Text() const override {
    static const char* const kTargets[] = {"series", "pwc", "latest version"};
    return std::string("SetContent ") + H(doc_) + " " + kTargets[target_] + " \"" + bytes_ + "\"";
  }

 private:
  int doc_;
  Target target_;
  std::string bytes_;
};

class Move : public ApiOp {
 public:
  explicit Move(const Model& m) : target_(*rc::gen::elementOf(Targets(m))), to_(AnyFolder(m)) {}
  static std::vector<int> Targets(const Model& m) {
    std::vector<int> out = FolderHandles(m, false);
    for (int h : DocHandles(m)) out.push_back(h);
    RC_PRE(!out.empty());
    return out;
  }
  void checkPreconditions(const Model& m) const override {
    RC_PRE(target_ != 0 && m.Exists(target_) && m.HasFolder(to_));
  }
  bool Fits(const Model& m) const {
    const size_t below = m.HasFolder(target_) ? DeepestBelow(m, target_) : m.docs.at(target_).name.size();
    return m.PathOf(to_).size() + 1 + below <= kMaxPath;
  }
  bool Succeeds(const Model& m) const override {
    const bool folder = m.HasFolder(target_);
    const int parent = folder ? m.folders.at(target_).parent : m.docs.at(target_).parent;
    const std::string& name = folder ? m.folders.at(target_).name : m.docs.at(target_).name;
    if (folder && m.Within(to_, target_)) return false;  // into itself or below
    if (parent == to_) return true;                      // where it is: nothing to do
    return !m.NameTaken(to_, name) && Fits(m);
  }
  void Change(Model& m) const override {
    if (m.HasFolder(target_)) {
      m.folders[target_].parent = to_;
    } else {
      m.docs[target_].parent = to_;
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.Move(ObjectId(m, sut, target_), sut.Id(to_), "", kUser, WriteCheck::Trusted()).status();
  }
  std::string Text() const override { return "Move " + H(target_) + " to " + H(to_); }

 private:
  int target_, to_;
};

// delete of a whole document (its series id, allVersions).
class DeleteDocument : public ApiOp {
 public:
  explicit DeleteDocument(const Model& m) : doc_(AnyDoc(m)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(m.HasDoc(doc_)); }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override { m.docs.erase(doc_); }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.Delete(ObjectId(m, sut, doc_), true, WriteCheck::Trusted());
  }
  std::string Text() const override { return "DeleteDocument " + H(doc_); }

 private:
  int doc_;
};

// delete of one version (allVersions false): the one before becomes the latest; the
// only one takes the document along; the base of the working copy is refused.
class DeleteVersion : public ApiOp {
 public:
  explicit DeleteVersion(const Model& m) : doc_(AnyDoc(m)), index_(*rc::gen::inRange(0, 4)) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_));
    const Doc& d = m.docs.at(doc_);
    const int n = static_cast<int>(d.versions.size());
    RC_PRE(index_ < n);
  }
  // The name the document takes: the version before's, when the latest goes.
  std::string NameAfter(const Model& m) const {
    const Doc& d = m.docs.at(doc_);
    const size_t n = d.versions.size();
    return n > 1 && static_cast<size_t>(index_) == n - 1 ? d.versions[n - 2].name : d.name;
  }
  bool Succeeds(const Model& m) const override {
    const Doc& d = m.docs.at(doc_);
    if (d.versions.size() == 1) return true;
    if (d.pwc && d.pwc_from == d.versions[index_].Label()) return false;
    const std::string name = NameAfter(m);
    return name == d.name || (!m.NameTaken(d.parent, name) && PathFits(PathIn(m, d.parent, name)));
  }
  void Change(Model& m) const override {
    Doc& d = m.docs[doc_];
    if (d.versions.size() == 1) {
      m.docs.erase(doc_);
    } else {
      d.name = NameAfter(m);
      d.versions.erase(d.versions.begin() + index_);
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.Delete(sut.Id(doc_) + ";" + m.docs.at(doc_).versions[index_].Label(), false, WriteCheck::Trusted());
  }
  std::string Text() const override { return "DeleteVersion " + H(doc_) + " index " + std::to_string(index_); }

 private:
  int doc_, index_;
};

class DeleteFolder : public ApiOp {
 public:
  explicit DeleteFolder(const Model& m) : folder_(AnyFolder(m, false)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(folder_ != 0 && m.HasFolder(folder_)); }
  bool Succeeds(const Model& m) const override { return m.IsEmpty(folder_); }
  void Change(Model& m) const override { m.folders.erase(folder_); }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.Delete(sut.Id(folder_), true, WriteCheck::Trusted());
  }
  std::string Text() const override { return "DeleteFolder " + H(folder_); }

 private:
  int folder_;
};

class DeleteTree : public ApiOp {
 public:
  explicit DeleteTree(const Model& m) : folder_(AnyFolder(m, false)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(folder_ != 0 && m.HasFolder(folder_)); }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override { m.RemoveTree(folder_); }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    auto left = r.DeleteTree(sut.Id(folder_), WriteCheck::Trusted());
    if (left.ok() && !left->empty()) return RuntimeError("deleteTree left " + std::to_string(left->size()) + " objects");
    return left.status();
  }
  std::string Text() const override { return "DeleteTree " + H(folder_); }

 private:
  int folder_;
};

// checkOut of the latest version (index -1) or of one version by its id.
class CheckOut : public ApiOp {
 public:
  explicit CheckOut(const Model& m) : doc_(AnyDoc(m)), index_(*rc::gen::inRange(-1, 3)) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_));
    RC_PRE(index_ < static_cast<int>(m.docs.at(doc_).versions.size()));
    RC_PRE(!m.docs.at(doc_).versions.empty());
  }
  bool Succeeds(const Model& m) const override { return !m.docs.at(doc_).pwc; }
  const Version& From(const Doc& d) const { return index_ < 0 ? d.versions.back() : d.versions[index_]; }
  void Change(Model& m) const override {
    Doc& d = m.docs[doc_];
    const Version& v = From(d);
    d.pwc = v.content;
    d.pwc_from = v.Label();
    d.pwc_description = v.description;
    // The working copy of an earlier version has that version's properties, its name
    // too (its check-in restores it); the latest version's name is the document's.
    d.pwc_name = &v == &d.versions.back() ? d.name : v.name;
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.CheckOut(index_ < 0 ? sut.Id(doc_) : sut.Id(doc_) + ";" + From(m.docs.at(doc_)).Label(), kUser,
                      WriteCheck::Trusted()).status();
  }
  std::string Text() const override {
    return "CheckOut " + H(doc_) + (index_ < 0 ? std::string(" latest") : " index " + std::to_string(index_));
  }

 private:
  int doc_, index_;
};

class CheckIn : public ApiOp {
 public:
  explicit CheckIn(const Model& m)
      : doc_(AnyDoc(m)), major_(*rc::gen::arbitrary<bool>()), with_content_(*rc::gen::arbitrary<bool>()),
        bytes_(AnyBytes()) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(m.HasDoc(doc_) && m.docs.at(doc_).pwc); }
  bool Succeeds(const Model& m) const override {
    const Doc& d = m.docs.at(doc_);
    return d.pwc_name == d.name || !m.NameTaken(d.parent, d.pwc_name);
  }
  void Change(Model& m) const override {
    Doc& d = m.docs[doc_];
    Version v = Model::NextVersion(d, major_);
    v.content = with_content_ ? bytes_ : *d.pwc;
    v.description = d.pwc_description;
    v.name = d.pwc_name;
    d.versions.push_back(v);
    d.name = d.pwc_name;
    d.pwc.reset();
    d.pwc_from.clear();
    d.pwc_description.clear();
    d.pwc_name.clear();
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    CheckInRequest req;
    req.major = major_;
    if (with_content_) req.content = ContentSource::FromBytes(bytes_, "text/plain");
    return r.CheckIn(sut.Id(doc_) + ";pwc", req, kUser, WriteCheck::Trusted()).status();
  }
  std::string Text() const override {
    return "CheckIn " + H(doc_) + (major_ ? " major" : " minor") + (with_content_ ? " \"" + bytes_ + "\"" : " (no content)");
  }

 private:
  int doc_;
  bool major_, with_content_;
  std::string bytes_;
};

class CancelCheckOut : public ApiOp {
 public:
  explicit CancelCheckOut(const Model& m) : doc_(AnyDoc(m)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(m.HasDoc(doc_) && m.docs.at(doc_).pwc); }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override {
    Doc& d = m.docs[doc_];
    if (d.versions.empty()) {
      m.docs.erase(doc_);  // created checked out: nothing is left
      return;
    }
    d.pwc.reset();
    d.pwc_from.clear();
    d.pwc_description.clear();
    d.pwc_name.clear();
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    return r.CancelCheckOut(sut.Id(doc_) + ";pwc", WriteCheck::Trusted());
  }
  std::string Text() const override { return "CancelCheckOut " + H(doc_); }

 private:
  int doc_;
};

// applyACL granting or taking cmis:read to a principal, on a folder or a document's
// series.
class ApplyAcl : public ApiOp {
 public:
  explicit ApplyAcl(const Model& m)
      : target_(*rc::gen::elementOf(Move::Targets(m))),
        principal_(*rc::gen::elementOf(std::vector<std::string>{"bob", "carol"})), add_(*rc::gen::arbitrary<bool>()) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(target_ != 0 && m.Exists(target_)); }
  bool Succeeds(const Model&) const override { return true; }
  void Change(Model& m) const override {
    std::set<std::string>& readers = m.HasFolder(target_) ? m.folders[target_].readers : m.docs[target_].readers;
    if (add_) {
      readers.insert(principal_);
    } else {
      readers.erase(principal_);
    }
  }
  Status Request([[maybe_unused]] const Model& m, Repository& r, Sut& sut) const override {
    const std::vector<Ace> aces{Ace{principal_, {"cmis:read"}}};
    return r.ApplyAcl(ObjectId(m, sut, target_), add_ ? aces : std::vector<Ace>{}, add_ ? std::vector<Ace>{} : aces,
                      WriteCheck::Trusted()).status();
  }
  std::string Text() const override {
    return "ApplyAcl " + H(target_) + (add_ ? " add " : " remove ") + principal_ + " cmis:read";
  }

 private:
  int target_;
  std::string principal_;
  bool add_;
};

}  // namespace folio::model
