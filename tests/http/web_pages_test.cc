// Browsers and web pages on the same machine (docs/API.md §13) over HTTP: a page on
// another site can neither change nor read a repository through the developer's
// browser (its writes are refused before anything is done, its reads get no CORS
// headers, DNS rebinding meets the Host rule), while a page on another loopback port can.
#include <unistd.h>

#include <string>
#include <vector>

#include "http/raw_socket.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

// Sends `raw` and returns everything the server answers until it closes the connection
// (or 3 s pass).
std::string Exchange(int port, const std::string& raw) {
  const int fd = Connect(port, 3);
  SendAll(fd, raw);
  std::string out = ReadAll(fd);
  ::close(fd);
  return out;
}

size_t Count(const std::string& text, std::string_view part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

Json BodyOf(const std::string& raw) { return Json::parse(BodyText(raw), nullptr, false); }

// The attack: a form on http://evil.example posts deleteDomain to the server.
std::string DeleteDomainForm(int port, const std::string& origin_line, const std::string& domain) {
  const std::string body = "operation=deleteDomain&domainId=" + domain;
  return "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n" + origin_line +
         "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

bool DomainExists(httplib::Client& c, const std::string& domain) {
  auto r = c.Get(("/" + domain).c_str());
  REQUIRE(r);
  return r->status == 200;
}

}  // namespace

TEST_CASE("Web pages: a foreign page's form POST of deleteDomain is refused 403 and the domain stays") {
  ServerFixture f;
  auto c = f.Client();
  const std::string refused = Exchange(f.port(), DeleteDomainForm(f.port(), "Origin: http://evil.example\r\n", "demo"));
  CHECK(StatusOf(refused) == 403);
  CHECK(BodyOf(refused)["exception"] == "permissionDenied");
  const std::string message = BodyOf(refused)["message"];
  CHECK(message.find("'http://evil.example'") != std::string::npos);
  CHECK(message.find("--cors-origin") != std::string::npos);
  CHECK(HeaderIn(refused, "Access-Control-Allow-Origin").empty());
  CHECK(DomainExists(c, "demo"));
  // Through every body encoding a form or fetch() can send.
  for (const std::string type : {"multipart/form-data; boundary=b", "text/plain", "application/json"}) {
    CAPTURE(type);
    const std::string raw = "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n"
                            "Content-Type: " + type + "\r\nContent-Length: 18\r\nConnection: close\r\n\r\n"
                            "cmisaction=delete&";
    CHECK(StatusOf(Exchange(f.port(), raw)) == 403);
  }
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  // The same form from the server's own page, or without Origin (curl), does delete: the
  // refusal above is the Origin rule's.
  const std::string own = Exchange(f.port(), DeleteDomainForm(f.port(), "", "demo"));
  CHECK(StatusOf(own) == 200);
  CHECK(!DomainExists(c, "demo"));
}

TEST_CASE("Web pages: a refused write's body never runs as a request, however it is framed") {
  ServerFixture f;
  auto c = f.Client();
  // A text/plain body (a form can send one) that holds a whole request of its own.
  const std::string inner = DeleteDomainForm(f.port(), "", "demo");
  const std::string head = "POST /demo HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(f.port()) +
                           "\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\n";
  SUBCASE("with Content-Length") {
    const std::string answer =
        Exchange(f.port(), head + "Content-Length: " + std::to_string(inner.size()) + "\r\n\r\n" + inner);
    CHECK(StatusOf(answer) == 403);
    CHECK(Count(answer, "HTTP/1.1 ") == 1);  // one answer, then the connection closed
    CHECK(HeaderIn(answer, "Connection") == "close");
  }
  SUBCASE("chunked") {
    char size[16];
    std::snprintf(size, sizeof size, "%zx", inner.size());
    const std::string answer =
        Exchange(f.port(), head + "Transfer-Encoding: chunked\r\n\r\n" + size + "\r\n" + inner + "\r\n0\r\n\r\n");
    CHECK(StatusOf(answer) == 403);
    CHECK(Count(answer, "HTTP/1.1 ") == 1);
  }
  SUBCASE("the request pipelined after the refused one's body") {
    const std::string answer = Exchange(f.port(), head + "Content-Length: 3\r\n\r\nabc" + inner);
    CHECK(StatusOf(answer) == 403);
    CHECK(Count(answer, "HTTP/1.1 ") == 1);
  }
  CHECK(DomainExists(c, "demo"));
}

TEST_CASE("Web pages: a foreign page's reads get no CORS headers; the answer itself is unchanged") {
  ServerFixture f;
  auto c = f.Client();
  for (const std::string target : {"/demo/beta/docs/readme.txt", "/demo/beta?cmisselector=repositoryInfo", "/",
                                   "/demo/beta/nosuch", "/-/health"}) {
    CAPTURE(target);
    auto foreign = c.Get(target.c_str(), {{"Origin", "http://evil.example"}});
    auto plain = c.Get(target.c_str());
    REQUIRE(foreign);
    CHECK(foreign->status == plain->status);
    CHECK(!foreign->has_header("Access-Control-Allow-Origin"));
    CHECK(!foreign->has_header("Access-Control-Allow-Credentials"));
    CHECK(foreign->get_header_value("Vary") == "Origin");
  }
}

TEST_CASE("Web pages: DNS rebinding (a Host that is not the server's) is refused 403, whatever is asked") {
  ServerFixture f;
  const std::string port = std::to_string(f.port());
  const std::string form = "operation=deleteDomain&domainId=demo";
  for (const std::string& request : std::vector<std::string>
       {std::string("GET /demo/beta/docs/readme.txt HTTP/1.1\r\n"), std::string("GET /-/health HTTP/1.1\r\n"),
        std::string("OPTIONS /demo HTTP/1.1\r\n"),
        "POST / HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
            std::to_string(form.size()) + "\r\n"}) {
    CAPTURE(request);
    // The rebound page is same-origin with itself: Origin http://evil.example:PORT.
    const std::string answer =
        Exchange(f.port(), request + "Host: evil.example:" + port + "\r\nOrigin: http://evil.example:" + port +
                               "\r\nConnection: close\r\n\r\n" + form);
    CHECK(StatusOf(answer) == 403);
    CHECK(BodyOf(answer)["exception"] == "permissionDenied");
    const std::string message = BodyOf(answer)["message"];
    CHECK(message.find("'evil.example:" + port + "'") != std::string::npos);
    CHECK(message.find("--allowed-host evil.example") != std::string::npos);
    CHECK(HeaderIn(answer, "Access-Control-Allow-Origin").empty());
    CHECK(BodyText(answer).find("hello") == std::string::npos);
  }
  auto c = f.Client();
  CHECK(DomainExists(c, "demo"));
  // The server's own names, with or without port, are served.
  for (const std::string& host : std::vector<std::string>{"localhost", "localhost:" + port, "127.0.0.1:" + port,
                                                          "[::1]:" + port, "ui.localhost:" + port}) {
    CAPTURE(host);
    const std::string answer = Exchange(
        f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    CHECK(StatusOf(answer) == 200);
    CHECK(BodyText(answer) == "hello");
  }
}

TEST_CASE("Web pages: HTTP/1.1 without Host, or with two, is 400; HTTP/1.0 without Host is served") {
  ServerFixture f;
  const std::string none =
      Exchange(f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nConnection: close\r\n\r\n");
  CHECK(StatusOf(none) == 400);
  CHECK(BodyOf(none)["exception"] == "invalidArgument");
  CHECK(std::string(BodyOf(none)["message"]).find("Host") != std::string::npos);
  const std::string two = Exchange(
      f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
  CHECK(StatusOf(two) == 400);
  CHECK(std::string(BodyOf(two)["message"]).find("2 Host headers") != std::string::npos);
  const std::string malformed =
      Exchange(f.port(), "GET /demo HTTP/1.1\r\nHost: local host\r\nConnection: close\r\n\r\n");
  CHECK(StatusOf(malformed) == 400);
  CHECK(std::string(BodyOf(malformed)["message"]).find("'local host'") != std::string::npos);
  const std::string old = Exchange(f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.0\r\n\r\n");
  CHECK(StatusOf(old) == 200);
  CHECK(BodyText(old) == "hello");
}

TEST_CASE("Web pages: a page on another loopback port may write and read, with CORS headers") {
  ServerFixture f;
  auto c = f.Client();
  for (const std::string origin : {"http://localhost:5173", "http://127.0.0.1:3000", "http://[::1]:8081",
                                   "https://localhost:8443"}) {
    CAPTURE(origin);
    const std::string name = "from-" + std::to_string(std::hash<std::string>()(origin) % 100000);
    auto made = c.Post("/demo/beta/docs", {{"Origin", origin}, {"X-Requested-With", "XMLHttpRequest"}},
                       "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=" + name +
                           "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder",
                       "application/x-www-form-urlencoded");
    REQUIRE(made);
    CHECK(made->status == 201);
    CHECK(made->get_header_value("Access-Control-Allow-Origin") == origin);
    CHECK(made->get_header_value("Access-Control-Allow-Credentials") == "true");
    CHECK(made->get_header_value("Access-Control-Expose-Headers").find("Location") != std::string::npos);
    auto read = c.Get(("/demo/beta/docs/" + name + "?cmisselector=object").c_str(), {{"Origin", origin}});
    CHECK(read->status == 200);
    CHECK(read->get_header_value("Access-Control-Allow-Origin") == origin);
  }
  // The server's own origin (the browse UI is same-origin).
  const std::string own = "http://127.0.0.1:" + std::to_string(f.port());
  auto deleted = c.Post("/demo/beta/docs/readme.txt", {{"Origin", own}}, "cmisaction=delete",
                        "application/x-www-form-urlencoded");
  CHECK(deleted->status == 200);
  CHECK(deleted->get_header_value("Access-Control-Allow-Origin") == own);
}

TEST_CASE("Web pages: preflights are answered to allowed origins only") {
  ServerFixture f;
  auto c = f.Client();
  const httplib::Headers asked{{"Origin", "http://localhost:5173"},
                               {"Access-Control-Request-Method", "POST"},
                               {"Access-Control-Request-Headers", "authorization, x-requested-with"},
                               {"Access-Control-Request-Private-Network", "true"}};
  auto pre = c.Options("/demo/beta", asked);
  REQUIRE(pre);
  CHECK(pre->status == 204);
  CHECK(pre->get_header_value("Access-Control-Allow-Origin") == "http://localhost:5173");
  CHECK(pre->get_header_value("Access-Control-Allow-Methods") == "GET, POST, OPTIONS");
  CHECK(pre->get_header_value("Access-Control-Allow-Headers") == "authorization, x-requested-with");
  CHECK(pre->get_header_value("Access-Control-Allow-Credentials") == "true");
  CHECK(pre->get_header_value("Access-Control-Allow-Private-Network") == "true");
  CHECK(pre->get_header_value("Access-Control-Max-Age") == "86400");
  auto foreign = c.Options("/demo/beta", {{"Origin", "http://evil.example"},
                                          {"Access-Control-Request-Method", "POST"},
                                          {"Access-Control-Request-Private-Network", "true"}});
  REQUIRE(foreign);
  CHECK(foreign->status == 204);
  for (const char* name : {"Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
                           "Access-Control-Allow-Headers", "Access-Control-Allow-Private-Network"}) {
    CAPTURE(name);
    CHECK(!foreign->has_header(name));
  }
  // A preflight to a Host that is not the server's is refused like any request.
  const std::string rebound = Exchange(f.port(), "OPTIONS /demo HTTP/1.1\r\nHost: evil.example\r\n"
                                                 "Origin: http://evil.example\r\n"
                                                 "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n");
  CHECK(StatusOf(rebound) == 403);
}

TEST_CASE("Web pages: --allowed-host adds names; its own origin is then allowed") {
  ServerConfig config;
  config.http.web.allowed_hosts = {"folio.test", "*.dev.test"};
  ServerFixture f(config);
  const std::string port = std::to_string(f.port());
  for (const std::string& host : std::vector<std::string>{"folio.test:" + port, "folio.test", "a.dev.test:" + port}) {
    CAPTURE(host);
    const std::string answer = Exchange(
        f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    CHECK(StatusOf(answer) == 200);
  }
  CHECK(StatusOf(Exchange(f.port(), "GET /demo HTTP/1.1\r\nHost: other.test\r\nConnection: close\r\n\r\n")) == 403);
  // A page served under that name writes to its own origin.
  const std::string body = "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=by-name"
                           "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder";
  const std::string answer = Exchange(
      f.port(), "POST /demo/beta/docs HTTP/1.1\r\nHost: folio.test:" + port + "\r\nOrigin: http://folio.test:" + port +
                    "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
  CHECK(StatusOf(answer) == 201);
  CHECK(HeaderIn(answer, "Access-Control-Allow-Origin") == "http://folio.test:" + port);
  // '*' accepts any Host.
  ServerConfig any;
  any.http.web.allowed_hosts = {"*"};
  ServerFixture g(any);
  CHECK(StatusOf(Exchange(g.port(), "GET /demo HTTP/1.1\r\nHost: whatever.example\r\nConnection: close\r\n\r\n")) ==
        200);
}

TEST_CASE("Web pages: --cors-origin allows a listed page, or with * every page") {
  ServerConfig config;
  config.http.web.cors_origins = {"https://app.example.com"};
  ServerFixture f(config);
  auto c = f.Client();
  const std::string form = "cmisaction=createFolder&propertyId[0]=cmis:name&propertyValue[0]=listed"
                           "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:folder";
  auto listed = c.Post("/demo/beta/docs", {{"Origin", "https://app.example.com"}}, form,
                       "application/x-www-form-urlencoded");
  CHECK(listed->status == 201);
  CHECK(listed->get_header_value("Access-Control-Allow-Origin") == "https://app.example.com");
  auto other = c.Post("/demo/beta/docs", {{"Origin", "https://app.example.com:444"}}, form,
                      "application/x-www-form-urlencoded");
  CHECK(other->status == 403);
  ServerConfig star;
  star.http.web.cors_origins = {"*"};
  ServerFixture g(star);
  auto gc = g.Client();
  auto anyone = gc.Post("/demo/beta/docs", {{"Origin", "http://anyone.example"}}, form,
                        "application/x-www-form-urlencoded");
  CHECK(anyone->status == 201);
  CHECK(anyone->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(!anyone->has_header("Access-Control-Allow-Credentials"));
}

TEST_CASE("Web pages: a malformed --allowed-host or --cors-origin stops the server from binding") {
  ServerConfig config;
  config.http.web.cors_origins = {"localhost:3000"};
  config.http.port = 0;
  TempDir dir;
  auto store = Store::Open(dir.path(), {.durable = false});
  REQUIRE(store.ok());
  api::Service service(**store, {});
  http::Server server(service, config.http);
  const Status s = server.Bind();
  CHECK(s.kind() == ErrorKind::kInvalidArgument);
  CHECK(s.message().find("--cors-origin 'localhost:3000'") != std::string::npos);
}

}  // namespace folio::testing
