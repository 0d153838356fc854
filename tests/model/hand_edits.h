// Hand edits of the model-based test (model_test.cc): what a person does to the data
// directory with a shell (docs/STORAGE.md §9), made on the disk directly, each followed
// by the sync a careful person's tool makes. The model says what Folio must show then:
// an edited file is new content of the latest version (never of an earlier one, nor of
// the working copy), an added file is a new document (1.0) and an added directory a new
// folder, a removed file or directory takes its objects along, a folder renamed keeps
// its ids, a document file renamed is a removal and an addition.
#pragma once

#include "model/commands.h"

namespace folio::model {

// The disk path of a model object (the repository directory for the root folder).
inline std::string DiskPath(const Model& m, int h) {
  const std::string p = m.PathOf(h);
  return p.empty() ? kBase : kBase + "/" + p;
}
inline std::string DiskPathIn(const Model& m, int folder, const std::string& name) {
  return DiskPath(m, folder) + "/" + name;
}
inline std::string ParentDir(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

class HandEdit : public Cmd {
 public:
  virtual Status Edit(const Model& m, Fs& disk) const = 0;
  virtual std::string Text() const = 0;
  void run(const Model& m, Sut& sut) const override {
    const Status s = Edit(m, sut.disk());
    if (!s.ok()) RC_FAIL(Text() + ": the edit itself failed: " + s.ToString());
    Verify(nextState(m), sut, false, Text());
  }
  void show(std::ostream& os) const override { os << Text(); }
};

// Writes `bytes` as a new file at `path` and syncs it and its directory.
inline Status WriteNewFile(Fs& disk, const std::string& path, const std::string& bytes) {
  FOLIO_ASSIGN_OR_RETURN(auto file, disk.CreateNew(path));
  FOLIO_RETURN_IF_ERROR(file->Append(bytes));
  FOLIO_RETURN_IF_ERROR(file->Sync());
  FOLIO_RETURN_IF_ERROR(file->Close());
  return disk.SyncDir(ParentDir(path));
}

// `echo bytes >> file`: an edit in place of a document's visible file.
class HandAppend : public HandEdit {
 public:
  explicit HandAppend(const Model& m) : doc_(AnyDoc(m)), bytes_(AnyBytes()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_) && !m.docs.at(doc_).versions.empty() && !bytes_.empty());
  }
  void apply(Model& m) const override { m.docs[doc_].versions.back().content += bytes_; }
  Status Edit(const Model& m, Fs& disk) const override {
    FOLIO_ASSIGN_OR_RETURN(auto file, disk.OpenRandomAccess(DiskPath(m, doc_)));
    FOLIO_ASSIGN_OR_RETURN(uint64_t size, file->Size());
    FOLIO_RETURN_IF_ERROR(file->WriteAt(size, bytes_));
    return file->DataSync();
  }
  std::string Text() const override { return "HandAppend " + H(doc_) + " \"" + bytes_ + "\""; }

 private:
  int doc_;
  std::string bytes_;
};

// An editor's save: a new file renamed over the visible file.
class HandReplace : public HandEdit {
 public:
  explicit HandReplace(const Model& m) : doc_(AnyDoc(m)), bytes_(AnyBytes()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_) && !m.docs.at(doc_).versions.empty());
  }
  void apply(Model& m) const override { m.docs[doc_].versions.back().content = bytes_; }
  Status Edit(const Model& m, Fs& disk) const override {
    const std::string tmp = "hand-edit.tmp";  // beside the domains: outside every repository
    FOLIO_RETURN_IF_ERROR(WriteNewFile(disk, tmp, bytes_));
    FOLIO_RETURN_IF_ERROR(disk.Rename(tmp, DiskPath(m, doc_)));
    return disk.SyncDir(ParentDir(DiskPath(m, doc_)));
  }
  std::string Text() const override { return "HandReplace " + H(doc_) + " \"" + bytes_ + "\""; }

 private:
  int doc_;
  std::string bytes_;
};

class HandAddFile : public HandEdit {
 public:
  explicit HandAddFile(const Model& m) : h_(m.NextHandle()), folder_(AnyFolder(m)), name_(AnyName()), bytes_(AnyBytes()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(!m.Exists(h_) && m.HasFolder(folder_) && !m.NameTaken(folder_, name_));
    RC_PRE(PathFits(PathIn(m, folder_, name_)));
  }
  void apply(Model& m) const override {
    Doc d;
    d.parent = folder_;
    d.name = name_;
    d.versions.push_back(Version{1, 0, bytes_, "", name_});
    m.docs[h_] = d;
  }
  int folder() const { return folder_; }
  Status Edit(const Model& m, Fs& disk) const override { return WriteNewFile(disk, DiskPathIn(m, folder_, name_), bytes_); }
  std::string Text() const override {
    return "HandAddFile " + H(h_) + " " + ShowName(name_) + " in " + H(folder_) + " \"" + bytes_ + "\"";
  }

 private:
  int h_, folder_;
  std::string name_, bytes_;
};

