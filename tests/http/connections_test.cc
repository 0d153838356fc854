// Connection handling of the HTTP server (src/http/engine.h): many keep-alive clients,
// pipelining, the keep-alive timeout, slow clients that must not stall the others, a
// clean stop, and clients that misbehave.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "http/raw_socket.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;


// True when the server closed `fd` within `limit`: recv sees end of stream, or a reset
// (a connection still in the listen queue when the server stops).
bool ClosedWithin(int fd, milliseconds limit) {
  timeval timeout{0, static_cast<suseconds_t>(limit.count() * 1000)};
  if (limit.count() >= 1000) timeout = {static_cast<time_t>(limit.count() / 1000), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  char c;
  const ssize_t n = ::recv(fd, &c, 1, 0);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

const std::string kGetReadme = "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n\r\n";

long long MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
}

TEST_CASE("Http connections: 100 concurrent keep-alive clients are all answered") {
  ServerFixture f;  // two core workers
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 100; ++i) {
    clients.emplace_back([&] {
      auto c = f.Client();
      c.set_keep_alive(true);
      for (int n = 0; n < 5; ++n) {
        auto r = c.Get("/demo/beta/docs/readme.txt");
        if (r && r->status == 200 && r->body == "hello") ++ok;
      }
    });
  }
  for (auto& t : clients) t.join();
  CHECK(ok == 500);
}

TEST_CASE("Http connections: pipelined requests are answered in order") {
  ServerFixture f;
  const int fd = Connect(f.port());
  // Both requests in one send: the second is read ahead with the first.
  SendAll(fd, kGetReadme + "GET /demo/beta/nope HTTP/1.1\r\nHost: localhost\r\n\r\n" + kGetReadme);
  const std::string first = ReadResponse(fd);
  const std::string second = ReadResponse(fd);
  const std::string third = ReadResponse(fd);
  CHECK(StatusOf(first) == 200);
  CHECK(BodyText(first) == "hello");
  CHECK(StatusOf(second) == 404);
  CHECK(BodyText(second).find("objectNotFound") != std::string::npos);
  CHECK(StatusOf(third) == 200);
  ::close(fd);
}

TEST_CASE("Http connections: Expect: 100-continue is answered before the body is sent") {
  ServerFixture f;
  const int fd = Connect(f.port());
  const std::string body = R"({"operation":"createFolder","properties":{"cmis:name":"after-continue"}})";
  SendAll(fd, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
              "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n");
  std::string interim;
  char c;
  while (interim.find("\r\n\r\n") == std::string::npos && ::recv(fd, &c, 1, 0) == 1) interim += c;
  CHECK(interim.rfind("HTTP/1.1 100", 0) == 0);
  SendAll(fd, body);
  const std::string response = ReadResponse(fd);
  CHECK_MESSAGE(StatusOf(response) == 201, response);
  ::close(fd);
}

TEST_CASE("Http connections: an idle keep-alive connection is closed after the timeout") {
  ServerConfig config;
  config.http.keep_alive_timeout = milliseconds(300);
  ServerFixture f(config);
  const int fd = Connect(f.port());
  SendAll(fd, kGetReadme);
  CHECK(StatusOf(ReadResponse(fd)) == 200);
  const auto start = Clock::now();
  CHECK(ClosedWithin(fd, milliseconds(3000)));
  const long long waited = MsSince(start);
  CHECK(waited >= 250);
  CHECK(waited < 2000);
  ::close(fd);
  // A connection in use stays open across requests spaced below the timeout.
  const int busy = Connect(f.port());
  for (int i = 0; i < 3; ++i) {
    SendAll(busy, kGetReadme);
    CHECK(StatusOf(ReadResponse(busy)) == 200);
    std::this_thread::sleep_for(milliseconds(150));
  }
  ::close(busy);
}

