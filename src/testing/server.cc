// folio::testing::Server: the pieces of `folio serve --ephemeral --port 0` (an
// EphemeralCopy, a Store, the Service and the HTTP server on a background thread)
// behind a header that needs nothing but the standard library.
#include "folio/testing.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <stdexcept>
#include <thread>

#include "api/dispatch.h"
#include "api/fixture/data_states.h"
#include "api/fixture/event_hub.h"
#include "cli/data_dir.h"
#include "cli/ephemeral_copy.h"
#include "folio/store.h"
#include "http/server.h"

namespace folio::testing {

struct Server::Impl {
  std::unique_ptr<cli::EphemeralCopy> copy;
  std::shared_ptr<api::fixture::EventHub> events = std::make_shared<api::fixture::EventHub>();
  std::unique_ptr<Store> store;
  std::unique_ptr<api::Service> service;
  std::unique_ptr<http::Server> http;
  std::string url;
  std::string data_dir;

  // Members are destroyed in reverse order: the server stops (requests in flight
  // finish), then the service and the store go, and last the copy they used.
};

namespace {

[[noreturn]] void Fail(const std::string& what) { throw std::runtime_error("folio::testing::Server: " + what); }

}  // namespace

Server::Server(const std::string& fixture_dir, const ServerOptions& options) : impl_(std::make_unique<Impl>()) {
  spdlog::set_level(options.log_requests ? spdlog::level::info : spdlog::level::warn);
  (void)cli::RemoveAbandonedEphemeralCopies();  // what killed test runs left
  if (!fixture_dir.empty()) {
    const cli::DirKind kind = cli::ClassifyDirectory(fixture_dir);
    if (kind != cli::DirKind::kDataDirectory && kind != cli::DirKind::kEmpty) {
      Fail("fixture " + cli::NotADataDirectory(fixture_dir, kind, cli::HintFor::kServe));
    }
  }
  auto copy = cli::EphemeralCopy::Make(fixture_dir);
  if (!copy.ok()) Fail("cannot copy the fixture '" + fixture_dir + "': " + copy.status().ToString());
  impl_->copy = std::move(*copy);
  impl_->data_dir = impl_->copy->data_dir();
  StoreOptions store_options;
  store_options.read_only = options.read_only;
  store_options.durable = false;
  store_options.on_changes = impl_->events->Listener();
  auto store = Store::Open(impl_->data_dir, store_options);
  if (!store.ok()) Fail("cannot open the copy '" + impl_->data_dir + "': " + store.status().ToString());
  impl_->store = std::move(*store);
  api::ServiceOptions service_options;
  service_options.fixture.events = impl_->events;
  service_options.fixture.faults = options.faults;
  service_options.fixture.reopen = store_options;
  service_options.fixture.reopen.create = false;
  if (!options.read_only) {
    // The fixture's state is its source (never written); snapshots go beside the copy.
    auto states = api::fixture::DataStates::Open({impl_->data_dir, fixture_dir.empty() ? "" : fixture_dir,
                                                  impl_->copy->root() + "/snapshots", /*durable=*/false});
    if (!states.ok()) Fail("cannot keep the fixture's state: " + states.status().ToString());
    service_options.fixture.states = std::move(*states);
  }
  service_options.default_variant = options.variant;
  service_options.read_only = options.read_only;
  impl_->service = std::make_unique<api::Service>(*impl_->store, service_options);
  http::ServerOptions http_options;
  http_options.host = "127.0.0.1";
  http_options.port = 0;
  http_options.threads = options.threads;
  impl_->http = std::make_unique<http::Server>(*impl_->service, http_options);
  if (Status s = impl_->http->Start(); !s.ok()) Fail("cannot start the server: " + s.ToString());
  impl_->url = impl_->http->Url();
}

Server::~Server() = default;
Server::Server(Server&&) noexcept = default;
Server& Server::operator=(Server&&) noexcept = default;

const std::string& Server::url() const { return impl_->url; }
int Server::port() const { return impl_->http->port(); }
const std::string& Server::data_dir() const { return impl_->data_dir; }

void Server::Reset() {
  if (Status s = impl_->service->Reset(); !s.ok()) Fail("reset: " + s.ToString());
}

void Server::Snapshot(const std::string& name) {
  if (Status s = impl_->service->TakeSnapshot(name); !s.ok()) Fail("snapshot: " + s.ToString());
}

void Server::Restore(const std::string& name) {
  if (Status s = impl_->service->RestoreSnapshot(name); !s.ok()) Fail("restore: " + s.ToString());
}

bool Server::WaitForToken(const std::string& token, std::chrono::milliseconds timeout) {
  const size_t first = token.find('/');
  const size_t last = token.rfind('/');
  uint64_t wanted = 0;
  if (first == std::string::npos || last == first ||
      std::from_chars(token.data() + last + 1, token.data() + token.size(), wanted).ec != std::errc()) {
    Fail("'" + token + "' is no change token (domain/repository/N, the Folio-Change-Token header)");
  }
  const std::string domain = token.substr(0, first);
  const std::string repository = token.substr(first + 1, last - first - 1);
  // The streams are handed each event as it is appended to the change log: an event in
  // the log has reached them.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto latest = impl_->service->LatestChangeToken(domain, repository);
    if (latest.ok() && *latest >= wanted) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace folio::testing
