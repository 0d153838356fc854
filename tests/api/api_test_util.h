// Helpers shared by the request layer's tests.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/request.h"

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

}  // namespace folio::api::testing
