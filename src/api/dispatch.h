// The service: one HTTP-free entry point that takes an api::Request, finds its level
// (server, domain, repository, object), its operation and target, runs the operation
// (ops/, one file per family) and returns an api::Response. src/http only moves bytes
// between the socket and these two structs. The rules it applies: docs/API.md §3.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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

namespace folio::acl {
class AccountRegistry;
}  // namespace folio::acl
namespace folio::query {
class QueryIndexes;
}

namespace folio::api {

namespace auth {
class Authenticator;
}

struct ServiceOptions {
  std::string default_variant = "B";  // for repositories created without one
  bool read_only = false;             // refuse every write with permissionDenied
  bool strict = false;                // refuse what the published variant does not accept (docs/API.md §5)
  bool versions_newest_first = false;  // getAllVersions in CMIS order
  // Authentication (docs/API.md): the server administrator's password
  // (FOLIO_ADMIN_PASSWORD); nullopt: server-level operations from loopback clients only.
  std::optional<std::string> admin_password;
  // The server listens on an address other than loopback: createDomain then needs
  // adminUserId (a domain without users is open to anyone) unless `insecure`.
  bool exposed = false;
  bool insecure = false;  // --insecure
  size_t hash_threads = 0;  // threads hashing passwords; 0: half the cores (1 to 4)
  // A directory outside the data directory for the derived indexes this server may not
  // keep in it (a read-only server or data directory; query/query_indexes.h); the
  // caller removes it. Empty: one is made in $TMPDIR when needed, removed at the end.
  std::string scratch_dir;
  // Where the query indexes' progress and failures go (one line each, any thread).
  std::function<void(const std::string&)> log;
};

class Service {
 public:
  Service(Store& store, ServiceOptions options);
  ~Service();

  const ServiceOptions& options() const { return options_; }

  // Runs `request`; never fails: errors become error responses (error_response.h), a
  // 401 without its WWW-Authenticate challenge when the request is `from_script`.
  // Removes the request's upload file afterwards unless an operation consumed it.
  Response Handle(const Request& request);

  // A sink for the content part of the request whose head (path and credentials) is
  // `head`, kept in memory or in an upload of the repository the path addresses
  // (UploadRegistry), or discarded when it addresses none, or when the caller may not
  // use that repository (the operation then fails on its own terms: 401, 403, 404).
  // The caller must pass what Finish() returned as Request::file->spooled_path, so that
  // Handle finds it and releases it.
  std::unique_ptr<UploadSink> OpenUpload(const Request& head);

  // Releases the request's content part, if any (Handle does this itself; src/http
  // calls it for a request that failed before it could be handled).
  void ReleaseUpload(const Request& request);

  // The domains that allow anonymous access (no users), in id order: `serve` refuses
  // to listen beyond loopback while there are any (unless --insecure).
  Result<std::vector<std::string>> AnonymousDomains();

  auth::Authenticator& authenticator() { return *authenticator_; }
  // Builds (or brings in step) the query index of every repository in the background;
  // returns at once. `folio serve` calls it after the ready line; without it an index is
  // made by the first query of its repository.
  void StartQueryIndexing();

 private:
  Response Run(const Request& request);

  Store& store_;
  ServiceOptions options_;
  UploadRegistry uploads_;
  std::unique_ptr<acl::AccountRegistry> accounts_;
  std::unique_ptr<auth::Authenticator> authenticator_;
  std::unique_ptr<query::QueryIndexes> query_indexes_;
};

}  // namespace folio::api
