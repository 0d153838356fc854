// JSON text written fast: the bytes nlohmann's dump() gives (compact, or pretty with an
// indent; UTF-8 kept as it is; invalid UTF-8 replaced by U+FFFD), without its
// per-character serializer. Strings are copied in runs and only '"', '\' and control
// characters are escaped. Used where JSON text is on the hot path: the commit log's
// records, the JSON files a change writes, the answers' strings.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace folio::storage {

using Json = nlohmann::ordered_json;

// True when `s` goes between quotes as it is: ASCII without control bytes, '"' or '\\'
// (the common case: ids, names, dates).
bool IsPlainAscii(std::string_view s);

// Appends `s` as a JSON string literal, quotes included: byte for byte what
// Json(s).dump(-1, ' ', false, error_handler_t::replace) gives.
void AppendJsonString(std::string& out, std::string_view s);

// Appends `value` as JSON text: byte for byte what value.dump(indent, ' ', false,
// error_handler_t::replace) gives (indent < 0: compact, no spaces).
void AppendJson(std::string& out, const Json& value, int indent = -1);

}  // namespace folio::storage
