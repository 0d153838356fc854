// The limits on a request's fields (docs/API.md, "Limits"): every parameter that is not a
// file (urlencoded bodies, multipart fields other than the content part, a JSON body and
// its values) is held in memory, so it is bounded; content parts are streamed to disk
// and bounded only by --max-body.
#pragma once

#include <cstddef>
#include <string_view>

#include "api/json_input.h"
#include "folio/status.h"

namespace folio::api {

// One form field value, one form field name, one JSON string value (a property value).
inline constexpr size_t kMaxFieldBytes = size_t{1} << 20;  // 1 MiB
// All fields of one request together: names and values, or a whole JSON body.
inline constexpr size_t kMaxFormBytes = size_t{16} << 20;  // 16 MiB
// What one field costs beyond its bytes when counted against kMaxFormBytes: the memory of
// holding it (two strings, a vector slot), so that a million empty fields cost what a
// megabyte of text costs.
inline constexpr size_t kFieldOverheadBytes = 64;

// Counts the fields of one request, as they arrive, against kMaxFieldBytes and
// kMaxFormBytes. Not thread-safe (one request is read by one thread).
class FormBudget {
 public:
  // Starts a new field (charges kFieldOverheadBytes).
  // Errors: kConstraint when the request's fields exceed kMaxFormBytes.
  Status BeginField();
  // Charges `bytes` more of the name of the current field. `name` is what has arrived of
  // it so far, for the message.
  // Errors: kConstraint "form field name '<name...>' is larger than the limit of 1 MiB
  // (1048576 bytes)"; or over kMaxFormBytes in all (as AddValue).
  Status AddName(std::string_view name, size_t bytes);
  // Charges `bytes` more of the value of field `name`.
  // Errors: kConstraint "form field '<name>' is larger than the limit of 1 MiB (1048576
  // bytes) for one value", or "the form fields of the request are larger than the limit
  // of 16 MiB (16777216 bytes) in all (at form field '<name>')".
  Status AddValue(std::string_view name, size_t bytes);

 private:
  Status AddTotal(std::string_view name, size_t bytes);

  size_t name_ = 0;
  size_t value_ = 0;
  size_t total_ = 0;
};

// The error for a JSON body larger than kMaxFormBytes (a JSON body is all fields).
Status JsonBodyTooLarge();

// Checks that every string in the JSON body `body` (values and keys, at any depth: the
// values of `properties` are property values) is at most kMaxFieldBytes.
// Errors: kConstraint "JSON field 'properties.cmis:description' is larger than the limit
// of 1 MiB (1048576 bytes) for one value".
Status CheckJsonValueSizes(const Json& body);

}  // namespace folio::api