TEST_CASE("Http connections: slow clients do not stall the others") {
  ServerConfig config;
  config.http.threads = 1;
  ServerFixture f(config);
  // One client stalls in the middle of its request head, another in its body.
  const int half_head = Connect(f.port());
  SendAll(half_head, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHo");
  const int half_body = Connect(f.port());
  SendAll(half_body,
          "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          "Content-Length: 200\r\n\r\n{\"operation\":");
  std::this_thread::sleep_for(milliseconds(50));
  const auto start = Clock::now();
  auto c = f.Client();
  auto r = c.Get("/demo/beta/docs/readme.txt");
  REQUIRE(r);
  CHECK(r->body == "hello");
  CHECK(MsSince(start) < 1000);  // the stalled ones hold no worker while they wait
  // The stalled head completes and is answered.
  SendAll(half_head, "st: localhost\r\n\r\n");
  CHECK(BodyText(ReadResponse(half_head)) == "hello");
  ::close(half_head);
  ::close(half_body);
}

TEST_CASE("Http connections: Stop() lets a request in flight finish") {
  ServerFixture f;
  const int fd = Connect(f.port());
  SendAll(fd, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\n");
  std::this_thread::sleep_for(milliseconds(100));  // a worker is now reading this request
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    f.server().Stop();
    stopped = true;
  });
  std::this_thread::sleep_for(milliseconds(200));
  CHECK_FALSE(stopped);
  SendAll(fd, "Host: localhost\r\n\r\n");
  const std::string response = ReadAll(fd);  // the server closes after answering
  stopper.join();
  CHECK(StatusOf(response) == 200);
  CHECK_MESSAGE(BodyText(response) == "hello", response);  // a content provider: streamed
  ::close(fd);
}

TEST_CASE("Http connections: Stop() cuts a download the client does not read, and returns promptly") {
  ServerFixture f;
  auto c = f.Client();
  constexpr size_t kSize = 32 << 20;  // more than the socket buffers hold
  httplib::MultipartFormDataItems items{{"cmisaction", "createDocument", "", ""},
                                        {"propertyId[0]", "cmis:name", "", ""},
                                        {"propertyValue[0]", "big.bin", "", ""},
                                        {"content", std::string(kSize, 'b'), "big.bin", "application/octet-stream"}};
  auto made = c.Post("/demo/beta/docs", items);
  REQUIRE(made);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  const int fd = Connect(f.port());
  SendAll(fd, "GET /demo/beta/docs/big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const std::string head = ReadHead(fd);
  CHECK(StatusOf(head) == 200);
  CHECK(HeaderIn(head, "Content-Length") == std::to_string(kSize));
  // The client reads no more: the server's send waits once the socket buffers are full
  // (up to the 30 s write timeout, were it not stopped).
  std::this_thread::sleep_for(milliseconds(300));
  const auto start = Clock::now();
  f.server().Stop();
  CHECK(MsSince(start) < 3000);
  // The body ends short of its Content-Length: the client sees a cut response, never
  // a whole one.
  const std::string rest = ReadAll(fd);
  ::close(fd);
  CHECK(rest.size() < kSize);
}

TEST_CASE("Http connections: Stop() with idle keep-alive connections returns promptly") {
  ServerFixture f;
  std::vector<int> fds;
  for (int i = 0; i < 5; ++i) {
    fds.push_back(Connect(f.port()));
    SendAll(fds.back(), kGetReadme);
    CHECK(StatusOf(ReadResponse(fds.back())) == 200);
  }
  fds.push_back(Connect(f.port()));  // connected, never sent anything
  const auto start = Clock::now();
  f.server().Stop();
  CHECK(MsSince(start) < 1000);
  for (int fd : fds) {
    CHECK(ClosedWithin(fd, milliseconds(1000)));
    ::close(fd);
  }
  f.server().Stop();  // again: a no-op
}

TEST_CASE("Http connections: HTTP/1.0, HEAD, and framings that are refused") {
  ServerFixture f;
  {  // HTTP/1.0 without keep-alive: answered (in the server's version, HTTP/1.1, as RFC 9110
     // §6.2 has it: cpp-httplib always does), without chunks, then closed.
    const int fd = Connect(f.port());
    SendAll(fd, "GET /demo/beta/docs/readme.txt HTTP/1.0\r\n\r\n");
    const std::string r = ReadAll(fd);
    ::close(fd);
    CHECK(r.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(r.find("Connection: close\r\n") != std::string::npos);
    CHECK(BodyText(r) == "hello");
  }
  {  // HEAD: the head of the GET, Content-Length included, no body; the connection goes on.
    const int fd = Connect(f.port());
    SendAll(fd, "HEAD /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n\r\n" + kGetReadme);
    std::string head;
    char c;
    while (head.find("\r\n\r\n") == std::string::npos && ::recv(fd, &c, 1, 0) == 1) head += c;
    CHECK(StatusOf(head) == 200);
    CHECK(head.find("Content-Length: 5\r\n") != std::string::npos);
    const std::string next = ReadResponse(fd);  // had HEAD sent a body, this would read it
    CHECK(StatusOf(next) == 200);
    CHECK(BodyText(next) == "hello");
    ::close(fd);
  }
  struct Refused {
    std::string request;
    int status;
    std::string exception;
    std::string_view culprit;
  };
  const Refused cases[] = {
      {"POST /demo/beta HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "notSupported", "'gzip'"},
      {"POST /demo/beta HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400,
       "invalidArgument", "both Transfer-Encoding and Content-Length"},
      {"POST /demo/beta HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400, "invalidArgument", "'1x'"},
      {"POST /demo/beta HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400, "invalidArgument",
       "Content-Length"},
      {"GET / HTTP/2.0\r\n\r\n", 505, "notSupported", "'2.0'"},
      {"POST /demo/beta HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400,
       "invalidArgument", "bad chunked encoding"},
      // A second Transfer-Encoding that a proxy might read instead of the first.
      {"POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n"
       "24\r\noperation=deleteDomain&domainId=demo\r\n0\r\n\r\n",
       400, "invalidArgument", "2 Transfer-Encoding headers"},
      // Bare LF line ends, in the head or in the chunk framing (one rule: CRLF only).
      {"GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\nX-A: b\r\n\r\n", 400, "invalidArgument",
       "bare LF"},
      {"POST /demo/beta HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
       "Transfer-Encoding: chunked\r\n\r\n2\n{}\r\n0\r\n\r\n",
       400, "invalidArgument", "bare LF"},
  };
  for (const Refused& c : cases) {
    CAPTURE(c.request);
    const int fd = Connect(f.port());
    SendAll(fd, c.request);
    const std::string r = ReadResponse(fd);
    ::close(fd);
    CHECK(StatusOf(r) == c.status);
    CHECK(r.find("Connection: close\r\n") != std::string::npos);
    const Json body = Json::parse(BodyText(r), nullptr, false);
    CHECK(body["exception"] == c.exception);
    CHECK_MESSAGE(body["message"].get<std::string>().find(c.culprit) != std::string::npos, body.dump());
  }
}

TEST_CASE("Http connections: silent and garbage clients get nothing or 400, the server stays up") {
  ServerFixture f;
  for (int i = 0; i < 10; ++i) ::close(Connect(f.port()));  // connect, send nothing, leave
  const int fd = Connect(f.port());
  SendAll(fd, "\x01\x02 not http at all\r\n\r\n");
  const std::string response = ReadResponse(fd);
  CHECK(StatusOf(response) == 400);
  auto body = Json::parse(BodyText(response), nullptr, false);
  CHECK(body.contains("exception"));
  ::close(fd);
  auto c = f.Client();
  auto r = c.Get("/demo/beta/docs/readme.txt");
  REQUIRE(r);
  CHECK(r->body == "hello");
}

}  // namespace
}  // namespace folio::testing
