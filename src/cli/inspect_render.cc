// Text and JSON forms of the `folio inspect` tree.
#include "cli/inspect_render.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "folio/cmis_ids.h"
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

bool IsBuiltInType(const InspectNode& n) { return n.type_id.empty() || cmis::IsBuiltInId(n.type_id); }

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
    case NodeKind::kDomain: {
      auto count = [](size_t k, const char* one, const char* many) {
        return std::to_string(k) + " " + (k == 1 ? one : many);
      };
      if (n.users.empty()) return {"domain", n.description, "no users (anonymous access)"};
      return {"domain", n.description, count(n.users.size(), "user", "users"),
              count(n.groups.size(), "group", "groups")};
    }
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
    case NodeKind::kDamaged: return {};
  }
  return {};
}

std::string AclText(const std::vector<Ace>& acl) {
  std::vector<std::string> parts;
  for (const Ace& ace : acl) parts.push_back(ace.principal + ": " + Join(ace.permissions, ", "));
  return Join(parts, "; ");
}

// Width in code points, so that a name with accents lines up.
size_t Width(const std::string& s) {
  size_t len = 0;
  for (unsigned char c : s) len += (c & 0xC0) != 0x80;
  return len;
}

std::string Pad(const std::string& s, size_t width) {
  const size_t len = Width(s);
  return len >= width ? s : s + std::string(width - len, ' ');
}

// Lines shown under a node's own line, before its children.
std::vector<std::string> Details(const InspectNode& n) {
  std::vector<std::string> lines;
  for (const UserSummary& u : n.users) {
    std::string line = "user " + u.id;
    if (!u.display_name.empty() && u.display_name != u.id) line += " (" + u.display_name + ")";
    if (!u.groups.empty()) line += std::string(kSep) + "in " + Join(u.groups, ", ");
    lines.push_back(std::move(line));
  }
  for (const GroupSummary& g : n.groups) {
    lines.push_back("group " + g.id + ": " + (g.members.empty() ? "(no members)" : Join(g.members, ", ")));
  }
  if (n.checked_out) {
    const CheckOutSummary& c = *n.checked_out;
    std::string line = "checked out by " + c.by + " since " + storage::FormatIsoSeconds(c.since_ms);
    if (c.content) line += std::string(kSep) + "working copy " + HumanSize(c.content->length);
    lines.push_back(line);
  }
  for (const auto& [key, value] : n.custom_properties.items()) {
    if (!value.is_null()) lines.push_back(key + ": " + ValueText(value));
  }
  if (!n.acl.empty()) lines.push_back("acl: " + AclText(n.acl));
  return lines;
}

std::string NodeLabel(const InspectNode& n, const std::string& name) {
  std::string label = name;
  if (n.kind == NodeKind::kFolder && label != "/") label += "/";
  if (n.kind == NodeKind::kRelationship && label.empty()) label = "(unnamed)";
  std::vector<std::string> parts = Annotations(n);
  if (!n.damage.empty()) parts.push_back("DAMAGED: " + n.damage);
  std::string annotations = Join(parts, kSep);
  return Printable(annotations.empty() ? label : label + "  " + annotations);
}

class TextWriter {
 public:
  explicit TextWriter(TextOptions options) : options_(options) {}

  // `line` is the node's own line (its connector included); `prefix` what every
  // line below it starts with.
  void Node(const InspectNode& n, const std::string& line, const std::string& prefix) {
    out_ += line + "\n";
    const bool group = n.kind == NodeKind::kRepository && !n.relationships.empty();
    const bool cut = n.truncated && n.hidden > 0;
    const size_t count = n.children.size() + (group ? 1 : 0) + (cut ? 1 : 0);
    // Under the name, indented: below a bar when children follow.
    std::vector<std::string> details = Details(n);
    if (n.kind == NodeKind::kDocument && options_.history) {
      for (std::string& row : HistoryTable(n)) details.push_back(std::move(row));
    }
    for (const std::string& d : details) out_ += prefix + (count ? "│   " : "  ") + Printable(d) + "\n";
    for (size_t i = 0; i < n.children.size(); ++i) {
      const bool last = i + 1 == count;
      Node(n.children[i], prefix + (last ? "└── " : "├── ") + NodeLabel(n.children[i], n.children[i].name),
           prefix + (last ? "    " : "│   "));
    }
    if (group) {
      out_ += prefix + (cut ? "├── " : "└── ") + "(relationships)\n";
      for (size_t i = 0; i < n.relationships.size(); ++i) {
        const bool last = i + 1 == n.relationships.size();
        const InspectNode& r = n.relationships[i];
        Node(r, prefix + "    " + (last ? "└── " : "├── ") + NodeLabel(r, r.name),
             prefix + (last ? "        " : "    │   "));
      }
    }
    if (cut) out_ += prefix + "└── … " + std::to_string(n.hidden) + " not shown (--depth)\n";
  }
  std::string Take() { return std::move(out_); }

