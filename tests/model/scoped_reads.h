// Rule H1 (docs/STORAGE.md §10). Reads in a LookOnce scope (storage/look_once.h) with a
// hand edit in their middle, as a query page or a page of children meets one: the scope
// keeps the stats it made, so its reads see the files as they were when first looked at.
// The promise is that nothing the scope kept outlives it: once it ends, the next read
// sees the edit (the usual check after every step), and nothing read meanwhile was
// written down wrong (fsck is clean, the change log agrees).
//
// Reads before the edit must all succeed (the state is the model's). Reads after it,
// still in the scope, may see a file as it was or as it is, and may miss what went
// (objectNotFound, or kStorage for a file that went between two of their looks); any
// other failure is a bug.
#pragma once

#include <memory>
#include <string>

#include "model/hand_edits.h"
#include "storage/look_once.h"

namespace folio::model {

// One of the hand edits of hand_edits.h, chosen at random.
inline std::shared_ptr<const HandEdit> AnyHandEdit(const Model& m) {
  switch (*rc::gen::inRange(0, 8)) {
    case 0: return std::make_shared<HandAppend>(m);
    case 1: return std::make_shared<HandReplace>(m);
    case 2: return std::make_shared<HandAddFile>(m);
    case 3: return std::make_shared<HandAddDir>(m);
    case 4: return std::make_shared<HandRemoveFile>(m);
    case 5: return std::make_shared<HandRemoveDir>(m);
    case 6: return std::make_shared<HandRenameFile>(m);
    default: return std::make_shared<HandRenameDir>(m);
  }
}

class EditDuringScopedRead : public Cmd {
 public:
  explicit EditDuringScopedRead(const Model& m) : edit_(AnyHandEdit(m)) {}
  void checkPreconditions(const Model& m) const override { edit_->checkPreconditions(m); }
  void apply(Model& m) const override { edit_->apply(m); }
  void run(const Model& m, Sut& sut) const override {
    std::string errors;
    {
      storage::LookOnce scope;
      ReadAll(sut, false, errors);
      const Status edit = edit_->Edit(m, sut.disk());
      if (!edit.ok()) RC_FAIL(Text() + ": the edit itself failed: " + edit.ToString());
      ReadAll(sut, true, errors);
    }
    if (!errors.empty()) RC_FAIL(Text() + ":\n" + errors);
    Verify(nextState(m), sut, false, Text());
  }
  std::string Text() const { return "EditDuringScopedRead: " + edit_->Text(); }
  void show(std::ostream& os) const override { os << Text(); }

 private:
  // Whether a read may fail so: before the edit, never; after it, only by missing what
  // went.
  static bool Allowed(const Status& s, bool after_edit) {
    return after_edit && (s.kind() == ErrorKind::kObjectNotFound || s.kind() == ErrorKind::kStorage);
  }
  // Lists every folder from the root, reads every document's versions and content.
  static void ReadAll(Sut& sut, bool after_edit, std::string& errors) {
    const std::string when = after_edit ? "after the edit: " : "before the edit: ";
    auto note = [&](const std::string& what, const Status& s) {
      if (!s.ok() && !Allowed(s, after_edit)) errors += when + what + ": " + s.ToString() + "\n";
    };
    auto root = sut.repo().GetObjectByPath("");
    if (!root.ok()) return note("the root folder", root.status());
    std::vector<std::string> folders{root->id};
    while (!folders.empty()) {
      const std::string id = folders.back();
      folders.pop_back();
      auto page = sut.repo().GetChildren(id, 0, 100000);
      if (!page.ok()) {
        note("children of " + id, page.status());
        continue;
      }
      if (!after_edit && !page->damaged.empty()) errors += when + "a damaged child " + page->damaged[0].name + "\n";
      for (const ObjectData& o : page->objects) {
        if (o.base == BaseType::kFolder) folders.push_back(o.id);
        if (o.base != BaseType::kDocument) continue;
        auto versions = sut.repo().GetAllVersions(o.series_id);
        note("versions of /" + o.path, versions.status());
        if (!o.content) continue;
        auto content = sut.repo().OpenContent(o);
        note("content of /" + o.path, content.status());
        char buf[4096];
        for (Result<size_t> n = size_t{1}; content.ok() && n.ok() && *n > 0;) {
          n = content->file->Read(buf, sizeof buf);
          note("reading the content of /" + o.path, n.status());
        }
      }
    }
  }

  std::shared_ptr<const HandEdit> edit_;
};

}  // namespace folio::model
