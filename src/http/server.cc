// The server: the listening socket, routing of each request, the operations endpoints;
// see server.h.
#include "http/server.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "api/ascii.h"
#include "api/auth/credentials.h"
#include "api/body_reader.h"
#include "api/form_limits.h"
#include "api/params.h"
#include "http/request_reader.h"
#include "http/ui_endpoint.h"
#include "ui/assets.h"

namespace folio::http {
namespace {

// "host:port" the client connected to (IPv6 in brackets).
std::string LocalAuthority(const HttpHead& head) {
  if (head.local_address.empty()) return "localhost";
  const std::string& a = head.local_address;
  return (a.find(':') != std::string::npos ? "[" + a + "]" : a) + ":" + std::to_string(head.local_port);
}

// What the Host and Origin rules read of `head` (api/web_policy.h).
api::WebRequest WebRequestOf(const HttpHead& head) {
  api::WebRequest w;
  w.method = head.method;
  w.http10 = head.minor_version == 0;
  for (const auto& [name, value] : head.headers) {
    if (api::EqualsIgnoreCase(name, "Host")) w.hosts.push_back(value);
    if (api::EqualsIgnoreCase(name, "Origin")) w.origins.push_back(value);
  }
  w.preflight_method = head.header("Access-Control-Request-Method");
  w.preflight_headers = head.header("Access-Control-Request-Headers");
  w.preflight_private_network = head.header("Access-Control-Request-Private-Network");
  w.local_address = [address = head.local_address] { return address; };
  return w;
}

api::WebPolicyOptions WithListenHost(api::WebPolicyOptions web, const std::string& host) {
  web.listen_host = host;
  return web;
}

// A GET or HEAD whose answer may come from the response cache, or go into it: no body,
// no Range (an answer is kept under its URL and credentials: api::ResponseCache::KeyFor).
bool MayReuse(const HttpHead& head) {
  if (head.method != "GET" && head.method != "HEAD") return false;
  for (const auto& [name, value] : head.headers) {
    for (std::string_view barred : {"Content-Length", "Transfer-Encoding", "Range", "Folio-Fault"}) {
      if (api::EqualsIgnoreCase(name, barred)) return false;
    }
  }
  return true;
}

api::Response HealthResponse(bool stopping) {
  api::Response r;
  r.status = stopping ? 503 : 200;
  r.content_type = "application/json; charset=UTF-8";
  r.body = stopping ? R"({"status":"stopping"})" : R"({"status":"ok"})";
  r.operation = "health";
  return r;
}

}  // namespace

Server::Server(api::Service& service, ServerOptions options)
    : service_(service),
      options_(std::move(options)),
      web_policy_(WithListenHost(options_.web, options_.host)),
      log_(options_.log_format),
      cache_(options_.response_cache_entries),
      call_context_{service_, options_.max_body, metrics_, log_, cache_} {
  limits_.max_header_bytes = options_.max_header_bytes;
  limits_.max_header_fields = options_.max_header_fields;
  limits_.keep_alive_timeout = options_.keep_alive_timeout;
  limits_.request_timeout = options_.request_timeout;
  limits_.max_connections = std::max<size_t>(1, options_.max_connections);
  limits_.min_threads = options_.threads > 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  engine_ = std::make_unique<Engine>(*this, limits_, metrics_);
}

Server::~Server() {
  Stop();
  if (listen_fd_ >= 0 && !started_) ::close(listen_fd_);  // once started, the engine closes it
}

std::string Server::Url() const {
  const bool v6 = options_.host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + options_.host + "]" : options_.host) + ":" + std::to_string(port_) + "/";
}

Status Server::Bind() {
  if (listen_fd_ >= 0) return OkStatus();
  FOLIO_RETURN_IF_ERROR(api::WebPolicy::Validate(options_.web));
  FOLIO_ASSIGN_OR_RETURN(Listener listener, Listener::Open(options_.host, options_.port));
  return Bind(std::move(listener));
}

Status Server::Bind(Listener listener) {
  if (listen_fd_ >= 0 || !listener.valid()) return RuntimeError("the server is bound already, or the socket is closed");
  port_ = listener.port();
  listen_fd_ = listener.Release();
  return OkStatus();
}

Status Server::Start() {
  FOLIO_RETURN_IF_ERROR(Bind());
  std::lock_guard<std::mutex> lock(mu_);
  if (!started_ && !stopped_) {
    started_ = true;
    serve_thread_ = std::thread([this] {
      if (!engine_->Serve(listen_fd_)) spdlog::error("the server stopped accepting connections: {}", std::strerror(errno));
    });
    // Requests are accepted once the engine runs (the socket listens already: a client
    // connecting before then waits in the listen queue).
    while (!engine_->is_running() && !engine_->stopping()) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return OkStatus();
}

Status Server::Serve() {
  FOLIO_RETURN_IF_ERROR(Start());
  std::unique_lock<std::mutex> lock(mu_);
  stopped_cv_.wait(lock, [&] { return stopped_; });
  return OkStatus();
}

void Server::Stop() {
  stopping_ = true;
  service_.Stopping();  // event streams end, so that no request is left waiting
  engine_->Stop();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (serve_thread_.joinable()) serve_thread_.join();  // every connection has ended
  }
  std::lock_guard<std::mutex> lock(mu_);
  stopped_ = true;
  stopped_cv_.notify_all();
}

