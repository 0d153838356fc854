// Reading and writing the pretty-printed JSON files of the format (sidecars, series,
// index entries, metadata). The one place that catches nlohmann's parse exceptions
// for stored data.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "folio/fs.h"

namespace folio::storage {

using Json = nlohmann::ordered_json;

// The file's JSON object. Errors: kStorage with cause() no_such_file_or_directory if
// missing; kStorage naming the file and the parse error if it is not a JSON object.
Result<Json> ReadJsonFile(Fs& fs, const std::string& path);
// Parses stored bytes; `what` names them in the error.
Result<Json> ParseStoredJson(std::string_view bytes, const std::string& what);
// Pretty-printed (2 spaces), UTF-8, ending in a newline: readable with cat and diff.
std::string SerializeJson(const Json& value);
// WriteFileAtomically of SerializeJson(value).
Status WriteJsonAtomically(Fs& fs, const std::string& path, const Json& value);

// A short name of a JSON value's type for messages: "an object", "an array", "a string",
// "a number", "a boolean", "null".
std::string_view JsonTypeForMessage(const Json& value);

}  // namespace folio::storage
