// Prints the `folio inspect` tree (inspect_model.h): as text a person reads at a
// glance, drawn with ├── └──, or as JSON holding the same information and more.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/inspect_model.h"
#include "folio/object.h"

namespace folio::cli {

struct TextOptions {
  // Every document's history as a table (always for a selected document).
  bool history = false;
};

// One line per node, names in the tree's order; no object ids, so the text of two data
// directories made the same way is the same (a history table, which has them, aside).
// Damage is shown on the node's line ("DAMAGED: ..."); a --depth cut as a last line
// "… N not shown". Ends with a newline.
std::string RenderInspectText(const InspectTree& tree, TextOptions options = {});

// The history of `document` as a table, newest first: label, modified (UTC), by, size,
// comment, id; its working copy first, if checked out, with who holds it. One string
// per line, columns aligned, no line ending.
std::vector<std::string> HistoryTable(const InspectNode& document);

// {"format": 1, "dataDirectory", "selection", "root": node}; every node has "kind",
// "name", "domain", "repository", "path" (null where they do not apply), "damage" (null,
// or what could not be read), "hidden" (null, or how many children --depth left out)
// and its kind's fields (ids, versions oldest first, check-out, acl, ...); datetimes
// are ISO 8601 UTC with milliseconds. docs/INSPECT.md documents every field.
Json InspectToJson(const InspectTree& tree);
// InspectToJson indented by two spaces, ending with a newline.
std::string RenderInspectJson(const InspectTree& tree);

// 0 -> "0 B", 1023 -> "1023 B", 1234 -> "1.2 KiB", 5 << 20 -> "5.0 MiB".
std::string HumanSize(uint64_t bytes);
// A document's versions newest first: "2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0";
// "unversioned" or "no version yet" when that is the case.
std::string VersionHistory(const InspectNode& document);

}  // namespace folio::cli
