// The text of a document that CONTAINS searches: its content when that is text (text/*,
// JSON, XML, YAML and the like by MIME type, source and text files by extension),
// decoded as UTF-8 with invalid bytes skipped, at most kMaxIndexedTextBytes of it
// (docs/API.md §12.3). The name is indexed separately.
#pragma once

#include <string>
#include <string_view>

#include "folio/repository.h"

namespace folio::query {

inline constexpr size_t kMaxIndexedTextBytes = 1 << 20;

// True when a document with this MIME type or file name holds text worth indexing.
bool IsTextual(std::string_view mime_type, std::string_view file_name);

// `bytes` as valid UTF-8: malformed, overlong and surrogate sequences and NUL bytes are
// dropped; a sequence cut off at the end is dropped too.
std::string ValidUtf8(std::string_view bytes);

// The indexed text of document version `doc`: "" when it has no content or the content
// is not textual. A content that cannot be read is indexed as "" (the name still is).
std::string ExtractText(Repository& repo, const ObjectData& doc);

}  // namespace folio::query
