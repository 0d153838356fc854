// The accessors of HttpHead; see http_head.h.
#include "http/http_head.h"

#include "api/ascii.h"

namespace folio::http {

std::string_view HttpHead::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (api::EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

}  // namespace folio::http
