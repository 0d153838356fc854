// Property rules: which properties a request may set (updatability), how values are
// coerced to their declared type, and how datetimes move between their stored form
// (ISO 8601 text) and the in-memory form (milliseconds since the epoch).
#pragma once

#include "folio/object.h"
#include "repo/types/types.h"

namespace folio::repo::types {

enum class PropertyMode {
  kCreate,      // readwrite and oncreate allowed
  kUpdate,      // readwrite only
  kUpdatePwc,   // readwrite and whencheckedout
  kCheckIn,     // as kUpdatePwc
};

// Validates `input` (canonical ids -> JSON values; null unsets) against `type` and
// returns it in stored form. `current` (stored form) lets an unchanged oncreate value
// such as cmis:objectTypeId pass (clients resend it). cmis:name and cmis:objectTypeId
// are passed through for the caller to act on.
// Errors: kInvalidArgument naming an unknown property or a value of the wrong type;
// kConstraint naming a property that may not be set in this mode, or a required
// property being unset.
Result<Json> NormalizeProperties(const TypeDef& type, const Json& input, PropertyMode mode,
                                 const Json& current = Json::object());

// Stored form -> in-memory form: datetime values to milliseconds.
Json StoredToMemory(const TypeDef& type, const Json& stored);
Json StoredToMemory(const TypeDef& type, Json&& stored);  // converts `stored` itself

// Required custom properties that `stored` lacks, as kConstraint naming the first.
Status CheckRequired(const TypeDef& type, const Json& stored);

}  // namespace folio::repo::types
