// MediaType(): the one place that reads a Content-Type header value.
#include "api/request.h"

#include "api/ascii.h"

namespace folio::api {

std::string MediaType(std::string_view content_type) {
  const size_t semicolon = content_type.find(';');
  if (semicolon != std::string_view::npos) content_type = content_type.substr(0, semicolon);
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  while (!content_type.empty() && is_space(content_type.front())) content_type.remove_prefix(1);
  while (!content_type.empty() && is_space(content_type.back())) content_type.remove_suffix(1);
  return AsciiToLower(content_type);
}

}  // namespace folio::api
