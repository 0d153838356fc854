// Writing JSON text straight into a string, for responses that are built from many
// small values (objects, lists of objects): no intermediate tree, no copies of the
// values. The text is what `Json::dump(-1, ' ', false, replace)` would print for the
// same values in the same order (strings that need escaping or carry non-ASCII bytes
// are printed by nlohmann itself, so invalid UTF-8 is replaced the same way).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_input.h"

namespace folio::api {

class JsonWriter {
 public:
  // Appends to `out`, which must outlive the writer.
  explicit JsonWriter(std::string& out) : out_(out) {}

  // Containers. Requires: calls nest properly; a value inside an object follows Key().
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // The key of the next member of the current object.
  JsonWriter& Key(std::string_view key);
  // The same with the key already as JSON text, quotes included (`"id"`; not checked):
  // a key written for many objects is quoted once.
  JsonWriter& QuotedKey(std::string_view quoted_key);
  // `key` as JSON text, for QuotedKey.
  static std::string Quote(std::string_view key);

  // Scalar values.
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // Any JSON value (scalars written directly, arrays element by element, objects and
  // floating-point numbers through nlohmann).
  JsonWriter& Value(const Json& value);
  // Text that already is one JSON value (not checked).
  JsonWriter& Raw(std::string_view json);

 private:
  void Separate();
  void Quoted(std::string_view s);

  std::string& out_;
  std::vector<char> first_;  // per open container: no member written yet (not vector<bool>: its bits cost)
  bool after_key_ = false;
};

}  // namespace folio::api
