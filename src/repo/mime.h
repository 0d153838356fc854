// MIME types derived from file names, for content sent without a usable type
// (docs/API.md §3.7: browsers send application/octet-stream).
#pragma once

#include <string>
#include <string_view>

namespace folio::repo {

inline constexpr const char* kUnknownMimeType = "application/octet-stream";

// "report.PDF" -> "application/pdf"; unknown -> "application/octet-stream".
std::string MimeTypeForName(std::string_view file_name);

}  // namespace folio::repo
