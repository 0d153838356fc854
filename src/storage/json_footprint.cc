// Memory estimate of a parsed JSON value; see json_footprint.h.
#include "storage/json_footprint.h"

#include <string>

namespace folio::storage {
namespace {

// glibc's malloc: a block holds its request rounded up to 16 bytes, plus 8 bytes of
// header, at least 32 bytes.
constexpr size_t Block(size_t request) {
  const size_t with_header = request + 8;
  const size_t rounded = (with_header + 15) / 16 * 16;
  return rounded < 32 ? 32 : rounded;
}

// A std::string's own buffer: none while short (the small-string buffer is inside it).
size_t StringBuffer(const std::string& s) { return s.capacity() > 15 ? Block(s.capacity() + 1) : 0; }

}  // namespace

size_t JsonFootprint(const Json& json) {
  switch (json.type()) {
    case Json::value_t::string:
      return Block(sizeof(std::string)) + StringBuffer(json.get_ref<const std::string&>());
    case Json::value_t::array: {
      const auto& a = json.get_ref<const Json::array_t&>();
      size_t n = Block(sizeof(Json::array_t)) + (a.capacity() > 0 ? Block(a.capacity() * sizeof(Json)) : 0);
      for (const Json& v : a) n += JsonFootprint(v);
      return n;
    }
    case Json::value_t::object: {
      // ordered_json: a vector of (key, value) pairs.
      const auto& o = json.get_ref<const Json::object_t&>();
      using Member = Json::object_t::value_type;
      size_t n = Block(sizeof(Json::object_t)) + (o.capacity() > 0 ? Block(o.capacity() * sizeof(Member)) : 0);
      for (const auto& [key, value] : o) n += StringBuffer(key) + JsonFootprint(value);
      return n;
    }
    case Json::value_t::binary:
      return Block(sizeof(Json::binary_t)) + Block(json.get_binary().capacity());
    default:
      return 0;  // null, boolean, numbers: inside the node
  }
}

}  // namespace folio::storage
