// The browse UI (docs/API.md §2.4): its files, compiled into the binary from ui/ by
// src/ui/embed_files.cmake, and what GET /-/ui/... answers. Knows nothing of HTTP
// libraries: src/http turns an Answer into a response, so that the UI survives a change
// of the HTTP layer. Thread-safe: everything here is immutable.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace folio::ui {

// One file of ui/, as it was at build time.
struct Asset {
  std::string_view path;          // relative to ui/: "index.html", "icons/folder.svg"
  std::string_view content_type;  // from the extension
  std::string_view etag;          // a strong validator, quoted: "\"3f2a...\""
  std::string_view body;
};

// Every embedded file, sorted by path. Generated (ui_files.cc).
std::span<const Asset> EmbeddedAssets();

// The file at `path` (relative to ui/), or nullptr.
const Asset* FindAsset(std::string_view path);

// What a GET or HEAD of a path under /-/ui answers.
struct Answer {
  int status = 200;  // 200, 304, 308 (to /-/ui/) or 404
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Type among them for 200
  std::string_view body;    // the file for 200; empty otherwise
  std::string not_found;    // for 404: the message of the objectNotFound error
};

// Answers the request path `path` (without query; "/-/ui", "/-/ui/" or "/-/ui/FILE").
// Requires path to start with "/-/ui". `if_none_match` is that request header ("" when
// absent): a match of the file's ETag is 304. Every answer but 404 carries the security
// headers: a Content-Security-Policy that allows no inline script and no framing by
// another origin, X-Frame-Options SAMEORIGIN, nosniff, no referrer.
Answer AnswerRequest(std::string_view path, std::string_view if_none_match);

// True when `path` (without query) is the UI's: "/-/ui" or below "/-/ui/".
bool IsUiPath(std::string_view path);

}  // namespace folio::ui
