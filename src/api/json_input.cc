// ParseJsonText(): depth check, then nlohmann's parser with its exceptions caught here.
#include "api/json_input.h"

#include <string>

#include "api/url.h"

namespace folio::api {
namespace {

struct Shape {
  int depth = 0;      // of the deepest array or object
  size_t values = 0;  // about how many values: elements, members, containers
};

// The shape of `text`, counting brackets and commas outside strings; stops early past
// `max_depth` or `max_values`. Malformed text is left for the parser to report.
Shape ShapeOf(std::string_view text, int max_depth, size_t max_values) {
  Shape shape;
  shape.values = 1;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++shape.values;
      if (++depth > shape.depth) shape.depth = depth;
      if (shape.depth > max_depth) return shape;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',') {
      if (++shape.values > max_values) return shape;
    }
  }
  return shape;
}

}  // namespace

Result<Json> ParseJsonText(std::string_view text, std::string_view what) {
  const Shape shape = ShapeOf(text, kMaxJsonDepth, kMaxJsonValues);
  if (shape.depth > kMaxJsonDepth) {
    return InvalidArgument(std::string(what) + " is nested deeper than " +
                           std::to_string(kMaxJsonDepth) + " levels");
  }
  if (shape.values > kMaxJsonValues) {
    return Constraint(std::string(what) + " holds more than the limit of " + std::to_string(kMaxJsonValues) +
                      " JSON values (array elements and object members)");
  }
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    // nlohmann's what() is "[json.exception.parse_error.101] parse error at ...": drop
    // the bracketed id. Its "last read" excerpt may hold invalid UTF-8: quote it safely.
    std::string_view reason = e.what();
    const size_t bracket = reason.find("] ");
    if (bracket != std::string_view::npos) reason.remove_prefix(bracket + 2);
    std::string quoted = QuoteForMessage(reason, 200);
    return InvalidArgument(std::string(what) +
                           " is not valid JSON: " + quoted.substr(1, quoted.size() - 2));
  }
}

}  // namespace folio::api
