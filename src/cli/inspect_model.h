// The data of `folio inspect`: a tree (data directory, domains, repositories, folders,
// documents with their version history and check-out, items, relationships) read
// through the public engine API. Printing it is inspect_render's job.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "folio/object.h"
#include "folio/status.h"
#include "folio/store.h"

namespace folio::cli {

enum class NodeKind { kDataDir, kDomain, kRepository, kFolder, kDocument, kItem, kRelationship };
// "data", "domain", "repository", "folder", "document", "item", "relationship".
std::string_view NodeKindName(NodeKind kind);

// One version of a document.
struct VersionSummary {
  std::string id;
  std::string label;
  bool major = false;
  bool latest = false;
  bool latest_major = false;
  std::string comment;
  std::string modified_by;
  int64_t modified_ms = 0;
  std::optional<ContentInfo> content;  // nullopt: the version has no content stream
};

// Who holds a checked-out series, since when, and the working copy's content.
struct CheckOutSummary {
  std::string by;
  int64_t since_ms = 0;
  std::string working_copy_id;
  std::optional<ContentInfo> content;
};

// One node of the tree. Which fields are set depends on `kind` (see each comment).
struct InspectNode {
  NodeKind kind = NodeKind::kFolder;
  // Data directory: DIR as given; domain/repository: its id; object: its name.
  std::string name;
  // Objects: repository-relative path with a leading '/' ("/" for the root folder).
  std::string path;
  // Objects: object id (a document: its version series id); repository: root folder id.
  std::string id;
  std::string type_id;      // objects: "cmis:document", or a custom type id
  std::string description;  // domains, repositories, and objects that have one
  std::string title;        // repositories: repositoryName
  std::string variant;      // repositories: "A" or "B"
  int64_t created_ms = 0;   // a document: its first version's creation
  std::string created_by;   // objects

  // Documents. `content` is the latest version's (nullopt: none, or no version yet).
  std::optional<ContentInfo> content;
  bool versionable = true;
  std::vector<VersionSummary> versions;  // oldest first, the working copy excluded
  std::optional<CheckOutSummary> checked_out;

  // Objects: properties whose ids are not "cmis:" ones (custom types), by id;
  // datetimes as ISO 8601 text.
  Json custom_properties = Json::object();

  // Relationships: the ends, by id and by path ("" when the end no longer exists).
  std::string source_id, source_path, target_id, target_path;

  // Domains: repositories; repositories and folders: folders first, then the other
  // objects, each in name (byte) order; data directory: domains.
  std::vector<InspectNode> children;
  std::vector<InspectNode> relationships;  // repositories only, by name then id
};

// What `folio inspect` shows: the selected node and what lies below it.
struct InspectTree {
  std::string data_dir;   // DIR as given
  std::string selection;  // "" (everything) or "domain[/repository[/path]]", normalised
  InspectNode root;
};

// Reads the tree of `selection` from `store`: "" is the whole data directory (its root
// node named `dir_label`); "demo", "demo/plain", "demo/plain/Projects/Apollo" a domain,
// a repository, or a folder, document or item in it. Leading, trailing and repeated
// '/' are ignored.
// Errors: kObjectNotFound naming the domain, repository or path that does not exist;
// kStorage when the data directory cannot be read.
Result<InspectTree> BuildInspectTree(Store& store, const std::string& dir_label, const std::string& selection);

}  // namespace folio::cli
