// Which requests web pages may make through a browser (docs/API.md §13): a request's Host
// must name this server (so that DNS rebinding cannot make a page on another name talk
// to it), a page on a foreign origin may not change anything, and CORS headers go only
// to allowed origins (so that a foreign page cannot read the answers). HTTP-free: src/http
// asks Decide() once per request, before anything else is done with it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "folio/status.h"

namespace folio::api {

struct WebPolicyOptions {
  // --allowed-host: names a request's Host may give besides the defaults (localhost,
  // *.localhost, 127.0.0.1, [::1], the addresses the server listens on). "name" allows
  // any port, "name:port" that port, "*.example.com" every name below example.com; "*"
  // accepts any Host.
  std::vector<std::string> allowed_hosts;
  // --cors-origin: origins ("scheme://host[:port]") allowed besides the defaults (the
  // request's own origin and every loopback origin); "*" allows every origin.
  std::vector<std::string> cors_origins;
  // The address or name the server was told to listen on (--host); a wildcard address
  // ("0.0.0.0", "::") adds nothing here: WebRequest::local_address stands for it.
  std::string listen_host;
};

// What the policy reads of one request.
struct WebRequest {
  std::string_view method;  // as sent (methods are case-sensitive)
  bool http10 = false;      // HTTP/1.0, which may omit Host
  std::vector<std::string_view> hosts;    // the value of every Host field, in order
  std::vector<std::string_view> origins;  // the value of every Origin field
  // Of a CORS preflight (OPTIONS): Access-Control-Request-Method, -Headers and
  // -Private-Network as sent ("" when absent).
  std::string_view preflight_method;
  std::string_view preflight_headers;
  std::string_view preflight_private_network;
  // The address the client connected to ("127.0.0.1", "[::1]"), asked for only when the
  // Host is none of the others; may be empty.
  std::function<std::string()> local_address;
};

struct WebDecision {
  // OK: serve the request. Otherwise answer this error and do nothing else:
  // kInvalidArgument (400) for a missing, repeated or malformed Host or Origin,
  // kPermissionDenied (403) for a Host that names no allowed host, or a request that
  // could change something (any method but GET, HEAD and OPTIONS) from a page whose
  // Origin is not allowed. The message names the host or origin and the option.
  Status status;
  // Headers to add to the response, whatever its status: Vary: Origin always; for an
  // allowed origin Access-Control-Allow-Origin and the other CORS headers (for a
  // preflight: the methods, headers and how long a browser may remember them).
  std::vector<std::pair<std::string, std::string>> headers;
};

class WebPolicy {
 public:
  // `options` must satisfy Validate(); a malformed entry allows nothing.
  explicit WebPolicy(WebPolicyOptions options);

  // Errors: kInvalidArgument naming an --allowed-host or --cors-origin value that is not
  // a host name or address (with an optional port) or an origin (scheme://host[:port],
  // http or https, nothing after it).
  static Status Validate(const WebPolicyOptions& options);

  // The decision on `request`. Thread-safe.
  WebDecision Decide(const WebRequest& request) const;

 private:
  struct Origin {
    std::string scheme;  // "http" or "https"
    std::string host;    // lowercase, IPv6 in brackets, no trailing dot
    int port = 0;        // the scheme's default when none was given
  };
  struct Host {
    std::string name;  // as Origin::host
    int port = -1;     // -1: none given
  };
  static bool ParseHost(std::string_view text, Host& out);
  static bool ParseOrigin(std::string_view text, Origin& out);

  bool HostAllowed(const Host& host, const WebRequest& request) const;
  // The origin's CORS headers are sent: own origin, loopback, --cors-origin.
  bool OriginAllowed(const Origin& origin, const Host* own) const;

  bool any_host_ = false;
  bool any_origin_ = false;
  std::vector<Host> allowed_hosts_;  // "*." entries keep the "*." prefix in name
  std::vector<Origin> cors_origins_;
  std::string listen_host_;  // normalized; "" when a wildcard or none
};

}  // namespace folio::api
