// Params: every parameter of one request in one place: the query string merged with
// the body (JSON object, x-www-form-urlencoded or multipart fields), read through typed
// getters that name the parameter in every error (docs/API.md §3.2–§3.3, §3.1, §3.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/json_input.h"
#include "api/operation.h"
#include "api/request.h"
#include "folio/status.h"

namespace folio::api {

// How the body carried its parameters; --strict uses it (docs/API.md §5).
enum class BodyEncoding { kNone, kJson, kUrlencoded, kMultipart };

// The encoding of a body of media type `media` (MediaType() of its Content-Type):
// application/json, text/json and */*+json are kJson; kNone for a type that cannot carry
// parameters (src/http reads such a body without keeping it).
BodyEncoding BodyEncodingOf(std::string_view media);

// The error for a non-empty body of a type that carries no parameters (kInvalidArgument
// naming the type, or saying that there is none).
Status UnsupportedBody(std::string_view media);

class Params {
 public:
  // One parameter: its name as the client spelled it and its value. Values from the
  // query string and forms are JSON strings; a JSON body keeps its JSON values
  // (objects, arrays, numbers, booleans, null) as sent.
  struct Entry {
    std::string name;
    Json value;
  };

  // Merges the parameters of `request`. Rules:
  // - Names match case-insensitively; `operation`, `cmisselector` and `cmisaction` are
  //   one parameter (see GetOperation).
  // - An empty string (or JSON null) means "absent": it neither sets nor overrides.
  // - The body wins over the query string; within one source the first non-empty value
  //   of a name wins (the servlet rule OpenCMIS follows).
  // - The body is read by its media type: application/json (also text/json, */*+json) must be a
  //   JSON object; application/x-www-form-urlencoded ('+' is a space); for
  //   multipart/form-data `request.form_fields` are the parameters and `body` is ignored;
  //   so are they for an urlencoded body that src/http parsed while it arrived (`body`
  //   is then empty). An empty body is no parameters, whatever its type.
  // - Limits (form_limits.h): a JSON body of at most 16 MiB whose string values are at
  //   most 1 MiB each; an urlencoded `body` is counted field by field (fields that
  //   src/http has read were counted there).
  // Errors (all kInvalidArgument): a JSON body that is not valid JSON, not an object,
  // or nested deeper than 64 levels; a bad percent-escape in a form body; a name or
  // value, from any source, that is not valid UTF-8 (naming the parameter); a non-empty
  // body with no Content-Type or one not listed above (naming the type). kConstraint
  // when a limit above is exceeded (naming the field and the limit).
  // The limit of 1000 properties is checked where they are read (ReadProperties).
  static Result<Params> FromRequest(const Request& request);

  BodyEncoding body_encoding() const { return body_encoding_; }

  // Every parameter after merging, in order (body first), including those whose value
  // is empty: the CMIS form conventions (propertyId[N] with an empty value) need them.
  const std::vector<Entry>& entries() const { return entries_; }

  // True when `name` (case-insensitive) has a non-empty value.
  bool Has(std::string_view name) const;

  // The value of `name`, or nullptr when absent or empty.
  const Json* Find(std::string_view name) const;

  // The operation named by `operation`, `cmisselector` or `cmisaction`; nullopt when
  // none is given.
  // Errors: kNotSupported "unknown operation '<value>'"; kInvalidArgument when the
  // value is not a string.
  Result<std::optional<Operation>> GetOperation() const;

  // The text of `name`, or `fallback` when absent. JSON numbers and booleans give their
  // JSON text. Errors: kInvalidArgument "parameter '<name>' must be a string, got an
  // object" for a JSON object or array.
  Result<std::string> GetString(std::string_view name, std::string_view fallback = "") const;

  // As GetString, but absent is an error: kInvalidArgument "missing required parameter
  // '<name>'".
  Result<std::string> RequireString(std::string_view name) const;

  // "true"/"false" in any case, or a JSON boolean; `fallback` when absent.
  // Errors: kInvalidArgument "parameter '<name>' must be true or false, got '<value>'".
  Result<bool> GetBool(std::string_view name, bool fallback) const;

  // A decimal integer (optional sign) or a JSON integer, within [min, max]; `fallback`
  // (not range-checked) when absent.
  // Errors: kInvalidArgument "parameter '<name>' must be an integer, got '<value>'" or
  // "parameter '<name>' must be between <min> and <max>, got <value>".
  Result<int64_t> GetInt(std::string_view name, int64_t fallback, int64_t min, int64_t max) const;

  // A JSON object given as a JSON value or as a string holding one (a form field named
  // `properties`, a `type` definition); nullopt when absent.
  // Errors: kInvalidArgument when the string is not valid JSON or nests deeper than 64,
  // or the value is not an object: "parameter '<name>' must be a JSON object, got ...".
  Result<std::optional<Json>> GetJsonObject(std::string_view name) const;

  // As GetJsonObject, for a JSON array (`addACEs`, `removeACEs`).
  Result<std::optional<Json>> GetJsonArray(std::string_view name) const;

 private:
  // Adds a parameter of lower priority than those already added (see FromRequest).
  void Add(std::string name, Json value);

  BodyEncoding body_encoding_ = BodyEncoding::kNone;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;  // lookup key (see Key()) -> entries_
};

}  // namespace folio::api
