// Reading the body of a request into its api::Request as it arrives: urlencoded and
// multipart fields are parsed piece by piece within the field limits (form_limits.h), a
// multipart file part goes to an upload file, and the body is counted against --max-body.
// Nothing is held whole but the fields themselves (and a JSON body, within the same
// limits).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "api/dispatch.h"
#include "api/form_limits.h"
#include "api/multipart.h"
#include "api/params.h"
#include "api/request.h"
#include "api/url.h"
#include "folio/status.h"

namespace folio::api {

// Reads the body of one request into its Request, as it arrives: JSON into `body`,
// urlencoded and multipart fields into `form_fields`, the multipart file part into an
// upload of the service (Request::file). Not thread-safe; one per request.
class BodyReader {
 public:
  // `out` must outlive the reader; `out.content_type` and `out.path` are set.
  // `announced_length` is the body's Content-Length (0 when none or chunked): a JSON body
  // within the field limit is read into one buffer of that size, never regrown.
  BodyReader(Service& service, uint64_t max_body, uint64_t announced_length, Request& out);
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

  Request& out_;
  const uint64_t max_body_;
  const BodyEncoding encoding_;
  const std::string media_;
  uint64_t size_ = 0;
  bool too_large_ = false;
  FormBudget budget_;
  std::unique_ptr<UrlencodedParser> urlencoded_;
  std::unique_ptr<MultipartParser> multipart_;
  std::unique_ptr<FormCollector> collector_;
  Status boundary_error_;  // a multipart Content-Type without a usable boundary
};

// The error for a body over `max_body` bytes (--max-body): kConstraint, naming the limit.
Status BodyTooLarge(uint64_t max_body);

}  // namespace folio::api
