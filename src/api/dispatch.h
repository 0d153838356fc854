// The service: one HTTP-free entry point that takes an api::Request, finds its level
// (server, domain, repository, object), its operation and target, runs the operation
// (ops/, one file per family) and returns an api::Response. src/http only moves bytes
// between the socket and these two structs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/request.h"
#include "folio/fs.h"
#include "folio/status.h"
#include "folio/store.h"

namespace folio::api {

struct ServiceOptions {
  std::string default_variant = "B";  // for repositories created without one
  bool read_only = false;             // refuse every write with permissionDenied
  bool strict = false;                // CONTRACT §4: refuse what the seed's variant does not accept
  bool versions_newest_first = false;  // getAllVersions in CMIS order
};

struct Response {
  int status = 200;
  std::string content_type;  // "" when there is no body
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // A content stream to send instead of `body`: `length` bytes from `offset`.
  std::unique_ptr<ReadableFile> stream;
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string operation;  // the operation's canonical name, for the request log
  std::string exception;  // the CMIS exception name when the request failed
  std::string message;    // and its message
};

// Where src/http streams the content part of a multipart body as it arrives.
class UploadSink {
 public:
  virtual ~UploadSink() = default;
  virtual Status Write(std::string_view bytes) = 0;
  // Syncs and closes the file; returns its data-directory-relative path ("" for a sink
  // that discards).
  virtual Result<std::string> Finish() = 0;
};

class Service {
 public:
  Service(Store& store, ServiceOptions options) : store_(store), options_(std::move(options)) {}

  const ServiceOptions& options() const { return options_; }

  // Runs `request`; never fails: errors become error responses (error_response.h).
  // Removes the request's upload file afterwards unless an operation consumed it.
  Response Handle(const Request& request);

  // A sink for the content part of a request whose URL path is `path`: a new upload
  // file in the repository the path addresses, or a sink that discards the bytes when
  // it addresses none (the operation then fails on its own terms). The caller must
  // pass what Finish() returned as Request::file->spooled_path, so that Handle removes it.
  std::unique_ptr<UploadSink> OpenUpload(const std::vector<std::string>& path);

  // Removes the request's upload file, if any (Handle does this itself; src/http calls
  // it for a request that failed before it could be handled).
  void ReleaseUpload(const Request& request);

  // A JSON error response for `status` (used by src/http for failures before dispatch).
  static Response ErrorFor(const Status& status, bool suppress_response_codes);

 private:
  Response Run(const Request& request);

  Store& store_;
  ServiceOptions options_;
};

}  // namespace folio::api
