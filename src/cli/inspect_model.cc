// Builds the `folio inspect` tree through the public engine API (Store, Repository);
// the one exception is the list of relationships, see ListRelationshipIds.
#include "cli/inspect_model.h"

#include <algorithm>
#include <map>
#include <memory>

#include "folio/repository.h"
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

// Reads one repository's objects; holds what is shared by all of them (check-outs,
// custom type definitions).
class RepoReader {
 public:
  explicit RepoReader(std::shared_ptr<folio::Repository> repo) : repo_(std::move(repo)) {}

  Status LoadCheckedOut() {
    FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> pwcs, repo_->GetCheckedOut(""));
    for (ObjectData& pwc : pwcs) checked_out_[pwc.series_id] = std::move(pwc);
    return OkStatus();
  }

  Result<InspectNode> RepositoryTree() {
    const RepositoryInfo& info = repo_->info();
    InspectNode n;
    n.kind = NodeKind::kRepository;
    n.name = info.repository_id;
    n.id = info.root_folder_id;
    n.title = info.name;
    n.description = info.description;
    n.variant = info.variant;
    n.created_ms = info.created_ms;
    FOLIO_ASSIGN_OR_RETURN(n.children, Children(info.root_folder_id));
    FOLIO_ASSIGN_OR_RETURN(n.relationships, Relationships());
    return n;
  }

  // The node of `o` and, for a folder, everything below it.
  Result<InspectNode> Object(const ObjectData& o) {
    InspectNode n;
    n.name = o.name;
    n.path = DisplayPath(o.path);
    n.id = o.base == BaseType::kDocument ? o.series_id : o.id;
    n.type_id = o.type_id;
    n.description = StringProp(o.properties, "cmis:description");
    n.created_by = StringProp(o.properties, "cmis:createdBy");
    n.created_ms = TimeProp(o.properties, "cmis:creationDate");
    FOLIO_ASSIGN_OR_RETURN(n.custom_properties, CustomProperties(o));
    switch (o.base) {
      case BaseType::kFolder: {
        n.kind = NodeKind::kFolder;
        FOLIO_ASSIGN_OR_RETURN(n.children, Children(o.id));
        break;
      }
      case BaseType::kDocument:
        n.kind = NodeKind::kDocument;
        FOLIO_RETURN_IF_ERROR(FillDocument(o, n));
        break;
      case BaseType::kItem: n.kind = NodeKind::kItem; break;
      case BaseType::kRelationship:
        n.kind = NodeKind::kRelationship;
        FillRelationship(o, n);
        break;
    }
    return n;
  }

 private:
  Result<std::vector<InspectNode>> Children(const std::string& folder_id) {
    std::vector<InspectNode> out;
    for (uint64_t skip = 0;; skip += kPageSize) {
      FOLIO_ASSIGN_OR_RETURN(ChildrenPage page, repo_->GetChildren(folder_id, skip, kPageSize));
      for (const ObjectData& o : page.objects) {
        auto child = Object(o);
        if (!child.ok()) {
          // Deleted meanwhile (by hand, or by a server sharing the directory): skip it.
          if (child.status().kind() == ErrorKind::kObjectNotFound) continue;
          return child.status();
        }
        out.push_back(std::move(*child));
      }
      // has_more means a whole page of listing entries was consumed, even when some
      // vanished while being read (the engine skips those).
      if (!page.has_more) break;
    }
    std::stable_partition(out.begin(), out.end(), [](const InspectNode& c) { return c.kind == NodeKind::kFolder; });
    return out;
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
      s.major = BoolProp(v.properties, "cmis:isMajorVersion");
      s.latest = v.is_latest;
      s.latest_major = BoolProp(v.properties, "cmis:isLatestMajorVersion");
      s.comment = StringProp(v.properties, "cmis:checkinComment");
      s.modified_by = StringProp(v.properties, "cmis:lastModifiedBy");
      s.modified_ms = TimeProp(v.properties, "cmis:lastModificationDate");
      s.content = v.content;
      if (v.is_latest) n.content = v.content;
      n.versions.push_back(std::move(s));
    }
    if (!all.empty()) {
      // The document was created with its first version (or its working copy).
      n.created_by = StringProp(all.front().properties, "cmis:createdBy");
      n.created_ms = TimeProp(all.front().properties, "cmis:creationDate");
    }
    n.versionable = o.is_pwc || !o.properties.value("cmis:versionLabel", Json()).is_null();
    // getCheckedOut is the repository's own list; a series whose marker is missing
    // (fsck: checkedout-marker-mismatch) still shows its working copy.
    auto it = checked_out_.find(o.series_id);
    if (it != checked_out_.end()) pwc = &it->second;
    if (pwc != nullptr) {
      CheckOutSummary c;
      c.by = StringProp(pwc->properties, "cmis:versionSeriesCheckedOutBy");
      c.since_ms = TimeProp(pwc->properties, "cmis:versionSeriesCheckedOutDate");
      c.working_copy_id = pwc->id;
      c.content = pwc->content;
      n.checked_out = std::move(c);
    }
    return OkStatus();
  }

  void FillRelationship(const ObjectData& o, InspectNode& n) {
    n.source_id = StringProp(o.properties, "cmis:sourceId");
    n.target_id = StringProp(o.properties, "cmis:targetId");
    n.source_path = PathOf(n.source_id);
    n.target_path = PathOf(n.target_id);
  }

  std::string PathOf(const std::string& id) {
    if (id.empty()) return "";
    auto o = repo_->GetObject(id);
    return o.ok() ? DisplayPath(o->path) : "";
  }

  // Custom properties of `o`; datetimes (milliseconds in ObjectData) as ISO text.
  Result<Json> CustomProperties(const ObjectData& o) {
    Json out = Json::object();
    for (const auto& [key, value] : o.properties.items()) {
      if (key.rfind("cmis:", 0) == 0) continue;
      out[key] = value;
    }
    if (out.empty()) return out;
    FOLIO_ASSIGN_OR_RETURN(const Json* type, TypeDefinition(o.type_id));
    const Json& defs = type->contains("propertyDefinitions") ? (*type)["propertyDefinitions"] : Json::object();
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

  Result<std::vector<InspectNode>> Relationships() {
    FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> all, repo_->GetAllRelationships());
    std::vector<InspectNode> out;
    for (const ObjectData& o : all) {
      FOLIO_ASSIGN_OR_RETURN(InspectNode n, Object(o));
      out.push_back(std::move(n));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const InspectNode& a, const InspectNode& b) { return a.name < b.name; });
    return out;
  }

  std::shared_ptr<folio::Repository> repo_;
  std::map<std::string, ObjectData> checked_out_;  // by series id
  std::map<std::string, Json> types_;
};

