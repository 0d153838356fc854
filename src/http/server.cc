// cpp-httplib wiring: routes, CORS, body limits, streaming responses; see server.h.
#include "http/server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "api/error_response.h"
#include "http/request_log.h"
#include "http/request_reader.h"
#include "http/reactor_server.h"

namespace folio::http {
namespace {

constexpr size_t kMaxWorkers = 256;
constexpr size_t kChunk = 64 * 1024;

// CORS headers for a request from `origin` (CONTRACT §2): "*" allows every origin; a
// list allows those it names, echoing the matching one.
void AddCors(const std::string& allowed, const httplib::Request& req, httplib::Response& res) {
  if (allowed == "*") {
    res.set_header("Access-Control-Allow-Origin", "*");
  } else {
    const std::string origin = req.get_header_value("Origin");
    bool match = false;
    size_t pos = 0;
    while (pos <= allowed.size() && !origin.empty()) {
      size_t comma = allowed.find(',', pos);
      if (comma == std::string::npos) comma = allowed.size();
      std::string one = allowed.substr(pos, comma - pos);
      one.erase(0, one.find_first_not_of(' '));
      one.erase(one.find_last_not_of(' ') + 1);
      if (one == origin) match = true;
      pos = comma + 1;
    }
    if (match) {
      res.set_header("Access-Control-Allow-Origin", origin);
      res.set_header("Access-Control-Allow-Credentials", "true");
    }
    res.set_header("Vary", "Origin");
  }
  res.set_header("Access-Control-Expose-Headers", "Content-Disposition, Content-Range, Content-Length, Location");
}

void SetError(const api::Response& error, httplib::Response& res) {
  res.status = error.status;
  for (const auto& [k, v] : error.headers) res.set_header(k, v);
  res.set_content(error.body, error.content_type);
}

void Send(api::Response&& r, httplib::Response& res) {
  res.status = r.status;
  for (const auto& [k, v] : r.headers) res.set_header(k, v);
  if (r.stream && r.length > 0) {
    std::shared_ptr<ReadableFile> file(std::move(r.stream));
    const uint64_t base = r.offset;
    res.set_content_provider(
        static_cast<size_t>(r.length), r.content_type,
        [file, base](size_t offset, size_t length, httplib::DataSink& sink) {
          if (!file->Seek(base + offset).ok()) return false;
          std::string buffer(std::min(length, kChunk), '\0');
          auto n = file->Read(buffer.data(), buffer.size());
          if (!n.ok() || *n == 0) return false;
          return sink.write(buffer.data(), *n);
        });
    return;
  }
  if (!r.content_type.empty()) {
    // What set_content does, without copying the body.
    res.body = std::move(r.body);
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", r.content_type);
  } else {
    res.set_content("", "text/plain");
  }
}

bool Suppressed(const httplib::Request& req) {
  const std::string v = req.get_param_value("suppressResponseCodes");
  return v == "true" || v == "TRUE" || v == "True";
}

}  // namespace

Server::Server(api::Service& service, ServerOptions options)
    : service_(service), options_(std::move(options)) {
  ReactorOptions reactor;
  reactor.core_workers = options_.threads > 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  reactor.max_workers = std::max(reactor.core_workers, kMaxWorkers);
  reactor.keep_alive_timeout = options_.keep_alive_timeout;
  reactor.keep_alive_max_count = 10000;
  server_ = std::make_unique<ReactorServer>(reactor);
  Install();
}

Server::~Server() { Stop(); }

std::string Server::Url() const {
  const bool v6 = options_.host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + options_.host + "]" : options_.host) + ":" + std::to_string(port_) + "/";
}

