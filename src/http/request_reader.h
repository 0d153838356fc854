// Turning an HTTP request head into an api::Request: the path split and decoded from the
// raw target (so "%2F" and "%2e%2e" are seen for what they are), the query, and the
// headers the request layer reads. Its body goes into it through api::BodyReader
// (api/body_reader.h).
#pragma once

#include <functional>
#include <string>

#include "api/request.h"
#include "folio/status.h"
#include "http/http_head.h"

namespace folio::http {

// The method, path, query and the headers of `head` that the request layer reads
// (Content-Type, Range, X-Requested-With, Host as the base URL; for a missing or malformed Host,
// `local_authority()` gives the "host:port" the client connected to). No body.
// Errors: kInvalidArgument for a bad percent-escape, invalid UTF-8 or a traversal
// segment in the path or query.
Result<api::Request> ReadRequestHead(const HttpHead& head, const std::function<std::string()>& local_authority);

}  // namespace folio::http
