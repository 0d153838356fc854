// What the engine returns and takes: objects with their properties under canonical
// CMIS ids ("cmis:name", "cmis:document"). Variant A/B spellings exist only at the
// HTTP edge (src/api/variant.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "folio/fs.h"

namespace folio {

using Json = nlohmann::ordered_json;

enum class BaseType { kDocument, kFolder, kItem, kRelationship };
// "cmis:document", "cmis:folder", "cmis:item", "cmis:relationship".
std::string_view BaseTypeId(BaseType base);

struct ContentInfo {
  uint64_t length = 0;
  std::string mime_type;
  std::string file_name;
  // SHA-256 of the bytes, 64 lowercase hex digits; "" when unknown (docs/STORAGE.md §4).
  std::string sha256;
};

// One access control entry: a principal and its permissions ("cmis:read", ...).
struct Ace {
  std::string principal;
  std::vector<std::string> permissions;
};

// An object as read from the repository. `properties` holds every CMIS property
// under its canonical id, stored and derived alike: datetimes as milliseconds since the
// epoch (JSON integers), unset values as null.
struct ObjectData {
  std::string id;
  BaseType base = BaseType::kDocument;
  std::string type_id;
  std::string name;
  std::string path;       // repository-relative, "" for the root (for a version: its document's)
  std::string parent_id;  // "" for the root folder and relationships
  Json properties = Json::object();
  std::optional<ContentInfo> content;
  std::vector<Ace> acl;
  // Documents only.
  std::string series_id;
  std::string version_label;  // "1.0", or "pwc" for the private working copy
  bool is_pwc = false;
  bool is_latest = false;
  // Where the content was found: the document's own file in its folder (a file added
  // there by hand or by `folio import` and not changed through Folio since, which has
  // no version files, docs/STORAGE.md §4.1) rather than its version's content file.
  // Repository::OpenContent opens it there.
  bool content_in_document_file = false;
};

enum class VersioningState { kMajor, kMinor, kCheckedOut, kNone };

// Content to store. Either bytes in memory (tools, tests) or an upload file that the
// HTTP layer streamed to disk with Repository::NewUpload (moved into place, no copy).
struct ContentSource {
  std::string mime_type;  // "" -> derived from the file name, else application/octet-stream
  std::string file_name;  // "" -> the document's name
  std::optional<std::string> bytes;
  std::string upload_path;  // data-directory-relative path of a finished upload
  std::string sha256;       // of the upload's bytes, when known ("": read them to know)

  static ContentSource FromBytes(std::string data, std::string mime_type = "", std::string file_name = "") {
    ContentSource c;
    c.bytes = std::move(data);
    c.mime_type = std::move(mime_type);
    c.file_name = std::move(file_name);
    return c;
  }
};

// A new object: its type, name and further properties (canonical ids; "cmis:name" and
// "cmis:objectTypeId" in `properties` are ignored in favour of the fields).
struct NewObject {
  std::string type_id;  // "" -> the base type's own id
  std::string name;
  Json properties = Json::object();
  std::vector<Ace> acl;
};

struct CheckInRequest {
  bool major = true;
  std::string comment;
  Json properties = Json::object();  // applied to the new version
  std::optional<ContentSource> content;
  std::vector<Ace> add_aces;
  std::vector<Ace> remove_aces;
};

// A readable content stream with its description.
struct ContentStream {
  ContentInfo info;
  std::unique_ptr<ReadableFile> file;
};

// A child a listing could not read: its record is damaged (docs/STORAGE.md §10).
struct DamagedChild {
  std::string name;     // its name in the folder
  BaseType base = BaseType::kDocument;
  std::string message;  // what is wrong, naming the file
};

struct ChildrenPage {
  std::vector<ObjectData> objects;
  uint64_t total = 0;     // children in the folder (damaged ones not counted)
  bool has_more = false;  // more lie past skip + objects.size()
  // Children of this page that could not be read (left out of `objects`): the folder
  // lists the rest, and folio inspect shows these in place.
  std::vector<DamagedChild> damaged;
};

// A page of a folder's children handed out one at a time (Repository::OpenChildren):
// each is built when asked for and is then the caller's, so that a page of 10,000
// children, or a folder walked to count the children a caller may read, is never held
// whole. Not thread-safe; it holds a snapshot of the folder's listing, not a lock.
class ChildrenCursor {
 public:
  virtual ~ChildrenCursor() = default;
  // The next child of the page; nullopt once the page is done. Children removed since
  // the listing are left out, and so are damaged ones (damaged()). Errors: kStorage
  // other than a damaged record, and what the filter's reads return.
  virtual Result<std::optional<ObjectData>> Next() = 0;
  // Once Next has returned nullopt: ChildrenPage::total and has_more (as Repository::
  // GetChildren counts them; with a filter, only the children it admits count).
  virtual uint64_t total() const = 0;
  virtual bool has_more() const = 0;
  // The children found damaged so far (of the page, or with a filter, of the folder).
  virtual const std::vector<DamagedChild>& damaged() const = 0;
};

// Which end of a relationship an object must be (CMIS relationshipDirection).
enum class RelationshipDirection { kSource, kTarget, kEither };

enum class ChildOrderKey { kName, kCreationDate, kLastModificationDate };
struct ChildOrder {
  ChildOrderKey key = ChildOrderKey::kName;
  bool descending = false;
};

}  // namespace folio
