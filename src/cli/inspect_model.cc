// Builds the `folio inspect` tree through the public engine API (Store, Repository);
// the one exception is the list of relationships, see ListRelationshipIds.
#include "cli/inspect_model.h"

#include <algorithm>
#include <map>
#include <memory>

#include "folio/cmis_ids.h"
#include "folio/repository.h"
#include "repo/acl/account_files.h"
#include "repo/acl/principals.h"
#include "storage/datetime.h"

namespace folio::cli {
namespace {

constexpr uint64_t kPageSize = 100;

std::string StringProp(const Json& props, const char* id) {
  auto it = props.find(id);
  return it != props.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t TimeProp(const Json& props, const char* id) {
  auto it = props.find(id);
  return it != props.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

bool BoolProp(const Json& props, const char* id) {
  auto it = props.find(id);
  return it != props.end() && it->is_boolean() && it->get<bool>();
}

std::string DisplayPath(const std::string& repo_relative) { return "/" + repo_relative; }

// "/a//b/" -> {"a", "b"}.
std::vector<std::string> SplitSelection(const std::string& selection) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= selection.size()) {
    size_t end = selection.find('/', start);
    if (end == std::string::npos) end = selection.size();
    if (end > start) parts.push_back(selection.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// A child that could not be read at all, shown in its place.
InspectNode DamagedNode(const Status& s, const std::string& domain, const std::string& repository) {
  InspectNode n;
  n.kind = NodeKind::kDamaged;
  n.name = "(unreadable)";
  n.domain = domain;
  n.repository = repository;
  n.damage = s.message();
  return n;
}

// Reads one repository's objects; holds what is shared by all of them (check-outs,
// custom type definitions).
class RepoReader {
 public:
  RepoReader(std::shared_ptr<folio::Repository> repo, InspectLimits limits) : repo_(std::move(repo)), limits_(limits) {}

  // A repository whose list of check-outs cannot be read still shows its tree.
  void LoadCheckedOut(InspectNode& into) {
    auto pwcs = repo_->GetCheckedOut("");
    if (!pwcs.ok()) {
      into.damage = "cannot list the checked-out documents: " + pwcs.status().message();
      return;
    }
    for (ObjectData& pwc : *pwcs) checked_out_[pwc.series_id] = std::move(pwc);
  }

  // `depth`: the node's level below the selected one.
  InspectNode RepositoryTree(int depth) {
    const RepositoryInfo& info = repo_->info();
    InspectNode n;
    n.kind = NodeKind::kRepository;
    n.name = info.repository_id;
    n.domain = info.domain_id;
    n.repository = info.repository_id;
    n.path = "/";
    n.id = info.root_folder_id;
    n.title = info.name;
    n.description = info.description;
    n.variant = info.variant;
    n.created_ms = info.created_ms;
    LoadCheckedOut(n);
    Children(info.root_folder_id, depth, n);
    if (!n.truncated) Relationships(depth, n);
    return n;
  }

  // The node of `o` and, for a folder, what lies below it down to the depth limit.
  // Errors: kObjectNotFound when `o` was removed meanwhile; anything else is shown in
  // the node (damage).
  Result<InspectNode> Object(const ObjectData& o, int depth) {
    InspectNode n;
    n.name = o.name;
    n.path = DisplayPath(o.path);
    n.domain = repo_->info().domain_id;
    n.repository = repo_->info().repository_id;
    n.id = o.base == BaseType::kDocument ? o.series_id : o.id;
    n.type_id = o.type_id;
    n.description = StringProp(o.properties, cmis::kDescription);
    n.created_by = StringProp(o.properties, cmis::kCreatedBy);
    n.created_ms = TimeProp(o.properties, cmis::kCreationDate);
    n.acl = o.acl;
    auto custom = CustomProperties(o);
    if (custom.ok()) {
      n.custom_properties = std::move(*custom);
    } else {
      n.damage = "cannot read its type '" + o.type_id + "': " + custom.status().message();
    }
    switch (o.base) {
      case BaseType::kFolder: {
        n.kind = NodeKind::kFolder;
        Children(o.id, depth, n);
        break;
      }
      case BaseType::kDocument: {
        n.kind = NodeKind::kDocument;
        Status s = FillDocument(o, n);
        if (s.kind() == ErrorKind::kObjectNotFound) return s;
        if (!s.ok()) n.damage = "cannot read its versions: " + s.message();
        break;
      }
      case BaseType::kItem: n.kind = NodeKind::kItem; break;
      case BaseType::kRelationship:
        n.kind = NodeKind::kRelationship;
        FillRelationship(o, n);
        break;
    }
    return n;
  }

 private:
  // The children of folder `folder_id` (the node `into`, at `depth`), or their count
  // when the depth limit is reached.
  void Children(const std::string& folder_id, int depth, InspectNode& into) {
    if (limits_.max_depth >= 0 && depth >= limits_.max_depth) {
      into.truncated = true;
      auto count = repo_->GetChildren(folder_id, 0, 0);
      if (count.ok()) into.hidden = count->total;
      return;
    }
    std::vector<InspectNode>& out = into.children;
    for (uint64_t skip = 0;; skip += kPageSize) {
      auto page = repo_->GetChildren(folder_id, skip, kPageSize);
      if (!page.ok()) {
        // One unreadable child fails its whole page: read that page one by one, so
        // that the others still show and the damaged one shows in its place.
        auto count = repo_->GetChildren(folder_id, 0, 0);
        if (!count.ok()) {
          into.damage = "cannot list its children: " + count.status().message();
          break;
        }
        const uint64_t end = std::min<uint64_t>(count->total, skip + kPageSize);
        for (uint64_t i = skip; i < end; ++i) {
          auto one = repo_->GetChildren(folder_id, i, 1);
          if (!one.ok()) {
            out.push_back(DamagedNode(one.status(), into.domain, into.repository));
            continue;
          }
          for (const ObjectData& o : one->objects) Add(o, depth, out);
        }
        if (end >= count->total) break;
        continue;
      }
      for (const ObjectData& o : page->objects) Add(o, depth, out);
      // The engine leaves a damaged child out of the page and names it: shown in place.
      for (const DamagedChild& d : page->damaged) {
        InspectNode n = DamagedNode(StorageError(d.message), into.domain, into.repository);
        n.name = d.name;
        n.path = into.path == "/" ? "/" + d.name : into.path + "/" + d.name;
        out.push_back(std::move(n));
      }
      // has_more means a whole page of listing entries was consumed, even when some
      // vanished while being read (the engine skips those).
      if (!page->has_more) break;
    }
    // Damaged children were added after their page: back into name order, folders first.
    std::stable_sort(out.begin(), out.end(), [](const InspectNode& a, const InspectNode& b) { return a.name < b.name; });
    std::stable_partition(out.begin(), out.end(), [](const InspectNode& c) { return c.kind == NodeKind::kFolder; });
  }

  void Add(const ObjectData& o, int depth, std::vector<InspectNode>& out) {
    auto child = Object(o, depth + 1);
    // Deleted meanwhile (by hand, or by a server sharing the directory): skip it.
    if (child.ok()) out.push_back(std::move(*child));
  }

  Status FillDocument(const ObjectData& o, InspectNode& n) {
    FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> all, repo_->GetAllVersions(o.series_id));
    const ObjectData* pwc = nullptr;
    for (const ObjectData& v : all) {
      if (v.is_pwc) {
        pwc = &v;
        continue;
      }
      VersionSummary s;
      s.id = v.id;
      s.label = v.version_label;
      s.major = BoolProp(v.properties, cmis::kIsMajorVersion);
      s.latest = v.is_latest;
      s.latest_major = BoolProp(v.properties, cmis::kIsLatestMajorVersion);
      s.comment = StringProp(v.properties, cmis::kCheckinComment);
      s.modified_by = StringProp(v.properties, cmis::kLastModifiedBy);
      s.modified_ms = TimeProp(v.properties, cmis::kLastModificationDate);
      s.content = v.content;
      if (v.is_latest) n.content = v.content;
      n.versions.push_back(std::move(s));
    }
    if (!all.empty()) {
      // The document was created with its first version (or its working copy).
      n.created_by = StringProp(all.front().properties, cmis::kCreatedBy);
      n.created_ms = TimeProp(all.front().properties, cmis::kCreationDate);
    }
    n.versionable = o.is_pwc || !o.properties.value(cmis::kVersionLabel, Json()).is_null();
    // getCheckedOut is the repository's own list; a series whose marker is missing
    // (fsck: checkedout-marker-mismatch) still shows its working copy.
    auto it = checked_out_.find(o.series_id);
    if (it != checked_out_.end()) pwc = &it->second;
    if (pwc != nullptr) {
      CheckOutSummary c;
      c.by = StringProp(pwc->properties, cmis::kVersionSeriesCheckedOutBy);
      c.since_ms = TimeProp(pwc->properties, cmis::kVersionSeriesCheckedOutDate);
      c.working_copy_id = pwc->id;
      c.content = pwc->content;
      n.checked_out = std::move(c);
    }
    return OkStatus();
  }

  void FillRelationship(const ObjectData& o, InspectNode& n) {
    n.source_id = StringProp(o.properties, cmis::kSourceId);
    n.target_id = StringProp(o.properties, cmis::kTargetId);
    n.source_path = PathOf(n.source_id);
    n.target_path = PathOf(n.target_id);
  }

  std::string PathOf(const std::string& id) {
    if (id.empty()) return "";
    auto o = repo_->GetObject(id);
    return o.ok() ? DisplayPath(o->path) : "";
  }

  // Custom properties of `o` (its type's and its secondary types', with the list of
  // those as cmis:secondaryObjectTypeIds); datetimes (milliseconds in ObjectData) as ISO
  // text.
  Result<Json> CustomProperties(const ObjectData& o) {
    Json out = Json::object();
    for (const auto& [key, value] : o.properties.items()) {
      if (cmis::IsBuiltInId(key)) continue;
      out[key] = value;
    }
    const auto secondary = o.properties.find(cmis::kSecondaryObjectTypeIds);
    const bool has_secondary = secondary != o.properties.end() && secondary->is_array() && !secondary->empty();
    if (has_secondary) out[cmis::kSecondaryObjectTypeIds] = *secondary;
    if (out.empty()) return out;
    FOLIO_ASSIGN_OR_RETURN(const Json* type, TypeDefinition(o.type_id));
    Json defs = type->contains("propertyDefinitions") ? (*type)["propertyDefinitions"] : Json::object();
    if (has_secondary) {
      for (const Json& id : *secondary) {
        if (!id.is_string()) continue;
        auto own = TypeDefinition(id.get<std::string>());
        if (!own.ok() || !(*own)->contains("propertyDefinitions")) continue;
        for (auto it = (**own)["propertyDefinitions"].begin(); it != (**own)["propertyDefinitions"].end(); ++it) {
          if (!defs.contains(it.key())) defs[it.key()] = *it;
        }
      }
    }
    for (auto& [key, value] : out.items()) {
      if (!defs.contains(key) || defs[key].value("propertyType", "") != "datetime") continue;
      auto to_iso = [](Json& v) {
        if (v.is_number_integer()) v = storage::FormatIsoMs(v.get<int64_t>());
      };
      if (value.is_array()) {
        for (Json& v : value) to_iso(v);
      } else {
        to_iso(value);
      }
    }
    return out;
  }

  Result<const Json*> TypeDefinition(const std::string& type_id) {
    auto it = types_.find(type_id);
    if (it == types_.end()) {
      FOLIO_ASSIGN_OR_RETURN(Json def, repo_->GetTypeDefinition(type_id));
      it = types_.emplace(type_id, std::move(def)).first;
    }
    return &it->second;
  }

  void Relationships(int depth, InspectNode& into) {
    auto all = repo_->GetAllRelationships();
    if (!all.ok()) {
      into.damage = "cannot read its relationships: " + all.status().message();
      return;
    }
    std::vector<InspectNode>& out = into.relationships;
    for (const ObjectData& o : *all) Add(o, depth, out);
    std::stable_sort(out.begin(), out.end(),
                     [](const InspectNode& a, const InspectNode& b) { return a.name < b.name; });
  }

  std::shared_ptr<folio::Repository> repo_;
  std::map<std::string, ObjectData> checked_out_;  // by series id
  std::map<std::string, Json> types_;
  InspectLimits limits_;
};

// A repository that does not open is shown, damaged, in its place.
InspectNode RepositoryNode(Store& store, const std::string& domain_id, const std::string& repository_id, int depth,
                           InspectLimits limits) {
  auto repo = store.GetRepository(domain_id, repository_id);
  if (!repo.ok()) {
    InspectNode n;
    n.kind = NodeKind::kRepository;
    n.name = repository_id;
    n.domain = domain_id;
    n.repository = repository_id;
    n.path = "/";
    n.damage = repo.status().message();
    return n;
  }
  RepoReader reader(*repo, limits);
  return reader.RepositoryTree(depth);
}

InspectNode DomainNode(Store& store, const DomainInfo& d, int depth, InspectLimits limits) {
  InspectNode n;
  n.kind = NodeKind::kDomain;
  n.name = d.domain_id;
  n.domain = d.domain_id;
  n.description = d.description;
  n.created_ms = d.created_ms;
  // Users and groups as Folio reads them (a file it cannot read is left out, as Folio
  // does; fsck reports it).
  if (auto files = acl::ReadAccountFiles(store, d.domain_id); files.ok()) {
    const acl::Principals principals(std::move(files->users), std::move(files->groups));
    for (const auto& [id, user] : principals.users()) {
      UserSummary u{id, user.display_name, {}};
      for (const std::string& g : principals.GroupsOf(id)) {
        if (g != acl::kUserGroup) u.groups.push_back(g);
      }
      n.users.push_back(std::move(u));
    }
    for (const auto& [id, group] : principals.groups()) n.groups.push_back(GroupSummary{id, group.members});
  } else {
    n.damage = "cannot read its users and groups: " + files.status().message();
  }
  auto repos = store.ListRepositories(d.domain_id);
  if (!repos.ok()) {
    n.damage = "cannot list its repositories: " + repos.status().message();
    return n;
  }
  if (limits.max_depth >= 0 && depth >= limits.max_depth) {
    n.truncated = true;
    n.hidden = repos->size();
    return n;
  }
  for (const RepositoryInfo& r : *repos) {
    n.children.push_back(RepositoryNode(store, d.domain_id, r.repository_id, depth + 1, limits));
  }
  return n;
}

}  // namespace

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kDataDir: return "data";
    case NodeKind::kDomain: return "domain";
    case NodeKind::kRepository: return "repository";
    case NodeKind::kFolder: return "folder";
    case NodeKind::kDocument: return "document";
    case NodeKind::kItem: return "item";
    case NodeKind::kRelationship: return "relationship";
    case NodeKind::kDamaged: return "damaged";
  }
  return "unknown";
}

Result<InspectTree> BuildInspectTree(Store& store, const std::string& dir_label, const std::string& selection,
                                     InspectLimits limits) {
  const std::vector<std::string> parts = SplitSelection(selection);
  InspectTree tree;
  tree.data_dir = dir_label;
  for (size_t i = 0; i < parts.size(); ++i) tree.selection += (i ? "/" : "") + parts[i];

  if (parts.empty()) {
    tree.root.kind = NodeKind::kDataDir;
    tree.root.name = dir_label;
    FOLIO_ASSIGN_OR_RETURN(std::vector<DomainInfo> domains, store.ListDomains());
    if (limits.max_depth == 0) {
      tree.root.truncated = true;
      tree.root.hidden = domains.size();
      return tree;
    }
    for (const DomainInfo& d : domains) tree.root.children.push_back(DomainNode(store, d, 1, limits));
    return tree;
  }
  FOLIO_ASSIGN_OR_RETURN(DomainInfo domain, store.GetDomain(parts[0]));
  if (parts.size() == 1) {
    tree.root = DomainNode(store, domain, 0, limits);
    return tree;
  }
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<Repository> repo, store.GetRepository(parts[0], parts[1]));
  RepoReader reader(repo, limits);
  if (parts.size() == 2) {
    tree.root = reader.RepositoryTree(0);
    return tree;
  }
  std::string path;
  for (size_t i = 2; i < parts.size(); ++i) path += (i > 2 ? "/" : "") + parts[i];
  auto object = repo->GetObjectByPath(path);
  if (!object.ok()) {
    if (object.status().kind() != ErrorKind::kObjectNotFound) return object.status();
    return ObjectNotFound("no object at '/" + path + "' in repository '" + parts[0] + "/" + parts[1] + "'");
  }
  InspectNode checked_out;
  reader.LoadCheckedOut(checked_out);
  auto node = reader.Object(*object, 0);
  if (!node.ok()) return node.status();
  tree.root = std::move(*node);
  if (tree.root.damage.empty()) tree.root.damage = checked_out.damage;
  return tree;
}

}  // namespace folio::cli
