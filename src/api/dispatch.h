// The service: one HTTP-free entry point that takes an api::Request, finds its level
// (server, domain, repository, object), its operation and target, runs the operation
// (ops/, one file per family) and returns an api::Response. src/http only moves bytes
// between the socket and these two structs. The rules it applies: docs/API.md §3.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/request.h"
#include "api/upload_registry.h"
#include "api/response.h"
#include "folio/fs.h"
#include "folio/status.h"
#include "folio/store.h"

namespace folio::api {

struct ServiceOptions {
  std::string default_variant = "B";  // for repositories created without one
  bool read_only = false;             // refuse every write with permissionDenied
  bool strict = false;                // refuse what the published variant does not accept (docs/API.md §5)
  bool versions_newest_first = false;  // getAllVersions in CMIS order
};

class Service {
 public:
  Service(Store& store, ServiceOptions options) : store_(store), options_(std::move(options)) {}

  const ServiceOptions& options() const { return options_; }

  // Runs `request`; never fails: errors become error responses (error_response.h).
  // Removes the request's upload file afterwards unless an operation consumed it.
  Response Handle(const Request& request);

  // A sink for the content part of a request whose URL path is `path`, kept in memory
  // or in an upload of the repository the path addresses (UploadRegistry), or
  // discarded when it addresses none (the operation then fails on its own terms). The
  // caller must pass what Finish() returned as Request::file->spooled_path, so that
  // Handle finds it and releases it.
  std::unique_ptr<UploadSink> OpenUpload(const std::vector<std::string>& path);

  // Releases the request's content part, if any (Handle does this itself; src/http
  // calls it for a request that failed before it could be handled).
  void ReleaseUpload(const Request& request);

 private:
  Response Run(const Request& request);

  Store& store_;
  ServiceOptions options_;
  UploadRegistry uploads_;
};

}  // namespace folio::api
