// folio::testing::Server: the pieces of `folio serve --ephemeral --port 0` (an
// EphemeralCopy, a Store, the Service and the HTTP server on a background thread)
// behind a header that needs nothing but the standard library.
#include "folio/testing.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "api/dispatch.h"
#include "cli/data_dir.h"
#include "cli/ephemeral_copy.h"
#include "folio/store.h"
#include "http/server.h"

namespace folio::testing {

struct Server::Impl {
  std::unique_ptr<cli::EphemeralCopy> copy;
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
  auto store = Store::Open(impl_->data_dir, {.read_only = options.read_only, .durable = false});
  if (!store.ok()) Fail("cannot open the copy '" + impl_->data_dir + "': " + store.status().ToString());
  impl_->store = std::move(*store);
  api::ServiceOptions service_options;
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

}  // namespace folio::testing
