// What GET /-/ui/... answers; see assets.h.
#include "ui/assets.h"

#include <algorithm>

namespace folio::ui {
namespace {

constexpr std::string_view kPrefix = "/-/ui";

// The UI's own files only: scripts and styles from this origin (no inline script or
// style attribute), pictures also from blob: (previews) and data:, frames only of blob:
// and this origin (PDF previews), requests to this origin only, never framed elsewhere.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "media-src 'self' blob:; frame-src 'self' blob:; object-src 'none'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

void AddSecurityHeaders(Answer& a) {
  a.headers.emplace_back("Content-Security-Policy", std::string(kContentSecurityPolicy));
  a.headers.emplace_back("X-Frame-Options", "SAMEORIGIN");
  a.headers.emplace_back("X-Content-Type-Options", "nosniff");
  a.headers.emplace_back("Referrer-Policy", "no-referrer");
}

// True when the If-None-Match list holds `etag` (or is "*").
bool Matches(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    const size_t comma = if_none_match.find(',');
    std::string_view item = if_none_match.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.starts_with("W/")) item.remove_prefix(2);  // weak comparison, as If-None-Match asks
    if (item == etag || item == "*") return true;
    if (comma == std::string_view::npos) break;
    if_none_match.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

const Asset* FindAsset(std::string_view path) {
  const std::span<const Asset> all = EmbeddedAssets();
  const auto it = std::lower_bound(all.begin(), all.end(), path,
                                   [](const Asset& a, std::string_view p) { return a.path < p; });
  return it != all.end() && it->path == path ? &*it : nullptr;
}

bool IsUiPath(std::string_view path) {
  return path == kPrefix || (path.starts_with(kPrefix) && path.size() > kPrefix.size() && path[kPrefix.size()] == '/');
}

Answer AnswerRequest(std::string_view path, std::string_view if_none_match) {
  Answer a;
  if (path == kPrefix) {  // relative links in index.html need the slash
    a.status = 308;
    a.headers.emplace_back("Location", "/-/ui/");
    AddSecurityHeaders(a);
    return a;
  }
  std::string_view file = path.substr(kPrefix.size() + 1);
  if (file.empty()) file = "index.html";
  const Asset* asset = FindAsset(file);
  if (asset == nullptr) {
    a.status = 404;
    a.not_found = "no file '" + std::string(file.substr(0, 100)) + "' in the browse UI: open /-/ui/";
    return a;
  }
  a.headers.emplace_back("ETag", std::string(asset->etag));
  // Kept by the browser, but asked again each time: a new folio binary brings new files.
  a.headers.emplace_back("Cache-Control", "no-cache");
  AddSecurityHeaders(a);
  if (Matches(if_none_match, asset->etag)) {
    a.status = 304;
    return a;
  }
  a.headers.emplace_back("Content-Type", std::string(asset->content_type));
  a.body = asset->body;
  return a;
}

}  // namespace folio::ui