std::unique_ptr<Call> Server::Begin(HttpHead head) {
  // Host and Origin (docs/API.md §13) before anything else (the engine has checked the
  // body's framing): a refused request does nothing, and its body is never read
  // (Call::WantsBody).
  api::WebDecision web = web_policy_.Decide(WebRequestOf(head));
  auto call = std::make_unique<Call>(call_context_, head, std::move(web.headers));
  if (!web.status.ok()) {
    call->Fail(0, web.status);
    return call;
  }
  const std::string& method = head.method;
  const std::string_view path = std::string_view(head.target).substr(0, head.target.find('?'));
  if (method == "OPTIONS") {  // a CORS preflight: the policy's headers answer it (docs/API.md §13.2)
    api::Response r;
    r.status = 204;
    r.headers.emplace_back("Allow", "GET, POST, OPTIONS");
    call->Answer(std::move(r));
    return call;
  }
  // The fixture endpoints (docs/API.md §14) are the service's; DELETE removes a snapshot.
  const bool fixture = path == "/-/reset" || path == "/-/events" || path == "/-/snapshots" ||
                       path.substr(0, 13) == "/-/snapshots/";
  if (method != "GET" && method != "HEAD" && method != "POST" && !(fixture && method == "DELETE")) {
    call->Fail(0, NotSupported("method " + method + " is not supported: use GET or POST"));  // as the binding
    return call;
  }
  if (path.substr(0, 3) == "/-/" && !fixture) {  // never a domain: domain ids are word characters
    OperationsEndpoint(*call, head, path);
    return call;
  }
  const bool may_reuse = options_.response_cache_entries > 0 && MayReuse(head);
  if (may_reuse) {
    const std::string key =
        api::ResponseCache::KeyFor(head.target, head.header("Authorization"), head.header("X-API-KEY"));
    if (std::shared_ptr<const api::ResponseCache::Answer> kept = cache_.Find(key)) {
      call->AnswerKept(*kept);
      return call;
    }
  }
  auto request = ReadRequestHead(head, [&head] { return LocalAuthority(head); });
  if (!request.ok()) {
    call->Fail(0, request.status());
    return call;
  }
  // Who is asking (docs/API.md §11.2): credentials, and whether the client is local.
  request->authorization = std::string(head.header("Authorization"));
  request->api_key = std::string(head.header("X-API-KEY"));
  request->peer_address = head.peer_address;
  request->peer_loopback = api::auth::IsLoopbackAddress(request->peer_address);
  // Refuse before reading when the client announces too much (docs/API.md §9).
  const uint64_t announced = head.content_length;
  if (announced > options_.max_body) {
    call->Fail(413, api::BodyTooLarge(options_.max_body));
    return call;
  }
  // A JSON body is held whole (it is all fields): one announced over their limit is
  // refused before a byte of it is read, and one within it is read into a buffer of the
  // announced size, grown no further (docs/API.md §9).
  if (announced > api::kMaxFormBytes &&
      api::BodyEncodingOf(api::MediaType(request->content_type)) == api::BodyEncoding::kJson) {
    call->Fail(0, api::JsonBodyTooLarge());
    return call;
  }
  call->Handle(std::move(*request), may_reuse, announced);
  return call;
}

std::unique_ptr<Call> Server::Refuse(int status, std::string message, const HttpHead& head) {
  auto call = std::make_unique<Call>(call_context_, head, CorsHeaders());
  call->Fail(status, InvalidArgument(message));
  return call;
}

void Server::OperationsEndpoint(Call& call, const HttpHead& head, std::string_view path) const {
  if (ui::IsUiPath(path)) {  // the browse UI (docs/API.md §2.4)
    AnswerUi(call, head, path);
    return;
  }
  if (path != "/-/health" && path != "/-/metrics") {
    call.Fail(0, ObjectNotFound("no operations endpoint '" + std::string(path.substr(0, 100)) +
                                "': use /-/health, /-/metrics or /-/ui/"));
    return;
  }
  if (head.method == "POST") {
    call.Fail(0, NotSupported(std::string(path) + " answers GET only"));
    return;
  }
  if (path == "/-/health") {
    // 503 while stopping: a load balancer stops sending new requests here.
    call.Answer(HealthResponse(stopping_));
    return;
  }
  api::Response r;
  r.content_type = "text/plain; version=0.0.4; charset=utf-8";
  r.body = metrics_.Render();
  r.operation = "metrics";
  call.Answer(std::move(r));
}

}  // namespace folio::http
