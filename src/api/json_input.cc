// ParseJsonText(): depth check, then nlohmann's parser with its exceptions caught here.
#include "api/json_input.h"

#include <string>

#include "api/url.h"

namespace folio::api {
namespace {

// Depth of the deepest array/object in `text`, counting brackets outside strings; stops
// early past `limit`. Malformed text is left for the parser to report.
int NestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
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
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

Result<Json> ParseJsonText(std::string_view text, std::string_view what) {
  if (NestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return InvalidArgument(std::string(what) + " is nested deeper than " +
                           std::to_string(kMaxJsonDepth) + " levels");
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
