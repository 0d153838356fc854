// Host and Origin rules; see web_policy.h.
#include "api/web_policy.h"

#include <algorithm>
#include <cctype>

#include "api/ascii.h"

namespace folio::api {
namespace {

constexpr std::string_view kMethods = "GET, POST, OPTIONS";
constexpr std::string_view kRequestHeaders = "Authorization, Content-Type, X-API-KEY, X-Requested-With";
constexpr std::string_view kExposedHeaders = "Content-Disposition, Content-Range, Content-Length, Location";

// At most 100 bytes of a client's header value for a message.
std::string Quoted(std::string_view value) {
  return "'" + std::string(value.substr(0, 100)) + (value.size() > 100 ? "...'" : "'");
}

bool IsLoopbackName(std::string_view name) {
  return name == "localhost" || name.ends_with(".localhost") || name == "127.0.0.1" || name == "[::1]";
}

int DefaultPort(std::string_view scheme) {
  if (scheme == "http") return 80;
  if (scheme == "https") return 443;
  return -1;
}

bool SafeMethod(std::string_view method) { return method == "GET" || method == "HEAD" || method == "OPTIONS"; }

// An option's origin may end with "/" ("http://localhost:3000/"), as people copy them.
std::string_view WithoutSlash(std::string_view origin) {
  if (origin.ends_with("/") && !origin.ends_with("://")) origin.remove_suffix(1);
  return origin;
}

// "0.0.0.0", "::" and "" listen everywhere: they name no host.
std::string NormalizedListenHost(std::string_view host) {
  if (host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]") return "";
  std::string name = AsciiToLower(host);
  // An IPv4 client of a dual-stack socket reaches "::ffff:10.0.0.5"; its Host says 10.0.0.5.
  if (name.starts_with("::ffff:") && name.find('.') != std::string::npos) name.erase(0, 7);
  if (name.find(':') != std::string::npos && name.front() != '[') name = "[" + name + "]";
  if (name.size() > 1 && name.back() == '.') name.pop_back();
  return name;
}

}  // namespace

bool WebPolicy::ParseHost(std::string_view text, Host& out) {
  out = Host();
  std::string_view name = text;
  std::string_view port;
  if (text.starts_with("[")) {
    const size_t close = text.find(']');
    if (close == std::string_view::npos || close < 3) return false;
    for (char c : text.substr(1, close - 1)) {
      if (!(std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.')) return false;
    }
    name = text.substr(0, close + 1);
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
      if (port.empty()) return false;
    }
  } else {
    const size_t colon = text.find(':');
    if (colon != std::string_view::npos) {
      name = text.substr(0, colon);
      port = text.substr(colon + 1);
      if (port.empty()) return false;
    }
    if (name.ends_with(".")) name.remove_suffix(1);  // "localhost." is localhost
    if (name.empty() || name.size() > 253) return false;
    for (char c : name) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_')) return false;
    }
  }
  if (!port.empty()) {
    if (port.size() > 5) return false;
    int n = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + (c - '0');
    }
    if (n > 65535) return false;
    out.port = n;
  }
  out.name = AsciiToLower(name);
  return true;
}

bool WebPolicy::ParseOrigin(std::string_view text, Origin& out) {
  out = Origin();
  const size_t sep = text.find("://");
  if (sep == std::string_view::npos || sep == 0) return false;
  const std::string_view scheme = text.substr(0, sep);
  if (!std::isalpha(static_cast<unsigned char>(scheme.front()))) return false;
  for (char c : scheme) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
  }
  Host host;
  if (!ParseHost(text.substr(sep + 3), host)) return false;  // a path, user info or query fails here
  out.scheme = AsciiToLower(scheme);
  out.host = std::move(host.name);
  out.port = host.port >= 0 ? host.port : DefaultPort(out.scheme);
  return true;
}

WebPolicy::WebPolicy(WebPolicyOptions options) : listen_host_(NormalizedListenHost(options.listen_host)) {
  for (const std::string& entry : options.allowed_hosts) {
    if (entry == "*") {
      any_host_ = true;
      continue;
    }
    const bool below = entry.starts_with("*.");
    Host host;
    if (!ParseHost(below ? std::string_view(entry).substr(2) : std::string_view(entry), host)) continue;
    if (below) host.name = "*." + host.name;
    allowed_hosts_.push_back(std::move(host));
  }
  for (const std::string& entry : options.cors_origins) {
    if (entry == "*") {
      any_origin_ = true;
      continue;
    }
    Origin origin;
    if (ParseOrigin(WithoutSlash(entry), origin)) cors_origins_.push_back(std::move(origin));
  }
}

