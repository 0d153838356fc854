// Decoding JSON that a client sent (a request body, a `properties` or `addACEs` form
// field, a type definition): the one place that catches nlohmann's exceptions for
// request input and enforces the nesting limit of docs/API.md §9
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "folio/status.h"
#include "storage/json_file.h"

namespace folio::api {

// Request JSON keeps the client's key order (properties are reported in that order).
using Json = nlohmann::ordered_json;

inline constexpr int kMaxJsonDepth = 64;  // docs/API.md §9; `[]` and `{}` are depth 1
// Values in one JSON text (array elements, object members, containers): a parsed value
// costs 16 to 48 bytes whatever its text, so "[0,0,0,...]" would cost 8 times its size.
inline constexpr size_t kMaxJsonValues = 1000000;

// Parses `text` as one JSON value. `what` names it in messages ("request body",
// "parameter 'properties'").
// Errors: kInvalidArgument "<what> is nested deeper than 64 levels" (checked before
// parsing, so deep input costs no recursion), or "<what> is not valid JSON: <reason>"
// (invalid UTF-8 in a string is such a reason); kConstraint when it holds more than
// kMaxJsonValues values (also checked before parsing).
Result<Json> ParseJsonText(std::string_view text, std::string_view what);

// "an object", "a string", ... for messages (storage/json_file.h).
using storage::JsonTypeForMessage;

}  // namespace folio::api
