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

// kDamaged: a child that could not be read at all (its name unknown); other nodes
// that could be read only in part say so in InspectNode::damage.
enum class NodeKind { kDataDir, kDomain, kRepository, kFolder, kDocument, kItem, kRelationship, kDamaged };
// "data", "domain", "repository", "folder", "document", "item", "relationship", "damaged".
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

// A user of a domain: id, display name, the groups it is in (nested ones resolved;
// "user", which every user is in, left out).
struct UserSummary {
  std::string id;
  std::string display_name;
  std::vector<std::string> groups;
};

// A stored group of a domain ("admin", "repository_<id>", custom ones) and its members.
struct GroupSummary {
  std::string id;
  std::vector<std::string> members;
};

// One node of the tree. Which fields are set depends on `kind` (see each comment).
struct InspectNode {
  NodeKind kind = NodeKind::kFolder;
  // Data directory: DIR as given; domain/repository: its id; object: its name.
  std::string name;
  // Objects: repository-relative path with a leading '/' ("/" for the root folder and
  // a repository).
  std::string path;
  // Every node below the data directory: the domain and repository it lies in ("" for
  // the data directory; `repository` "" for a domain).
  std::string domain, repository;
  // Not empty: what could not be read (the node shows what could).
  std::string damage;
  // --depth stopped here: `hidden` children (domains, repositories, objects) not shown.
  bool truncated = false;
  uint64_t hidden = 0;
  std::vector<Ace> acl;  // objects: their access control entries (empty: none stored)
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

  // Domains: users and groups by id; no users: anyone may use the domain.
  std::vector<UserSummary> users;
  std::vector<GroupSummary> groups;

  // Domains: repositories; repositories and folders: folders first, then the other
  // objects, each in name (byte) order; data directory: domains.
  std::vector<InspectNode> children;
  std::vector<InspectNode> relationships;  // repositories only, by name then id
};

struct InspectLimits {
  // Levels shown below the selected node (0: the node alone); negative: all.
  int max_depth = -1;
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
// '/' are ignored. What cannot be read below the selection (a damaged record, a
// repository that does not open) is shown in place (InspectNode::damage, kDamaged
// children); it never fails the whole tree.
// Errors: kObjectNotFound naming the domain, repository or path that does not exist;
// kStorage when the data directory, or the selected node itself, cannot be read.
Result<InspectTree> BuildInspectTree(Store& store, const std::string& dir_label, const std::string& selection,
                                     InspectLimits limits = {});

}  // namespace folio::cli
