// Turning an httplib request into an api::Request: the path split and decoded from the
// raw target (so "%2F" and "%2e%2e" are seen for what they are), the query, and the
// body, streamed: a multipart file part goes to an upload file as it arrives, and the
// body is counted against --max-body while it is read, never held whole.
#pragma once

#include <httplib.h>

#include <cstdint>

#include "api/dispatch.h"
#include "api/request.h"
#include "folio/status.h"

namespace folio::http {

// The method, path, query, Content-Type, Range and base URL of `req` (no body).
// Errors: kInvalidArgument for a bad percent-escape, invalid UTF-8 or a traversal
// segment in the path or query.
Result<api::Request> ReadRequestHead(const httplib::Request& req);

struct BodyResult {
  Status status;            // a failure to read or parse the body (kInvalidArgument)
  bool too_large = false;   // the body exceeded the limit (status says by how much)
};

// Reads the body of `req` into `out`: JSON and form bodies into out.body, multipart
// fields into out.form_fields and its file part into an upload of `service`.
// Requires: `req` is the request `reader` belongs to. Mutates the Content-Type header
// of `req` for multipart bodies, so that cpp-httplib hands over the raw bytes.
BodyResult ReadRequestBody(const httplib::Request& req, const httplib::ContentReader& reader, api::Service& service,
                           uint64_t max_body, api::Request& out);

}  // namespace folio::http