Result<InspectNode> RepositoryNode(Store& store, const std::string& domain_id, const std::string& repository_id) {
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<Repository> repo, store.GetRepository(domain_id, repository_id));
  RepoReader reader(repo);
  FOLIO_RETURN_IF_ERROR(reader.LoadCheckedOut());
  return reader.RepositoryTree();
}

Result<InspectNode> DomainNode(Store& store, const DomainInfo& d) {
  InspectNode n;
  n.kind = NodeKind::kDomain;
  n.name = d.domain_id;
  n.description = d.description;
  n.created_ms = d.created_ms;
  FOLIO_ASSIGN_OR_RETURN(std::vector<RepositoryInfo> repos, store.ListRepositories(d.domain_id));
  for (const RepositoryInfo& r : repos) {
    FOLIO_ASSIGN_OR_RETURN(InspectNode child, RepositoryNode(store, d.domain_id, r.repository_id));
    n.children.push_back(std::move(child));
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
  }
  return "unknown";
}

Result<InspectTree> BuildInspectTree(Store& store, const std::string& dir_label, const std::string& selection) {
  const std::vector<std::string> parts = SplitSelection(selection);
  InspectTree tree;
  tree.data_dir = dir_label;
  for (size_t i = 0; i < parts.size(); ++i) tree.selection += (i ? "/" : "") + parts[i];

  if (parts.empty()) {
    tree.root.kind = NodeKind::kDataDir;
    tree.root.name = dir_label;
    FOLIO_ASSIGN_OR_RETURN(std::vector<DomainInfo> domains, store.ListDomains());
    for (const DomainInfo& d : domains) {
      FOLIO_ASSIGN_OR_RETURN(InspectNode n, DomainNode(store, d));
      tree.root.children.push_back(std::move(n));
    }
    return tree;
  }
  FOLIO_ASSIGN_OR_RETURN(DomainInfo domain, store.GetDomain(parts[0]));
  if (parts.size() == 1) {
    FOLIO_ASSIGN_OR_RETURN(tree.root, DomainNode(store, domain));
    return tree;
  }
  if (parts.size() == 2) {
    FOLIO_ASSIGN_OR_RETURN(tree.root, RepositoryNode(store, parts[0], parts[1]));
    return tree;
  }
  std::string path;
  for (size_t i = 2; i < parts.size(); ++i) path += (i > 2 ? "/" : "") + parts[i];
  FOLIO_ASSIGN_OR_RETURN(std::shared_ptr<Repository> repo, store.GetRepository(parts[0], parts[1]));
  auto object = repo->GetObjectByPath(path);
  if (!object.ok()) {
    if (object.status().kind() != ErrorKind::kObjectNotFound) return object.status();
    return ObjectNotFound("no object at '/" + path + "' in repository '" + parts[0] + "/" + parts[1] + "'");
  }
  RepoReader reader(repo);
  FOLIO_RETURN_IF_ERROR(reader.LoadCheckedOut());
  FOLIO_ASSIGN_OR_RETURN(tree.root, reader.Object(*object));
  return tree;
}

}  // namespace folio::cli
