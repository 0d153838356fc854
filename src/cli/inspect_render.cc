// Text and JSON forms of the `folio inspect` tree.
#include "cli/inspect_render.h"

#include <cstdio>
#include <vector>

#include "storage/datetime.h"

namespace folio::cli {
namespace {

constexpr const char* kSep = " · ";

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

// Control characters (a name may hold a newline) would break the tree's lines.
std::string Printable(std::string s) {
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return s;
}

bool IsBuiltInType(const InspectNode& n) { return n.type_id.empty() || n.type_id.rfind("cmis:", 0) == 0; }

std::string TypePart(const InspectNode& n) { return IsBuiltInType(n) ? "" : "type " + n.type_id; }

std::string ValueText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::vector<std::string> parts;
    for (const Json& e : v) parts.push_back(ValueText(e));
    return Join(parts, ", ");
  }
  return v.dump();
}

// What follows a node's name on its line.
std::vector<std::string> Annotations(const InspectNode& n) {
  switch (n.kind) {
    case NodeKind::kDataDir: return {};
    case NodeKind::kDomain: return {"domain", n.description};
    case NodeKind::kRepository:
      return {"repository", "variant " + n.variant, n.title == n.name ? "" : n.title, n.description};
    case NodeKind::kFolder: return {TypePart(n), n.description};
    case NodeKind::kDocument: {
      std::vector<std::string> parts;
      if (n.content) {
        parts = {HumanSize(n.content->length), n.content->mime_type};
      } else if (!n.versions.empty()) {
        parts = {"no content"};
      }
      parts.push_back(VersionHistory(n));
      parts.push_back(TypePart(n));
      return parts;
    }
    case NodeKind::kItem: return {"item", TypePart(n), n.description};
    case NodeKind::kRelationship: {
      auto end = [](const std::string& path, const std::string& id) {
        return path.empty() ? "(missing " + id + ")" : path;
      };
      return {end(n.source_path, n.source_id) + " → " + end(n.target_path, n.target_id), TypePart(n)};
    }
  }
  return {};
}

// Lines shown under a node's own line, before its children.
std::vector<std::string> Details(const InspectNode& n) {
  std::vector<std::string> lines;
  if (n.checked_out) {
    const CheckOutSummary& c = *n.checked_out;
    std::string line = "checked out by " + c.by + " since " + storage::FormatIsoSeconds(c.since_ms);
    if (c.content) line += std::string(kSep) + "working copy " + HumanSize(c.content->length);
    lines.push_back(line);
  }
  for (const auto& [key, value] : n.custom_properties.items()) {
    if (!value.is_null()) lines.push_back(key + ": " + ValueText(value));
  }
  return lines;
}

std::string NodeLabel(const InspectNode& n, const std::string& name) {
  std::string label = name;
  if (n.kind == NodeKind::kFolder && label != "/") label += "/";
  if (n.kind == NodeKind::kRelationship && label.empty()) label = "(unnamed)";
  std::string annotations = Join(Annotations(n), kSep);
  return Printable(annotations.empty() ? label : label + "  " + annotations);
}