void Server::Install() {
  httplib::Server& s = *server_;
  s.set_tcp_nodelay(true);
  s.set_socket_options([this](socket_t fd) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    listen_fd_ = fd;
  });
  s.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    RequestLogBegin();
    // A GET or HEAD without a body (nearly every read) is answered here: the routes
    // below would only match it against ".*" with std::regex. One with a body goes the
    // routed way, which reads and discards the body first.
    if ((req.method == "GET" || req.method == "HEAD") && !req.has_header("Content-Length") &&
        !req.has_header("Transfer-Encoding")) {
      get_(req, res);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  s.set_logger([](const httplib::Request& req, const httplib::Response& res) { RequestLogWrite(req, res); });
  // Failures cpp-httplib detects itself (bad request line, Range syntax, ...) get the
  // JSON error body too.
  s.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
    // Called for every status >= 400, ours included: add CORS only where it is missing
    // (a repeated Access-Control-Allow-Origin makes browsers refuse the response).
    if (!res.has_header("Access-Control-Expose-Headers")) AddCors(options_.cors_origin, req, res);
    if (!res.body.empty()) return;
    SetError(api::MakeTransportErrorResponse(res.status), res);
  });
  s.set_exception_handler([this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown exception";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    spdlog::error("internal error on {} {}: {}", req.method, req.path, what);
    SetError(api::MakeErrorResponse(RuntimeError("internal error: " + what), Suppressed(req)), res);
    if (!res.has_header("Access-Control-Expose-Headers")) AddCors(options_.cors_origin, req, res);
  });

  auto handle = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader* reader) {
    AddCors(options_.cors_origin, req, res);
    // The Range of a content stream is applied by the service; cpp-httplib must not
    // apply it a second time (nor to JSON bodies).
    const_cast<httplib::Request&>(req).ranges.clear();
    auto head = ReadRequestHead(req);
    if (!head.ok()) {
      if (reader != nullptr) res.set_header("Connection", "close");  // the body stays unread
      SetError(api::MakeErrorResponse(head.status(), Suppressed(req)), res);
      return;
    }
    api::Request request = std::move(*head);
    if (request.method == "HEAD") request.method = "GET";
    if (reader != nullptr) {
      BodyResult body = ReadRequestBody(req, *reader, service_, options_.max_body, request);
      if (!body.status.ok()) {
        service_.ReleaseUpload(request);
        res.set_header("Connection", "close");
        SetError(body.too_large ? api::MakeTransportErrorResponse(api::TransportError::kBodyTooLarge,
                                                                  body.status.message(), Suppressed(req))
                                : api::MakeErrorResponse(body.status, Suppressed(req)),
                 res);
        return;
      }
    }
    api::Response response = service_.Handle(request);
    RequestLogOperation(response.operation);
    Send(std::move(response), res);
  };

  get_ = [handle](const httplib::Request& req, httplib::Response& res) { handle(req, res, nullptr); };
  s.Get(".*", get_);
  s.Post(".*", [handle](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    handle(req, res, &reader);
  });
  // CORS preflight (CONTRACT §2).
  s.Options(".*", [this](const httplib::Request& req, httplib::Response& res) {
    AddCors(options_.cors_origin, req, res);
    res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    const std::string asked = req.get_header_value("Access-Control-Request-Headers");
    res.set_header("Access-Control-Allow-Headers",
                   asked.empty() ? "Authorization, Content-Type, X-API-KEY" : asked);
    res.set_header("Access-Control-Max-Age", "86400");
    res.set_header("Allow", "GET, POST, OPTIONS");
    res.status = 204;
  });
  // The binding uses GET and POST only (binding §0).
  auto refuse = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader&) {
    AddCors(options_.cors_origin, req, res);
    res.set_header("Allow", "GET, POST, OPTIONS");
    res.set_header("Connection", "close");
    SetError(api::MakeErrorResponse(NotSupported("method " + req.method + " is not supported: use GET or POST"),
                                    Suppressed(req)),
             res);
  };
  s.Put(".*", refuse);
  s.Patch(".*", refuse);
  s.Delete(".*", refuse);
}

Status Server::Bind() {
  if (options_.port == 0) {
    port_ = server_->bind_to_any_port(options_.host);
    if (port_ <= 0) return RuntimeError("cannot listen on " + options_.host + " (any port)");
  } else {
    if (!server_->bind_to_port(options_.host, options_.port)) {
      return RuntimeError("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                          " (address in use or not available)");
    }
    port_ = options_.port;
  }
  // cpp-httplib listens with a backlog of 5; many clients connecting at once would see
  // their SYNs dropped and retried a second later. Listening again raises it.
  if (listen_fd_ >= 0) ::listen(listen_fd_, 1024);
  return OkStatus();
}

// Stop() and Serve() may race (a signal right at start-up): Stop() raises
// stop_requested_ first and Serve() raises serving_ first, so at least one of them sees
// the other; the server can only be stopped once it runs, hence the wait.
Status Server::Serve() {
  serving_ = true;
  if (stop_requested_) {
    serve_returned_ = true;
    return OkStatus();
  }
  const bool ok = server_->listen_after_bind();
  serve_returned_ = true;
  if (!ok && !stop_requested_) return RuntimeError("the server stopped unexpectedly");
  return OkStatus();
}

Status Server::Start() {
  FOLIO_RETURN_IF_ERROR(Bind());
  thread_ = std::thread([this] { (void)Serve(); });
  while (!server_->is_running() && !serve_returned_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return OkStatus();
}

void Server::Stop() {
  stop_requested_ = true;
  if (serving_) {
    while (!server_->is_running() && !serve_returned_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_->Stop();
  }
  if (thread_.joinable()) thread_.join();
}

}  // namespace folio::http
