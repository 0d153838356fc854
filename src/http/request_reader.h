// Turning an HTTP request into an api::Request: the path split and decoded from the raw
// target (so "%2F" and "%2e%2e" are seen for what they are), the query, the headers the
// request layer reads, and the body as it arrives: urlencoded and multipart fields are
// parsed piece by piece within the field limits (api/form_limits.h), a multipart file
// part goes to an upload file, and the body is counted against --max-body. Nothing is
// held whole but the fields themselves (and a JSON body, within the same limits).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/dispatch.h"
#include "api/form_limits.h"
#include "api/multipart.h"
#include "api/params.h"
#include "api/request.h"
#include "api/url.h"
#include "folio/status.h"
#include "http/http_head.h"

namespace folio::http {

// The method, path, query and the headers of `head` that the request layer reads
// (Content-Type, Range, X-Requested-With, Host as the base URL; for a missing or malformed Host,
// `local_authority()` gives the "host:port" the client connected to). No body.
// Errors: kInvalidArgument for a bad percent-escape, invalid UTF-8 or a traversal
// segment in the path or query.
Result<api::Request> ReadRequestHead(const HttpHead& head, const std::function<std::string()>& local_authority);

// Reads the body of one request into its api::Request, as it arrives: JSON into `body`,
// urlencoded and multipart fields into `form_fields`, the multipart file part into an
// upload of the service (Request::file). Not thread-safe; one per request.
class BodyReader {
 public:
  // `out` must outlive the reader; `out.content_type` and `out.path` are set.
  // `announced_length` is the body's Content-Length (0 when none or chunked): a JSON body
  // within the field limit is read into one buffer of that size, never regrown.
  BodyReader(api::Service& service, uint64_t max_body, uint64_t announced_length, api::Request& out);
  ~BodyReader();

  // The next piece of the (de-chunked) body.
  // Errors: kConstraint over --max-body (too_large() is then true) or over a field limit,
  // naming the field and the limit; kInvalidArgument for a malformed multipart or
  // urlencoded body; kStorage when the upload file cannot be written.
  Status Write(std::string_view bytes);
  // The body has ended. Errors as Write; also kInvalidArgument for a non-empty body of
  // a type that carries no parameters (naming the type).
  Status Finish();

  bool too_large() const { return too_large_; }
  uint64_t size() const { return size_; }

 private:
  class FormCollector;

  api::Request& out_;
  const uint64_t max_body_;
  const api::BodyEncoding encoding_;
  const std::string media_;
  uint64_t size_ = 0;
  bool too_large_ = false;
  api::FormBudget budget_;
  std::unique_ptr<api::UrlencodedParser> urlencoded_;
  std::unique_ptr<api::MultipartParser> multipart_;
  std::unique_ptr<FormCollector> collector_;
  Status boundary_error_;  // a multipart Content-Type without a usable boundary
};

}  // namespace folio::http