Status WebPolicy::Validate(const WebPolicyOptions& options) {
  for (const std::string& entry : options.allowed_hosts) {
    if (entry == "*") continue;
    Host host;
    const std::string_view name = entry.starts_with("*.") ? std::string_view(entry).substr(2) : std::string_view(entry);
    if (!ParseHost(name, host)) {
      return InvalidArgument("--allowed-host " + Quoted(entry) +
                             " is not a host name or address with an optional :port (or *, or *.domain)");
    }
  }
  for (const std::string& entry : options.cors_origins) {
    if (entry == "*") continue;
    Origin origin;
    if (!ParseOrigin(WithoutSlash(entry), origin)) {
      return InvalidArgument("--cors-origin " + Quoted(entry) +
                             " is not an origin: scheme://host or scheme://host:port, as in http://localhost:3000 (or *)");
    }
  }
  return OkStatus();
}

bool WebPolicy::HostAllowed(const Host& host, const WebRequest& request) const {
  if (any_host_ || IsLoopbackName(host.name)) return true;
  if (!listen_host_.empty() && host.name == listen_host_) return true;
  for (const Host& allowed : allowed_hosts_) {
    if (allowed.port >= 0 && allowed.port != host.port) continue;
    if (allowed.name.starts_with("*.") ? host.name.ends_with(std::string_view(allowed.name).substr(1))
                                       : host.name == allowed.name) {
      return true;
    }
  }
  if (!request.local_address) return false;
  return host.name == NormalizedListenHost(request.local_address());
}

bool WebPolicy::OriginAllowed(const Origin& origin, const Host* own) const {
  const bool web = origin.scheme == "http" || origin.scheme == "https";
  if (web && IsLoopbackName(origin.host)) return true;
  // The page's own origin: the Host it addressed (already allowed), by either scheme (a
  // reverse proxy may have ended TLS before the request got here).
  if (web && own != nullptr && origin.host == own->name &&
      (own->port >= 0 ? origin.port == own->port : origin.port == DefaultPort(origin.scheme))) {
    return true;
  }
  return std::any_of(cors_origins_.begin(), cors_origins_.end(), [&](const Origin& o) {
    return o.scheme == origin.scheme && o.host == origin.host && o.port == origin.port;
  });
}

WebDecision WebPolicy::Decide(const WebRequest& request) const {
  WebDecision d;
  d.headers.emplace_back("Vary", "Origin");
  // Host (RFC 9112 §3.2: exactly one in HTTP/1.1), and it must name this server.
  Host host;
  const Host* own = nullptr;
  if (request.hosts.size() > 1) {
    d.status = InvalidArgument("the request has " + std::to_string(request.hosts.size()) + " Host headers: send one");
    return d;
  }
  if (request.hosts.empty()) {
    if (!request.http10) {
      d.status = InvalidArgument("an HTTP/1.1 request needs a Host header naming the server");
      return d;
    }
  } else {
    const std::string_view value = request.hosts.front();
    if (!ParseHost(value, host)) {
      d.status = InvalidArgument("malformed Host header " + Quoted(value) + ": expected host or host:port");
      return d;
    }
    if (!HostAllowed(host, request)) {
      d.status = PermissionDenied(
          "Host " + Quoted(value) + " is not a name of this server (a web page may be trying to reach it through " +
          "a name of its own): start the server with --allowed-host " + host.name + " if it is one");
      return d;
    }
    own = &host;
  }
  // Origin: only a browser sends it, naming the page that makes the request.
  if (request.origins.empty()) return d;
  if (request.origins.size() > 1) {
    d.status = InvalidArgument("the request has " + std::to_string(request.origins.size()) + " Origin headers");
    return d;
  }
  const std::string_view value = request.origins.front();
  Origin origin;
  const bool parsed = ParseOrigin(value, origin);  // "null" (a file or sandboxed page) is no origin
  const bool listed = parsed && OriginAllowed(origin, own);
  if (!listed && !any_origin_) {
    if (!SafeMethod(request.method)) {
      d.status = PermissionDenied("a web page at " + Quoted(value) +
                                  " may not change anything on this server: its origin is not allowed (a page you " +
                                  "trust can be allowed with --cors-origin ORIGIN)");
    }
    return d;  // a read, answered without CORS headers: the browser keeps it from the page
  }
  if (listed) {
    d.headers.emplace_back("Access-Control-Allow-Origin", std::string(value));
    d.headers.emplace_back("Access-Control-Allow-Credentials", "true");
  } else {
    d.headers.emplace_back("Access-Control-Allow-Origin", "*");  // --cors-origin '*': no credentials
  }
  d.headers.emplace_back("Access-Control-Expose-Headers", std::string(kExposedHeaders));
  if (request.method == "OPTIONS" && !request.preflight_method.empty()) {
    d.headers.emplace_back("Access-Control-Allow-Methods", std::string(kMethods));
    d.headers.emplace_back("Access-Control-Allow-Headers", request.preflight_headers.empty()
                                                               ? std::string(kRequestHeaders)
                                                               : std::string(request.preflight_headers));
    d.headers.emplace_back("Access-Control-Max-Age", "86400");
    // Chromium's Private Network Access: a page on a public address asks before it may
    // reach a local server; an allowed origin may.
    if (EqualsIgnoreCase(request.preflight_private_network, "true")) {
      d.headers.emplace_back("Access-Control-Allow-Private-Network", "true");
    }
  }
  return d;
}

}  // namespace folio::api
