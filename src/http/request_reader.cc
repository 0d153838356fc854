// HTTP request -> api::Request; see request_reader.h.
#include "http/request_reader.h"

#include <cctype>

#include "api/ascii.h"
#include "api/url.h"

namespace folio::http {
namespace {

bool IsValidHost(std::string_view host) {
  if (host.empty() || host.size() > 255) return false;
  for (char c : host) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']' ||
          c == '_')) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<api::Request> ReadRequestHead(const HttpHead& head, const std::function<std::string()>& local_authority) {
  api::Request out;
  out.method = head.method;
  const std::string& target = head.target;
  const size_t q = target.find('?');
  const std::string_view raw_path = std::string_view(target).substr(0, q);
  // An absolute-form target ("http://host/a") is refused with the rest: its first
  // segment "http:" names no domain.
  FOLIO_ASSIGN_OR_RETURN(out.path, api::SplitPath(raw_path));
  if (q != std::string::npos) {
    FOLIO_ASSIGN_OR_RETURN(out.query, api::ParseFormUrlencoded(std::string_view(target).substr(q + 1), "query string"));
  }
  out.content_type = head.header("Content-Type");
  out.range = head.header("Range");
  out.fault = head.header("Folio-Fault");
  out.last_event_id = head.header("Last-Event-ID");
  out.from_script = api::EqualsIgnoreCase(head.header("X-Requested-With"), "XMLHttpRequest");
  const std::string_view host = head.header("Host");
  out.base_url = "http://";
  if (IsValidHost(host)) {
    out.base_url += host;
  } else {
    out.base_url += local_authority();
  }
  return out;
}

}  // namespace folio::http
