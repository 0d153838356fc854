// Helpers shared by the request layer's tests.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/request.h"
#include "api/url.h"
#include "folio/status.h"

namespace folio::api::testing {

inline bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

inline Request JsonRequest(std::string body) {
  Request request;
  request.method = "POST";
  request.content_type = "application/json";
  request.body = std::move(body);
  return request;
}

inline Request FormRequest(std::string body) {
  Request request;
  request.method = "POST";
  request.content_type = "application/x-www-form-urlencoded;charset=UTF-8";
  request.body = std::move(body);
  return request;
}

inline Request QueryRequest(std::vector<std::pair<std::string, std::string>> query) {
  Request request;
  request.method = "GET";
  request.query = std::move(query);
  return request;
}

// Parses `text` with UrlencodedParser fed in pieces of `piece` bytes (whole for 0),
// counting against `budget` (may be null); the pairs go to `out`.
inline Status ParseUrlencodedInPieces(std::string_view text, size_t piece,
                                      std::vector<std::pair<std::string, std::string>>& out,
                                      FormBudget* budget = nullptr) {
  UrlencodedParser parser("form body", budget, [&out](std::string name, std::string value) {
    out.emplace_back(std::move(name), std::move(value));
  });
  for (size_t at = 0; at < text.size();) {
    const size_t n = piece == 0 ? text.size() : std::min(piece, text.size() - at);
    FOLIO_RETURN_IF_ERROR(parser.Feed(text.substr(at, n)));
    at += n;
  }
  return parser.Finish();
}

}  // namespace folio::api::testing
