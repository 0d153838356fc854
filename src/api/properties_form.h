// Reading properties and access control entries out of Params, in both of their
// encodings (docs/API.md §3.2–§3.3, §3.3): JSON (`properties`, `addACEs`, `removeACEs`)
// and the CMIS form convention (propertyId[N]/propertyValue[N][M],
// addACEPrincipal[N]/addACEPermission[N][M], and the remove... pair).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_input.h"
#include "api/params.h"
#include "folio/status.h"

namespace folio::api {

// At most this many properties in one request (docs/API.md §9). Exceeding it is
// kConstraint: the request is well formed but over a server limit, like an oversized
// body (also `constraint`, docs/API.md §9).
inline constexpr size_t kMaxProperties = 1000;

// The properties of the request as an ordered JSON object, canonical id -> value, in
// the order the client gave them; an empty object when none were given.
// - From `properties` (a JSON object, or a string holding one): values are kept as
//   sent (string, number, boolean, null, or an array of those); an empty array is null
//   ("not set", docs/API.md §3.4).
// - From the form: propertyValue[N] gives a string ("" gives null, "not set"),
//   propertyValue[N][M] an array of strings, propertyId[N] alone null. Indices start at
//   0 and have no gaps.
// Ids are made canonical (ToCanonicalPropertyId: "name" -> "cmis:name"), and so are
// the type ids in the values of cmis:objectTypeId, cmis:baseTypeId,
// cmis:secondaryObjectTypeIds and cmis:allowedChildObjectTypeIds ("document" ->
// "cmis:document"). Whether an id exists or may be set is for the caller to decide.
// Errors: kInvalidArgument when both encodings are used, a control name is malformed
// ("propertyValue[x]"), indices have gaps ("... has gaps"), a value has no id, an id is
// empty or given twice (after canonicalisation), or a JSON value is an object or an
// array holding non-scalars; kConstraint when there are more than kMaxProperties.
Result<Json> ReadProperties(const Params& params);

struct Ace {
  std::string principal;                 // principalId
  std::vector<std::string> permissions;  // as sent: "cmis:read", "cmis:write", "cmis:all", ...
  bool operator==(const Ace&) const = default;
};

enum class AceList { kAdd, kRemove };

// The ACEs to add or to remove, in the order given; empty when none were given.
// JSON: `addACEs` / `removeACEs` is an array (or a string holding one) of
// {"principal": {"principalId": "alice"}, "permissions": ["cmis:read"]}; a bare string
// principal and a single permission string are also accepted.
// Form: addACEPrincipal[N] with addACEPermission[N][M] (remove... likewise).
// Errors: kInvalidArgument when both encodings are used, an entry has no principal or
// no permissions, a permission is not a non-empty string, a control name is malformed,
// indices have gaps, or a permission has no principal (each message names the entry).
Result<std::vector<Ace>> ReadAces(const Params& params, AceList which);

// The values of the form controls "<prefix>[N]" in index order ("objectId[0]",
// "objectId[1]", ... for bulkUpdate; prefix matched case-insensitively); empty when
// there are none. At most `max` of them. With kAllowed, a missing index gives "" (a
// changeToken[N] for some objects only).
// Errors: kInvalidArgument for a malformed control name ("objectId[x]", "objectId[0][1]"),
// a value that is not a string, or (kRefused) gaps in the indices; kConstraint for more
// than `max`.
enum class IndexGaps { kRefused, kAllowed };
Result<std::vector<std::string>> ReadIndexedStrings(const Params& params, std::string_view prefix, size_t max,
                                                    IndexGaps gaps = IndexGaps::kRefused);

// `text` without one pair of surrounding JSON double quotes, JSON escapes decoded:
// "\"acme:x\"" -> "acme:x" (CmisJS's deleteType, docs/API.md §3.8). Other text is returned
// unchanged.
std::string StripJsonQuotes(std::string_view text);

}  // namespace folio::api
