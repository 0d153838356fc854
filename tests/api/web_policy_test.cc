// The Host and Origin rules (api/web_policy.h) without a socket.
#include "api/web_policy.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

namespace folio::api {
namespace {

WebRequest Req(std::string_view method, std::string_view host, std::string_view origin = {}) {
  WebRequest r;
  r.method = method;
  if (!host.empty()) r.hosts.push_back(host);
  if (!origin.empty()) r.origins.push_back(origin);
  return r;
}

std::string HeaderOf(const WebDecision& d, std::string_view name) {
  for (const auto& [n, v] : d.headers) {
    if (n == name) return v;
  }
  return "";
}

bool Contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Options with every field named (g++ 12 warns of a designated initializer that leaves
// one out).
WebPolicyOptions Opts(std::vector<std::string> hosts, std::vector<std::string> origins = {}, std::string listen = "") {
  return WebPolicyOptions{std::move(hosts), std::move(origins), std::move(listen)};
}

}  // namespace

TEST_CASE("Web policy: default hosts are loopback names and the listening address, any port") {
  WebPolicy p(Opts({}, {}, "10.1.2.3"));
  for (std::string_view host : {"localhost", "localhost:8080", "LOCALHOST:1", "localhost.", "app.localhost:3000",
                                "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:8080", "10.1.2.3", "10.1.2.3:8080"}) {
    CAPTURE(host);
    CHECK(p.Decide(Req("GET", host)).status.ok());
    CHECK(p.Decide(Req("POST", host)).status.ok());
  }
  for (std::string_view host : {"evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.2",
                                "10.1.2.4", "evillocalhost"}) {
    CAPTURE(host);
    const Status s = p.Decide(Req("GET", host)).status;
    CHECK(s.kind() == ErrorKind::kPermissionDenied);
    CHECK(Contains(s.message(), "'" + std::string(host) + "'"));
    CHECK(Contains(s.message(), "--allowed-host"));
  }
}

TEST_CASE("Web policy: the connection's local address stands for a wildcard listening address") {
  WebPolicy p(Opts({}, {}, "0.0.0.0"));
  WebRequest r = Req("GET", "192.168.1.20:8080");
  CHECK(p.Decide(r).status.kind() == ErrorKind::kPermissionDenied);
  r.local_address = [] { return std::string("192.168.1.20"); };
  CHECK(p.Decide(r).status.ok());
  WebRequest v6 = Req("GET", "[fd00::5]:8080");
  v6.local_address = [] { return std::string("fd00::5"); };
  CHECK(p.Decide(v6).status.ok());
  WebRequest mapped = Req("GET", "192.168.1.20");  // an IPv4 client of a dual-stack socket
  mapped.local_address = [] { return std::string("::ffff:192.168.1.20"); };
  CHECK(p.Decide(mapped).status.ok());
  r.hosts = {"192.168.1.21"};
  CHECK(p.Decide(r).status.kind() == ErrorKind::kPermissionDenied);
}

TEST_CASE("Web policy: --allowed-host names, ports, subdomains and *") {
  WebPolicy p(Opts({"folio.example.com", "files.example.org:8443", "*.corp.example"}));
  CHECK(p.Decide(Req("GET", "folio.example.com")).status.ok());
  CHECK(p.Decide(Req("GET", "Folio.Example.Com:443")).status.ok());
  CHECK(p.Decide(Req("GET", "files.example.org:8443")).status.ok());
  CHECK(!p.Decide(Req("GET", "files.example.org:8444")).status.ok());
  CHECK(!p.Decide(Req("GET", "files.example.org")).status.ok());
  CHECK(p.Decide(Req("GET", "a.corp.example")).status.ok());
  CHECK(p.Decide(Req("GET", "a.b.corp.example:80")).status.ok());
  CHECK(!p.Decide(Req("GET", "corp.example")).status.ok());
  CHECK(!p.Decide(Req("GET", "evilcorp.example")).status.ok());
  WebPolicy any(Opts({"*"}));
  CHECK(any.Decide(Req("POST", "anything.example:1")).status.ok());
}

TEST_CASE("Web policy: HTTP/1.1 needs exactly one well-formed Host; HTTP/1.0 may omit it") {
  WebPolicy p({});
  Status none = p.Decide(Req("GET", "")).status;
  CHECK(none.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(none.message(), "Host"));
  WebRequest old = Req("GET", "");
  old.http10 = true;
  CHECK(p.Decide(old).status.ok());
  old.hosts = {"evil.example"};  // given, it must name the server
  CHECK(p.Decide(old).status.kind() == ErrorKind::kPermissionDenied);
  WebRequest two = Req("GET", "localhost");
  two.hosts.push_back("localhost");
  Status twice = p.Decide(two).status;
  CHECK(twice.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(twice.message(), "2 Host headers"));
  for (std::string_view bad : {"", "local host", "localhost:", "localhost:99999", "localhost:8a", "[::1", "[zz::1]",
                               "a/b", "user@localhost", "::1"}) {
    CAPTURE(bad);
    WebRequest r;
    r.method = "GET";
    r.hosts = {bad};
    const Status s = p.Decide(r).status;
    CHECK(s.kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(s.message(), "malformed Host"));
  }
}

TEST_CASE("Web policy: a foreign origin may read (without CORS headers) but not write") {
  WebPolicy p({});
  for (std::string_view method : {"POST", "PUT", "DELETE", "PATCH", "get"}) {
    CAPTURE(method);
    const WebDecision d = p.Decide(Req(method, "127.0.0.1:8080", "http://evil.example"));
    CHECK(d.status.kind() == ErrorKind::kPermissionDenied);
    CHECK(Contains(d.status.message(), "'http://evil.example'"));
    CHECK(Contains(d.status.message(), "--cors-origin"));
    CHECK(HeaderOf(d, "Access-Control-Allow-Origin").empty());
  }
  for (std::string_view method : {"GET", "HEAD", "OPTIONS"}) {
    CAPTURE(method);
    const WebDecision d = p.Decide(Req(method, "127.0.0.1:8080", "http://evil.example"));
    CHECK(d.status.ok());
    CHECK(HeaderOf(d, "Access-Control-Allow-Origin").empty());
    CHECK(HeaderOf(d, "Vary") == "Origin");
  }
  // "null" (a file or a sandboxed page) and malformed origins are foreign too.
  CHECK(p.Decide(Req("POST", "localhost", "null")).status.kind() == ErrorKind::kPermissionDenied);
  CHECK(p.Decide(Req("POST", "localhost", "localhost:3000")).status.kind() == ErrorKind::kPermissionDenied);
  CHECK(p.Decide(Req("POST", "localhost", "http://localhost:3000/path")).status.kind() ==
        ErrorKind::kPermissionDenied);
  // Requests without Origin (curl, SDKs) are not a page's.
  const WebDecision plain = p.Decide(Req("POST", "localhost:8080"));
  CHECK(plain.status.ok());
  CHECK(HeaderOf(plain, "Access-Control-Allow-Origin").empty());
}

TEST_CASE("Web policy: own origin, every loopback origin and --cors-origin get CORS headers") {
  WebPolicy p(Opts({"folio.example.com"}, {"https://app.example.com/", "tauri://localhost"}));
  struct Case {
    std::string_view host, origin;
  };
  for (const Case& c : {Case{"localhost:8080", "http://localhost:8080"}, Case{"localhost:8080", "http://localhost:3000"},
                        Case{"localhost:8080", "https://127.0.0.1:9"}, Case{"localhost:8080", "http://[::1]:5173"},
                        Case{"localhost:8080", "http://app.localhost:5173"},
                        Case{"folio.example.com", "https://folio.example.com"},  // behind a TLS proxy
                        Case{"folio.example.com:8080", "http://folio.example.com:8080"},
                        Case{"localhost:8080", "https://app.example.com"}, Case{"localhost:8080", "tauri://localhost"}}) {
    CAPTURE(c.host);
    CAPTURE(c.origin);
    const WebDecision d = p.Decide(Req("POST", c.host, c.origin));
    CHECK(d.status.ok());
    CHECK(HeaderOf(d, "Access-Control-Allow-Origin") == c.origin);
    CHECK(HeaderOf(d, "Access-Control-Allow-Credentials") == "true");
    CHECK(Contains(HeaderOf(d, "Access-Control-Expose-Headers"), "Content-Disposition"));
  }
  // Not the own origin: another port, another scheme's default port, a listed origin's
  // other port.
  for (const Case& c : {Case{"folio.example.com:8080", "http://folio.example.com:8081"},
                        Case{"folio.example.com", "http://folio.example.com:8080"},
                        Case{"localhost", "https://app.example.com:8443"}, Case{"localhost", "http://app.example.com"}}) {
    CAPTURE(c.origin);
    CHECK(p.Decide(Req("POST", c.host, c.origin)).status.kind() == ErrorKind::kPermissionDenied);
  }
}

TEST_CASE("Web policy: --cors-origin * allows every origin without credentials") {
  WebPolicy p(Opts({}, {"*"}));
  const WebDecision d = p.Decide(Req("POST", "localhost", "http://anyone.example"));
  CHECK(d.status.ok());
  CHECK(HeaderOf(d, "Access-Control-Allow-Origin") == "*");
  CHECK(HeaderOf(d, "Access-Control-Allow-Credentials").empty());
  // A loopback page still gets its own origin echoed, with credentials.
  CHECK(HeaderOf(p.Decide(Req("POST", "localhost", "http://localhost:3000")), "Access-Control-Allow-Origin") ==
        "http://localhost:3000");
  // The Host rule still holds.
  CHECK(p.Decide(Req("GET", "evil.example", "http://evil.example")).status.kind() == ErrorKind::kPermissionDenied);
}

TEST_CASE("Web policy: a preflight from an allowed origin is answered; from another, not") {
  WebPolicy p({});
  WebRequest r = Req("OPTIONS", "127.0.0.1:8080", "http://localhost:3000");
  r.preflight_method = "POST";
  r.preflight_headers = "authorization, x-requested-with";
  r.preflight_private_network = "true";
  WebDecision d = p.Decide(r);
  CHECK(d.status.ok());
  CHECK(HeaderOf(d, "Access-Control-Allow-Origin") == "http://localhost:3000");
  CHECK(HeaderOf(d, "Access-Control-Allow-Methods") == "GET, POST, OPTIONS");
  CHECK(HeaderOf(d, "Access-Control-Allow-Headers") == "authorization, x-requested-with");
  CHECK(HeaderOf(d, "Access-Control-Max-Age") == "86400");
  CHECK(HeaderOf(d, "Access-Control-Allow-Private-Network") == "true");
  r.preflight_headers = "";
  CHECK(Contains(HeaderOf(p.Decide(r), "Access-Control-Allow-Headers"), "Authorization"));
  r.origins = {"http://evil.example"};
  d = p.Decide(r);
  CHECK(d.status.ok());
  for (std::string_view name : {"Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
                                "Access-Control-Allow-Headers", "Access-Control-Allow-Private-Network"}) {
    CAPTURE(name);
    CHECK(HeaderOf(d, name).empty());
  }
  // Two Origin headers are no browser's.
  r.origins = {"http://localhost:3000", "http://evil.example"};
  CHECK(p.Decide(r).status.kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("Web policy: Validate names a malformed --allowed-host or --cors-origin") {
  CHECK(WebPolicy::Validate(Opts({"*", "*.example.com", "a.example:8080", "[::1]", "10.0.0.1"},
                                 {"*", "http://localhost:3000", "https://app.example.com/"}))
            .ok());
  Status host = WebPolicy::Validate(Opts({"good.example", "bad host"}));
  CHECK(host.kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(host.message(), "--allowed-host 'bad host'"));
  for (std::string bad : {"localhost:3000", "http://", "http://a.example/path", "null", "http://a b"}) {
    CAPTURE(bad);
    Status origin = WebPolicy::Validate(Opts({}, {bad}));
    CHECK(origin.kind() == ErrorKind::kInvalidArgument);
    CHECK(Contains(origin.message(), "--cors-origin '" + bad + "'"));
  }
}

}  // namespace folio::api
