// The direct JSON text writer; see json_writer.h.
#include "api/json_writer.h"

#include <charconv>

#include "storage/json_text.h"

namespace folio::api {

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) out_ += ',';
  first_.back() = 0;
}

void JsonWriter::Quoted(std::string_view s) {
  if (storage::IsPlainAscii(s)) {  // most keys and values: no call beyond the check
    out_ += '"';
    out_ += s;
    out_ += '"';
    return;
  }
  storage::AppendJsonString(out_, s);
}

JsonWriter& JsonWriter::BeginObject() {
  Separate();
  out_ += '{';
  first_.push_back(1);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  out_ += '}';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  Separate();
  out_ += '[';
  first_.push_back(1);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  out_ += ']';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  Separate();
  Quoted(key);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::QuotedKey(std::string_view quoted_key) {
  Separate();
  out_ += quoted_key;
  out_ += ':';
  after_key_ = true;
  return *this;
}

std::string JsonWriter::Quote(std::string_view key) {
  std::string out;
  JsonWriter(out).Quoted(key);
  return out;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  Separate();
  Quoted(value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  Separate();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  Separate();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null() {
  Separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::Value(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return String(value.get_ref<const std::string&>());
    case Json::value_t::number_integer:
      return Int(value.get<int64_t>());
    case Json::value_t::boolean:
      return Bool(value.get<bool>());
    case Json::value_t::null:
      return Null();
    case Json::value_t::array:
      BeginArray();
      for (const Json& v : value) Value(v);
      return EndArray();
    default:  // objects, unsigned and floating-point numbers, binary, discarded
      return Raw(value.dump(-1, ' ', false, Json::error_handler_t::replace));
  }
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  Separate();
  out_ += json;
  return *this;
}

}  // namespace folio::api
