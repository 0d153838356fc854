// What Folio holds on top of cpp-httplib (src/http/engine.h): header values as sent, a
// taken port refused, Folio's JSON errors for what the library refuses itself, bodies
// that are never read as requests, pipelined requests after a body, and the peer address
// taken from the socket.
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "http/listener.h"
#include "http/raw_socket.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

Json JsonOf(const std::string& response) { return Json::parse(BodyText(response), nullptr, false); }

std::string Exchange(int port, const std::string& raw, const std::string& host = "127.0.0.1") {
  const int fd = Connect(port, 5, host);
  SendAll(fd, raw);
  std::string out = ReadAll(fd);
  ::close(fd);
  return out;
}

TEST_CASE("Http engine: header values reach Folio as sent, never percent-decoded") {
  ServerConfig config;
  config.http.web.cors_origins = {"https://app.test"};
  ServerFixture f(config);
  const std::string get = "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n";
  // The allowed origin gets its CORS header; the same text with an escape in it is
  // another origin (decoded, it would pass for the allowed one).
  const std::string allowed = Exchange(f.port(), get + "Origin: https://app.test\r\n\r\n");
  CHECK(StatusOf(allowed) == 200);
  CHECK(HeaderIn(allowed, "Access-Control-Allow-Origin") == "https://app.test");
  const std::string escaped = Exchange(f.port(), get + "Origin: https://app%2etest\r\n\r\n");
  CHECK(StatusOf(escaped) == 200);
  CHECK(HeaderIn(escaped, "Access-Control-Allow-Origin").empty());
  // A write from that origin is refused, and the message quotes the origin as sent.
  const std::string write = Exchange(f.port(),
                                     "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nOrigin: https://app%2etest\r\n"
                                     "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
  CHECK(StatusOf(write) == 403);
  CHECK_MESSAGE(JsonOf(write)["message"].get<std::string>().find("'https://app%2etest'") != std::string::npos, write);
}

TEST_CASE("Http engine: a port that is taken is refused, naming it") {
  ServerFixture f;
  auto second = http::Listener::Open("127.0.0.1", f.port());
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().kind() == ErrorKind::kRuntime);
  CHECK_MESSAGE(second.status().message().find(std::to_string(f.port())) != std::string::npos,
                second.status().message());
}

TEST_CASE("Http engine: what the library refuses itself is answered in Folio's JSON and closes") {
  ServerFixture f;
  {  // A target longer than the library's 8 KiB line.
    const std::string answer =
        Exchange(f.port(), "GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK(StatusOf(answer) == 431);
    CHECK(JsonOf(answer)["exception"] == "constraint");
    CHECK(HeaderIn(answer, "Connection") == "close");
  }
  {  // A malformed request line.
    const std::string answer = Exchange(f.port(), "GET\r\nHost: localhost\r\n\r\n");
    CHECK(StatusOf(answer) == 400);
    CHECK(JsonOf(answer)["exception"] == "invalidArgument");
  }
  {  // A GET with a body: refused, and the body is never read as a request.
    const std::string inner = "GET /-/health HTTP/1.1\r\nHost: localhost\r\n\r\n";
    const std::string answer =
        Exchange(f.port(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\nContent-Length: " +
                               std::to_string(inner.size()) + "\r\n\r\n" + inner);
    CHECK(StatusOf(answer) == 400);
    CHECK_MESSAGE(JsonOf(answer)["message"].get<std::string>().find("GET request carries no body") !=
                      std::string::npos,
                  answer);
    CHECK(answer.find("\"status\"") == std::string::npos);  // /-/health did not answer
  }
}

TEST_CASE("Http engine: a refused request that expects 100-continue gets no 100, and its body is never read") {
  ServerFixture f;
  const std::string inner = "GET /-/health HTTP/1.1\r\nHost: localhost\r\n\r\n";
  const std::string answer = Exchange(
      f.port(), "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n"
                "Content-Type: text/plain\r\nExpect: 100-continue\r\nContent-Length: " +
                    std::to_string(inner.size()) + "\r\n\r\n" + inner);
  CHECK(answer.rfind("HTTP/1.1 403", 0) == 0);
  CHECK(answer.find("HTTP/1.1 100") == std::string::npos);
  CHECK(answer.find("\"status\"") == std::string::npos);
  CHECK(HeaderIn(answer, "Connection") == "close");
}

TEST_CASE("Http engine: a request pipelined after a body is answered after it, in order") {
  ServerFixture f;
  const std::string body = R"({"operation":"createFolder","properties":{"cmis:name":"piped"}})";
  const int fd = Connect(f.port());
  SendAll(fd, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " +
                  std::to_string(body.size()) + "\r\n\r\n" + body +
                  "GET /demo/beta/docs/piped HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const std::string created = ReadResponse(fd);
  const std::string read = ReadResponse(fd);
  ::close(fd);
  CHECK_MESSAGE(StatusOf(created) == 201, created);
  CHECK_MESSAGE(StatusOf(read) == 200, read);
}

TEST_CASE("Http engine: the peer address is the socket's, whatever REMOTE_ADDR a client sends") {
  // Server-level operations without FOLIO_ADMIN_PASSWORD are for loopback clients only
  // (docs/API.md §11.2): what the policy sees of the peer decides the answer.
  ServerConfig config;
  config.http.host = "0.0.0.0";
  ServerFixture f(config);
  const auto list_domains = [&](const std::string& from, const std::string& claimed) {
    return Exchange(f.port(), "GET / HTTP/1.1\r\nHost: " + from + ":" + std::to_string(f.port()) +
                                  "\r\nREMOTE_ADDR: " + claimed + "\r\nREMOTE_PORT: 1\r\nX-Forwarded-For: " +
                                  claimed + "\r\nConnection: close\r\n\r\n", from);
  };
  const std::string local = list_domains("127.0.0.1", "192.0.2.99");
  CHECK_MESSAGE(StatusOf(local) == 200, local);
  const std::string external = ExternalAddress();
  if (external.empty()) {
    MESSAGE("skipped the other half: this machine has no IPv4 address other than loopback");
    return;
  }
  CHECK_MESSAGE(StatusOf(list_domains(external, external)) == 403, "the plain remote client is refused");
  const std::string forged = list_domains(external, "127.0.0.1");
  CHECK_MESSAGE(StatusOf(forged) == 403, forged);
  CHECK(JsonOf(forged)["exception"] == "permissionDenied");
}

}  // namespace
}  // namespace folio::testing
