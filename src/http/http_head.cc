// The accessors of HttpHead; see http_head.h.
#include "http/http_head.h"

#include "api/ascii.h"

namespace folio::http {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view HttpHead::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (api::EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

bool HttpHead::has_header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (api::EqualsIgnoreCase(k, name)) return true;
  }
  return false;
}

bool HttpHead::HasToken(std::string_view name, std::string_view token) const {
  for (const auto& [k, v] : headers) {
    if (!api::EqualsIgnoreCase(k, name)) continue;
    std::string_view rest = v;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      if (api::EqualsIgnoreCase(Trim(rest.substr(0, comma)), token)) return true;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return false;
}

}  // namespace folio::http
