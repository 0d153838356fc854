// The service: one HTTP-free entry point that takes an api::Request, finds its level
// (server, domain, repository, object), its operation and target, runs the operation
// (ops/, one file per family) and returns an api::Response. src/http only moves bytes
// between the socket and these two structs. The rules it applies: docs/API.md §3.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/fixture/state_lock.h"
#include "api/request.h"
#include "api/upload_registry.h"
#include "api/response.h"
#include "folio/fs.h"
#include "folio/status.h"
#include "folio/store.h"
#include "repo/query/foreground.h"

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
namespace fixture {
class DataStates;
class EventHub;
}  // namespace fixture

// The test-fixture endpoints (docs/API.md §14). Absent parts leave their endpoints
// answering notSupported, naming the option that gives them.
struct FixtureOptions {
  // The start state and the snapshots (POST /-/reset, /-/snapshots); nullptr: none.
  std::shared_ptr<fixture::DataStates> states;
  // The live events (GET /-/events); nullptr: none. The Store must tell it its changes
  // (StoreOptions::on_changes = events->Listener()), and so must `reopen`.
  std::shared_ptr<fixture::EventHub> events;
  // How the data directory is opened again after a reset or restore.
  StoreOptions reopen;
  // Called (with no request in flight) once the data directory was replaced.
  std::function<void()> after_swap;
  bool faults = false;  // --faults: requests may carry Folio-Fault (else it is refused)
};

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
  FixtureOptions fixture;
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

  // Ends the streams of GET /-/events (the server is stopping). Thread-safe.
  void Stopping();

  // What the fixture endpoints do (docs/API.md §14), for callers in the same process
  // (folio/testing.h). Reset and RestoreSnapshot wait for the requests in flight; later
  // requests see the new state. Errors: kNotSupported without FixtureOptions::states;
  // kInvalidArgument for a bad name; kObjectNotFound for a missing snapshot;
  // kContentAlreadyExists for a snapshot name taken; kStorage.
  Status Reset();
  Status TakeSnapshot(const std::string& name);
  Status RestoreSnapshot(const std::string& name);
  // The newest change-log token of a repository (0 while its log is empty): every event
  // up to it has been handed to the streams of GET /-/events. Errors: kObjectNotFound.
  Result<uint64_t> LatestChangeToken(const std::string& domain_id, const std::string& repository_id);

 private:
  Response Run(const Request& request);
  // Run; on a server that can reset or restore, a body made while it is sent
  // (Response::producer) keeps the Store it reads until it is done, and stops with an
  // error once the state is replaced. Requires state_mu_ (shared).
  Response RunHoldingStore(const Request& request);
  // A request to the fixture endpoints (path "/-/...", docs/API.md §14;
  // fixture_endpoints.cc).
  Response HandleFixture(const Request& request);
  // Runs `request` as its Folio-Fault header asks (docs/API.md §14.4).
  Response RunWithFault(const Request& request);
  // Replaces the data directory with the start state (`snapshot` empty) or a snapshot,
  // waiting for the requests in flight; later requests see the new state.
  Status SwitchState(const std::string& snapshot);
  // The parts built on the Store: made by the constructor, and again by SwitchState.
  void BuildOnStore();
  // New query indexes over store_ (the old ones gone), built in the background once
  // StartQueryIndexing was called. Requires state_mu_ (exclusive) but in the constructor.
  void MakeQueryIndexes();

  // Held shared by every request while it runs, exclusively while the data directory is
  // replaced or copied (reset, restore, snapshot): a reset that waits holds off new
  // requests, so a steady stream of them does not hold it off (state_lock.h).
  fixture::StateLock state_mu_;
  Store* store_;
  // The Store opened after a reset or restore. Shared with the bodies still being sent
  // when the next switch replaces it (RunHoldingStore): their repositories use its Fs.
  std::shared_ptr<Store> owned_store_;
  // Counts the states served (a reset or restore adds one): an answer kept for reuse
  // (Response::still_valid) is valid only in the state it was made in.
  std::shared_ptr<std::atomic<uint64_t>> generation_ = std::make_shared<std::atomic<uint64_t>>(0);
  ServiceOptions options_;
  UploadRegistry uploads_;
  std::unique_ptr<acl::AccountRegistry> accounts_;
  std::unique_ptr<auth::Authenticator> authenticator_;
  // Touched by every request the service runs, as it begins and as its answer is
  // produced (an answer kept for reuse, given again by src/http, does not run it): the
  // query indexes' background builds yield to requests (repo/query/foreground.h).
  query::Foreground foreground_;
  std::unique_ptr<query::QueryIndexes> query_indexes_;
  bool indexing_ = false;  // StartQueryIndexing was called; guarded by state_mu_
};

}  // namespace folio::api