 private:
  TextOptions options_;
  std::string out_;
};

void ContentJson(const std::optional<ContentInfo>& c, Json& into) {
  into["size"] = c ? Json(c->length) : Json(nullptr);
  into["mimeType"] = c ? Json(c->mime_type) : Json(nullptr);
  into["fileName"] = c ? Json(c->file_name) : Json(nullptr);
}

Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

Json NodeJson(const InspectNode& n) {
  Json j = Json::object();
  j["kind"] = std::string(NodeKindName(n.kind));
  j["name"] = n.name;
  j["domain"] = OrNull(n.domain);
  j["repository"] = OrNull(n.repository);
  j["path"] = OrNull(n.path);
  j["damage"] = OrNull(n.damage);
  j["hidden"] = n.truncated ? Json(n.hidden) : Json(nullptr);
  auto children = [](const std::vector<InspectNode>& nodes) {
    Json a = Json::array();
    for (const InspectNode& c : nodes) a.push_back(NodeJson(c));
    return a;
  };
  switch (n.kind) {
    case NodeKind::kDataDir: j["children"] = children(n.children); return j;
    case NodeKind::kDomain: {
      j["description"] = n.description;
      j["created"] = storage::FormatIsoMs(n.created_ms);
      Json users = Json::array();
      for (const UserSummary& u : n.users) {
        users.push_back({{"userId", u.id}, {"displayName", u.display_name}, {"groups", u.groups}});
      }
      Json groups = Json::array();
      for (const GroupSummary& g : n.groups) groups.push_back({{"groupId", g.id}, {"members", g.members}});
      j["users"] = std::move(users);
      j["groups"] = std::move(groups);
      j["children"] = children(n.children);
      return j;
    }
    case NodeKind::kRepository:
      j["repositoryName"] = n.title;
      j["description"] = n.description;
      j["variant"] = n.variant;
      j["created"] = storage::FormatIsoMs(n.created_ms);
      j["rootFolderId"] = n.id;
      j["children"] = children(n.children);
      j["relationships"] = children(n.relationships);
      return j;
    case NodeKind::kDamaged: return j;
    default: break;
  }
  j["id"] = n.id;
  j["path"] = n.path;
  j["type"] = n.type_id;
  j["description"] = n.description.empty() ? Json(nullptr) : Json(n.description);
  j["createdBy"] = n.created_by;
  j["created"] = storage::FormatIsoMs(n.created_ms);
  j["properties"] = n.custom_properties;
  Json acl = Json::array();
  for (const Ace& ace : n.acl) acl.push_back({{"principal", ace.principal}, {"permissions", ace.permissions}});
  j["acl"] = std::move(acl);
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

std::vector<std::string> HistoryTable(const InspectNode& d) {
  std::vector<std::vector<std::string>> rows = {{"LABEL", "MODIFIED", "BY", "SIZE", "COMMENT", "ID"}};
  auto size = [](const std::optional<ContentInfo>& c) { return c ? HumanSize(c->length) : "-"; };
  if (d.checked_out) {
    const CheckOutSummary& c = *d.checked_out;
    rows.push_back({"pwc", storage::FormatIsoSeconds(c.since_ms), c.by, size(c.content),
                    "(checked out by " + c.by + ")", c.working_copy_id});
  }
  for (auto it = d.versions.rbegin(); it != d.versions.rend(); ++it) {
    const std::string label = d.versionable ? it->label : "(unversioned)";
    rows.push_back({label, storage::FormatIsoSeconds(it->modified_ms), it->modified_by, size(it->content),
                    it->comment, it->id});
  }
  std::vector<size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  }
  std::vector<std::string> lines;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += i + 1 == row.size() ? row[i] : Pad(row[i], widths[i]) + "  ";
    lines.push_back(line);
  }
  return lines;
}

std::string RenderInspectText(const InspectTree& tree, TextOptions options) {
  const InspectNode& root = tree.root;
  std::string name = root.kind == NodeKind::kDataDir ? tree.data_dir : tree.selection;
  if (root.kind == NodeKind::kDocument) options.history = true;
  TextWriter w(options);
  w.Node(root, NodeLabel(root, name), "");
  return w.Take();
}

Json InspectToJson(const InspectTree& tree) {
  return Json{{"format", 1},
              {"dataDirectory", tree.data_dir},
              {"selection", tree.selection},
              {"root", NodeJson(tree.root)}};
}

std::string RenderInspectJson(const InspectTree& tree) {
  // Replace rather than throw on bytes that are not UTF-8 (a property set by hand).
  return InspectToJson(tree).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace folio::cli
