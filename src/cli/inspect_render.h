// Prints the `folio inspect` tree (inspect_model.h): as text a person reads at a
// glance, drawn with ├── └──, or as JSON holding the same information and more.
#pragma once

#include <cstdint>
#include <string>

#include "cli/inspect_model.h"
#include "folio/object.h"

namespace folio::cli {

// One line per node, names in the tree's order; no object ids, so the text of two data
// directories made the same way is the same. Ends with a newline.
std::string RenderInspectText(const InspectTree& tree);

// {"dataDirectory", "selection", "root": node}; every node has "kind" and "name" and
// its kind's fields (ids, paths, versions oldest first, check-out, ...); datetimes are
// ISO 8601 UTC with milliseconds.
Json InspectToJson(const InspectTree& tree);
// InspectToJson indented by two spaces, ending with a newline.
std::string RenderInspectJson(const InspectTree& tree);

// 0 -> "0 B", 1023 -> "1023 B", 1234 -> "1.2 KiB", 5 << 20 -> "5.0 MiB".
std::string HumanSize(uint64_t bytes);
// A document's versions newest first: "2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0";
// "unversioned" or "no version yet" when that is the case.
std::string VersionHistory(const InspectNode& document);

}  // namespace folio::cli
