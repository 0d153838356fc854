// Where an object lives in the tree: what the Locator finds for an id or a path and
// every other part of the engine works from.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "folio/object.h"
#include "storage/json_file.h"
#include "storage/layout.h"

namespace folio::repo::hand_edits {
struct AdoptedDoc;
}  // namespace folio::repo::hand_edits

namespace folio::repo::lookup {

struct Loc {
  Loc() = default;
  Loc(BaseType b, std::string i, std::string f, std::string n)
      : base(b), id(std::move(i)), folder(std::move(f)), name(std::move(n)) {}
  BaseType base = BaseType::kFolder;
  std::string id;      // folder, series, item or relationship id
  std::string folder;  // folder: its own path; document/item: its parent's path
  std::string name;    // the object's name ("" for the root folder and relationships)
  // The object's record as read when the location was verified (series.json for a
  // document), so that building the object does not read it again; may be null.
  std::shared_ptr<const storage::Json> record;
  // A document's visible file as stat'ed while resolving its path in this request, so
  // that building it does not stat it again; may be empty.
  std::optional<FileStat> visible;
  // A document found in its folder's adoption table (docs/STORAGE.md §4.1): it has no
  // series directory yet, and `record` is the series.json it stands for, or null when
  // the lookup was asked not to make it (Locator::DocumentTarget). Null otherwise.
  std::shared_ptr<const hand_edits::AdoptedDoc> adopted;

  // The repository-relative path of the folder holding the object (a folder's parent).
  std::string ParentFolder() const { return base == BaseType::kFolder ? storage::ParentPath(folder) : folder; }
  // The object's own repository-relative path ("" for the root folder and relationships).
  std::string Path() const { return base == BaseType::kFolder ? folder : storage::JoinPath(folder, name); }
};

// An object id or path, resolved: a location plus, for documents, which version.
struct Target {
  Loc loc;
  std::optional<std::string> label;  // nullopt: the latest version
  bool pwc = false;
};

// The object `p` points to, moved out when nobody else holds it (objects are built
// non-const, for the caller alone unless memoised), else copied.
inline ObjectData TakeOrCopy(std::shared_ptr<const ObjectData> p) {
  if (p.use_count() == 1) return std::move(const_cast<ObjectData&>(*p));
  return *p;
}

}  // namespace folio::repo::lookup