class HandAddDir : public HandEdit {
 public:
  explicit HandAddDir(const Model& m) : h_(m.NextHandle()), folder_(AnyFolder(m)), name_(AnyName()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(!m.Exists(h_) && m.HasFolder(folder_) && !m.NameTaken(folder_, name_));
    RC_PRE(PathFits(PathIn(m, folder_, name_)));
  }
  void apply(Model& m) const override { m.folders[h_] = Folder{folder_, name_, "", {}}; }
  Status Edit(const Model& m, Fs& disk) const override {
    FOLIO_RETURN_IF_ERROR(disk.MakeDir(DiskPathIn(m, folder_, name_)));
    return disk.SyncDir(DiskPath(m, folder_));
  }
  std::string Text() const override { return "HandAddDir " + H(h_) + " " + ShowName(name_) + " in " + H(folder_); }

 private:
  int h_, folder_;
  std::string name_;
};

class HandRemoveFile : public HandEdit {
 public:
  explicit HandRemoveFile(const Model& m) : doc_(AnyDoc(m)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(m.HasDoc(doc_)); }
  void apply(Model& m) const override { m.docs.erase(doc_); }
  Status Edit(const Model& m, Fs& disk) const override {
    FOLIO_RETURN_IF_ERROR(disk.Remove(DiskPath(m, doc_)));
    return disk.SyncDir(ParentDir(DiskPath(m, doc_)));
  }
  std::string Text() const override { return "HandRemoveFile " + H(doc_); }

 private:
  int doc_;
};

class HandRemoveDir : public HandEdit {
 public:
  explicit HandRemoveDir(const Model& m) : folder_(AnyFolder(m, false)) {}
  void checkPreconditions(const Model& m) const override { RC_PRE(folder_ != 0 && m.HasFolder(folder_)); }
  void apply(Model& m) const override { m.RemoveTree(folder_); }
  Status Edit(const Model& m, Fs& disk) const override {
    FOLIO_RETURN_IF_ERROR(disk.RemoveTree(DiskPath(m, folder_)));
    return disk.SyncDir(ParentDir(DiskPath(m, folder_)));
  }
  std::string Text() const override { return "HandRemoveDir " + H(folder_); }

 private:
  int folder_;
};

// `mv` of a document file: a removal and an addition (a new document, 1.0, holding
// the latest content).
class HandRenameFile : public HandEdit {
 public:
  explicit HandRenameFile(const Model& m) : doc_(AnyDoc(m)), h_(m.NextHandle()), to_(AnyFolder(m)), name_(AnyName()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(m.HasDoc(doc_) && !m.Exists(h_) && m.HasFolder(to_) && !m.NameTaken(to_, name_));
    RC_PRE(!m.docs.at(doc_).versions.empty());
    RC_PRE(PathFits(PathIn(m, to_, name_)));
  }
  void apply(Model& m) const override {
    Doc d;
    d.parent = to_;
    d.name = name_;
    d.versions.push_back(Version{1, 0, m.docs.at(doc_).versions.back().content, "", name_});
    m.docs.erase(doc_);
    m.docs[h_] = d;
  }
  Status Edit(const Model& m, Fs& disk) const override {
    const std::string from = DiskPath(m, doc_);
    const std::string to = DiskPathIn(m, to_, name_);
    FOLIO_RETURN_IF_ERROR(disk.Rename(from, to));
    FOLIO_RETURN_IF_ERROR(disk.SyncDir(ParentDir(to)));
    return disk.SyncDir(ParentDir(from));
  }
  std::string Text() const override {
    return "HandRenameFile " + H(doc_) + " to " + ShowName(name_) + " in " + H(to_) + " as " + H(h_);
  }

 private:
  int doc_, h_, to_;
  std::string name_;
};

// `mv` of a folder's directory: the folder keeps its id, and so does all it holds.
class HandRenameDir : public HandEdit {
 public:
  explicit HandRenameDir(const Model& m) : folder_(AnyFolder(m, false)), to_(AnyFolder(m)), name_(AnyName()) {}
  void checkPreconditions(const Model& m) const override {
    RC_PRE(folder_ != 0 && m.HasFolder(folder_) && m.HasFolder(to_) && !m.Within(to_, folder_));
    RC_PRE(!m.NameTaken(to_, name_));
    RC_PRE(m.PathOf(to_).size() + 1 + DeepestBelow(m, folder_) - m.folders.at(folder_).name.size() + name_.size() <=
           kMaxPath);
  }
  void apply(Model& m) const override {
    m.folders[folder_].parent = to_;
    m.folders[folder_].name = name_;
  }
  Status Edit(const Model& m, Fs& disk) const override {
    const std::string from = DiskPath(m, folder_);
    const std::string to = DiskPathIn(m, to_, name_);
    FOLIO_RETURN_IF_ERROR(disk.Rename(from, to));
    FOLIO_RETURN_IF_ERROR(disk.SyncDir(ParentDir(to)));
    return disk.SyncDir(ParentDir(from));
  }
  std::string Text() const override {
    return "HandRenameDir " + H(folder_) + " to " + ShowName(name_) + " in " + H(to_);
  }

 private:
  int folder_, to_;
  std::string name_;
};

}  // namespace folio::model
