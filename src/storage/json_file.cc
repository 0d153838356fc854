// JSON file IO for stored data; see json_file.h.
#include "storage/json_file.h"

#include "storage/atomic_write.h"
#include "storage/json_text.h"

namespace folio::storage {

Result<Json> ParseStoredJson(std::string_view bytes, const std::string& what) {
  try {
    Json j = Json::parse(bytes.begin(), bytes.end());
    if (!j.is_object()) return StorageError("'" + what + "' does not hold a JSON object");
    return j;
  } catch (const Json::exception& e) {
    return StorageError("cannot parse '" + what + "': " + e.what());
  }
}

Result<Json> ReadJsonFile(Fs& fs, const std::string& path) {
  FOLIO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeRecord(fs, path));
  return ParseStoredJson(bytes, path);
}

std::string SerializeJson(const Json& value) {
  // Replace invalid UTF-8 instead of throwing: names are validated before they get here.
  std::string out;
  AppendJson(out, value, 2);
  out.push_back('\n');
  return out;
}

Status WriteJsonAtomically(Fs& fs, const std::string& path, const Json& value) {
  return WriteFileAtomically(fs, path, SerializeJson(value));
}

std::string_view JsonTypeForMessage(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number()) return "a number";
  return "null";
}

}  // namespace folio::storage