class TextWriter {
 public:
  // `line` is the node's own line (its connector included); `prefix` what every
  // line below it starts with.
  void Node(const InspectNode& n, const std::string& line, const std::string& prefix) {
    out_ += line + "\n";
    const bool group = n.kind == NodeKind::kRepository && !n.relationships.empty();
    const size_t count = n.children.size() + (group ? 1 : 0);
    // Under the name, indented: below a bar when children follow.
    for (const std::string& d : Details(n)) out_ += prefix + (count ? "│   " : "  ") + Printable(d) + "\n";
    for (size_t i = 0; i < n.children.size(); ++i) {
      const bool last = i + 1 == count;
      Node(n.children[i], prefix + (last ? "└── " : "├── ") + NodeLabel(n.children[i], n.children[i].name),
           prefix + (last ? "    " : "│   "));
    }
    if (group) {
      out_ += prefix + "└── (relationships)\n";
      for (size_t i = 0; i < n.relationships.size(); ++i) {
        const bool last = i + 1 == n.relationships.size();
        const InspectNode& r = n.relationships[i];
        Node(r, prefix + "    " + (last ? "└── " : "├── ") + NodeLabel(r, r.name),
             prefix + (last ? "        " : "    │   "));
      }
    }
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

void ContentJson(const std::optional<ContentInfo>& c, Json& into) {
  into["size"] = c ? Json(c->length) : Json(nullptr);
  into["mimeType"] = c ? Json(c->mime_type) : Json(nullptr);
  into["fileName"] = c ? Json(c->file_name) : Json(nullptr);
}

Json NodeJson(const InspectNode& n) {
  Json j = Json::object();
  j["kind"] = std::string(NodeKindName(n.kind));
  j["name"] = n.name;
  auto children = [](const std::vector<InspectNode>& nodes) {
    Json a = Json::array();
    for (const InspectNode& c : nodes) a.push_back(NodeJson(c));
    return a;
  };
  switch (n.kind) {
    case NodeKind::kDataDir: j["children"] = children(n.children); return j;
    case NodeKind::kDomain:
      j["description"] = n.description;
      j["created"] = storage::FormatIsoMs(n.created_ms);
      j["children"] = children(n.children);
      return j;
    case NodeKind::kRepository:
      j["repositoryName"] = n.title;
      j["description"] = n.description;
      j["variant"] = n.variant;
      j["created"] = storage::FormatIsoMs(n.created_ms);
      j["rootFolderId"] = n.id;
      j["children"] = children(n.children);
      j["relationships"] = children(n.relationships);
      return j;
    default: break;
  }
  j["id"] = n.id;
  j["path"] = n.path;
  j["type"] = n.type_id;
  j["description"] = n.description.empty() ? Json(nullptr) : Json(n.description);
  j["createdBy"] = n.created_by;
  j["created"] = storage::FormatIsoMs(n.created_ms);
  j["properties"] = n.custom_properties;
  if (n.kind == NodeKind::kFolder) {
    j["children"] = children(n.children);
  } else if (n.kind == NodeKind::kDocument) {
    ContentJson(n.content, j);
    j["versionable"] = n.versionable;
    Json versions = Json::array();
    for (const VersionSummary& v : n.versions) {
      Json vj = {{"id", v.id},
                 {"label", v.label},
                 {"major", v.major},
                 {"latest", v.latest},
                 {"latestMajor", v.latest_major},
                 {"comment", v.comment},
                 {"modifiedBy", v.modified_by},
                 {"modified", storage::FormatIsoMs(v.modified_ms)}};
      ContentJson(v.content, vj);
      versions.push_back(std::move(vj));
    }
    j["versions"] = std::move(versions);
    if (n.checked_out) {
      const CheckOutSummary& c = *n.checked_out;
      Json cj = {{"by", c.by}, {"since", storage::FormatIsoMs(c.since_ms)}, {"workingCopyId", c.working_copy_id}};
      ContentJson(c.content, cj);
      j["checkedOut"] = std::move(cj);
    } else {
      j["checkedOut"] = nullptr;
    }
  } else if (n.kind == NodeKind::kRelationship) {
    j["source"] = {{"id", n.source_id}, {"path", n.source_path.empty() ? Json(nullptr) : Json(n.source_path)}};
    j["target"] = {{"id", n.target_id}, {"path", n.target_path.empty() ? Json(nullptr) : Json(n.target_path)}};
  }
  return j;
}

}  // namespace

std::string HumanSize(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  // Switch unit before printf would round up to "1024.0".
  while (v >= 1023.95 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string VersionHistory(const InspectNode& document) {
  if (!document.versionable) return "unversioned";
  if (document.versions.empty()) return "no version yet";
  std::vector<std::string> parts;
  for (auto it = document.versions.rbegin(); it != document.versions.rend(); ++it) {
    std::string part = it->label;
    if (it->latest) {
      part += " (latest)";  // a major latest version is also the latest major one
    } else if (it->latest_major) {
      part += " (latest major)";
    }
    parts.push_back(std::move(part));
  }
  return Join(parts, kSep);
}

std::string RenderInspectText(const InspectTree& tree) {
  const InspectNode& root = tree.root;
  std::string name = root.kind == NodeKind::kDataDir ? tree.data_dir : tree.selection;
  TextWriter w;
  w.Node(root, NodeLabel(root, name), "");
  return w.Take();
}

Json InspectToJson(const InspectTree& tree) {
  return Json{{"dataDirectory", tree.data_dir}, {"selection", tree.selection}, {"root", NodeJson(tree.root)}};
}

std::string RenderInspectJson(const InspectTree& tree) {
  // Replace rather than throw on bytes that are not UTF-8 (a property set by hand).
  return InspectToJson(tree).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace folio::cli
