// Hostile clients (docs/API.md, "Limits"): header floods, slow clients that would hold a
// worker each, requests that never finish, huge form fields, thousands of connections.
// Each is refused or dropped as documented, the memory it costs stays bounded (measured
// from /proc/self/status: the server runs in this process), and a normal client is
// served meanwhile. The raw-socket clients never hold what they send.
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "http/process_memory.h"
#include "http/raw_socket.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

long long MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
}

bool Contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

Json JsonOf(const std::string& response) { return Json::parse(BodyText(response), nullptr, false); }

// The size line of a chunk of `n` bytes, without its CRLF.
std::string ToHex(size_t n) {
  char size[32];
  std::snprintf(size, sizeof(size), "%zx", n);
  return size;
}

// True when something arrives on `fd` within `ms`.
bool ReadableWithin(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0;
}

// Polls `done` every 10 ms for at most `limit`; true when it held.
template <typename F>
bool WaitFor(F done, milliseconds limit = milliseconds(20000)) {
  const auto start = Clock::now();
  while (!done()) {
    if (Clock::now() - start > limit) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

// Sends `size` bytes of `fill` in pieces of 64 KiB (nothing held but one piece).
void SendFill(int fd, size_t size, char fill) {
  const std::string piece(64 * 1024, fill);
  while (size > 0) {
    const size_t n = std::min(size, piece.size());
    const ssize_t sent = ::send(fd, piece.data(), n, MSG_NOSIGNAL);
    if (sent <= 0) return;  // the server answered and closed
    size -= static_cast<size_t>(sent);
  }
}

std::string Get(int port, const std::string& path) {
  auto c = httplib::Client("127.0.0.1", port);
  c.set_read_timeout(10, 0);
  auto r = c.Get(path.c_str());
  return r ? r->body : "(no response)";
}

TEST_CASE("Http limits: a header flood is answered 431 after 64 KiB and costs no memory") {
  ServerFixture f;
  PeakRss peak;
  const int fd = Connect(f.port(), 10);
  SendAll(fd, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n");
  const std::string line = "X-Flood: " + std::string(8000, 'a') + "\r\n";
  size_t sent = 0;
  while (sent < 16 * 1024 * 1024) {  // the server reads the rest and drops it
    const ssize_t n = ::send(fd, line.data(), line.size(), MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  const std::string response = ReadResponse(fd);
  const double grown_mb = peak.Stop();
  ::close(fd);
  MESSAGE("header flood: " << sent / (1024 * 1024) << " MiB of header lines sent; peak RSS grew by " << grown_mb
                           << " MiB");
  REQUIRE(StatusOf(response) == 431);
  CHECK(Contains(response, "Connection: close\r\n"));
  const Json body = JsonOf(response);
  CHECK(body["exception"] == "constraint");
  CHECK_MESSAGE(Contains(body["message"].get<std::string>(), "65536 bytes"), body.dump());
  CHECK(grown_mb < 8);  // the flood was 16 MiB; the server held at most its first 64 KiB
  // Too many fields, each small.
  std::string many = "GET / HTTP/1.1\r\nHost: localhost\r\n";
  for (int i = 0; i < 150; ++i) many += "X-F" + std::to_string(i) + ": v\r\n";
  const int fd2 = Connect(f.port(), 10);
  SendAll(fd2, many + "\r\n");
  const std::string answer = ReadResponse(fd2);
  ::close(fd2);
  CHECK(StatusOf(answer) == 431);
  CHECK_MESSAGE(Contains(JsonOf(answer)["message"].get<std::string>(), "100 header fields"), answer);
  CHECK(Get(f.port(), "/demo/beta/docs/readme.txt") == "hello");
}

TEST_CASE("Http limits: slow clients each hold a thread, the pool grows past them, and others are served") {
  ServerFixture f;  // two threads kept; one per connection, up to --max-connections
  constexpr int kSlowHeads = 300;
  constexpr int kSlowBodies = 40;
  std::vector<int> heads;
  std::vector<int> bodies;
  for (int i = 0; i < kSlowHeads; ++i) {
    heads.push_back(Connect(f.port(), 10));
    SendAll(heads.back(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n");
  }
  std::vector<std::string> payloads;
  for (int i = 0; i < kSlowBodies; ++i) {
    payloads.push_back(R"({"cmisaction":"createFolder","properties":{"cmis:name":"slow-)" + std::to_string(i) +
                       R"("}})");
    bodies.push_back(Connect(f.port(), 10));
    SendAll(bodies.back(), "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                           "Content-Length: " + std::to_string(payloads.back().size()) + "\r\n\r\n");
  }
  // Each slow client sends one header line (60 at most: the limit is 100), or one body
  // byte, every 100 ms.
  std::atomic<bool> stop{false};
  size_t trickled = 0;
  std::thread trickler([&] {
    for (int lines = 0; !stop; ++lines) {
      if (lines < 60) {
        for (int fd : heads) SendAll(fd, "X-Slow: 1\r\n");
      }
      if (trickled + 1 < payloads.front().size()) {
        for (int i = 0; i < kSlowBodies; ++i) SendAll(bodies[i], payloads[i].substr(trickled, 1));
        ++trickled;
      }
      std::this_thread::sleep_for(milliseconds(100));
    }
  });
  // Meanwhile a normal client is served, again and again.
  const auto start = Clock::now();
  int served = 0;
  for (int i = 0; i < 10; ++i) served += Get(f.port(), "/demo/beta/docs/readme.txt") == "hello";
  const long long ms = MsSince(start);
  stop = true;
  trickler.join();
  MESSAGE("10 requests among " << kSlowHeads + kSlowBodies << " slow clients took " << ms << " ms");
  CHECK(served == 10);
  CHECK(ms < 5000);  // generous: each takes a millisecond; with the old design it never came
  // The slow ones were kept, not dropped: they finish now and are answered.
  int heads_ok = 0;
  for (int fd : heads) {
    SendAll(fd, "Connection: close\r\n\r\n");
    const std::string r = ReadResponse(fd);
    heads_ok += StatusOf(r) == 200 && BodyText(r) == "hello";
    ::close(fd);
  }
  int bodies_ok = 0;
  for (int i = 0; i < kSlowBodies; ++i) {
    SendAll(bodies[i], payloads[i].substr(trickled));
    bodies_ok += StatusOf(ReadResponse(bodies[i])) == 201;
    ::close(bodies[i]);
  }
  CHECK(heads_ok == kSlowHeads);
  CHECK(bodies_ok == kSlowBodies);
}

TEST_CASE("Http limits: a request that does not arrive within the request timeout is answered 408 and dropped") {
  ServerConfig config;
  config.http.request_timeout = milliseconds(1000);
  ServerFixture f(config);
  const int head = Connect(f.port(), 10);
  const int body = Connect(f.port(), 10);
  SendAll(body, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{");
  SendAll(head, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\n");
  const auto start = Clock::now();
  std::atomic<bool> stop{false};
  std::thread trickler([&] {  // one byte every 100 ms: never idle, never done
    while (!stop) {
      SendAll(head, "X");
      SendAll(body, " ");
      std::this_thread::sleep_for(milliseconds(100));
    }
  });
  const std::string head_answer = ReadAll(head);
  const std::string body_answer = ReadAll(body);
  const long long ms = MsSince(start);
  stop = true;
  trickler.join();
  ::close(head);
  ::close(body);
  CHECK(ms >= 900);
  CHECK(ms < 8000);
  for (const std::string& answer : {head_answer, body_answer}) {
    REQUIRE(StatusOf(answer) == 408);
    CHECK(JsonOf(answer)["exception"] == "invalidArgument");
    CHECK_MESSAGE(Contains(JsonOf(answer)["message"].get<std::string>(), "within 1 s of its first byte"), answer);
  }
  CHECK(Get(f.port(), "/demo/beta/docs/readme.txt") == "hello");
}

// A raw POST whose body is `prefix` then `fill_size` bytes of `fill` then `suffix`; the
// body is sent in pieces and never held. Returns the response.
std::string PostStreamed(int port, const std::string& content_type, const std::string& prefix, size_t fill_size,
                         char fill, const std::string& suffix) {
  const int fd = Connect(port, 20);
  SendAll(fd, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: " + content_type +
                  "\r\nContent-Length: " + std::to_string(prefix.size() + fill_size + suffix.size()) + "\r\n\r\n" +
                  prefix);
  SendFill(fd, fill_size, fill);
  SendAll(fd, suffix);
  const std::string response = ReadResponse(fd);
  ::close(fd);
  return response;
}

void CheckConstraint(const std::string& response, std::initializer_list<std::string_view> needles) {
  REQUIRE_MESSAGE(StatusOf(response) == 409, response.substr(0, 300));
  const Json body = JsonOf(response);
  CHECK(body["exception"] == "constraint");
  for (std::string_view needle : needles) {
    CHECK_MESSAGE(Contains(body["message"].get<std::string>(), needle), body.dump());
  }
}

TEST_CASE("Http limits: form fields over 1 MiB each or 16 MiB in all are constraint; memory stays bounded") {
  ServerFixture f;
  auto c = f.Client();
  const std::string before = c.Get("/demo/beta/docs?cmisselector=children&succinct=true")->body;
  const std::string form = "application/x-www-form-urlencoded";
  const std::string fields = "cmisaction=createDocument&propertyId%5B0%5D=cmis%3Aname&propertyValue%5B0%5D=big.txt"
                             "&propertyId%5B1%5D=cmis%3Adescription&propertyValue%5B1%5D=";
  bool changed = false;  // the data is unchanged unless a subcase says so
  SUBCASE("a 50 MB urlencoded value") {
    PeakRss peak;
    const std::string r = PostStreamed(f.port(), form, fields, 50 * 1000 * 1000, 'a', "");
    const double grown = peak.Stop();
    MESSAGE("50 MB urlencoded property value: peak RSS grew by " << grown << " MiB");
    CheckConstraint(r, {"'propertyValue[1]'", "1 MiB (1048576 bytes)"});
    if (kRssBoundsHold) CHECK(grown < 12);  // the old server held 11 times the body
  }
  SUBCASE("17 urlencoded values of a million bytes each") {
    PeakRss peak;
    const int fd = Connect(f.port(), 20);
    SendAll(fd, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: " + form +
                    "\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 17; ++i) {
      const std::string piece = "&f" + std::to_string(i) + "=" + std::string(1000 * 1000, 'v');
      SendAll(fd, ToHex(piece.size()) + "\r\n" + piece + "\r\n");
    }
    SendAll(fd, "0\r\n\r\n");
    const std::string r = ReadResponse(fd);
    ::close(fd);
    const double grown = peak.Stop();
    MESSAGE("17 MB of urlencoded fields, chunked: peak RSS grew by " << grown << " MiB");
    CheckConstraint(r, {"16 MiB (16777216 bytes) in all", "'f16'"});
    if (kRssBoundsHold) CHECK(grown < 64);  // 16 MiB of fields are held, a small multiple at most
  }
  SUBCASE("a 2 MB multipart field") {
    const std::string r = PostStreamed(
        f.port(), "multipart/form-data; boundary=XyZ",
        "--XyZ\r\nContent-Disposition: form-data; name=\"cmisaction\"\r\n\r\ncreateFolder\r\n"
        "--XyZ\r\nContent-Disposition: form-data; name=\"propertyValue[0]\"\r\n\r\n",
        2 * 1000 * 1000, 'm', "\r\n--XyZ--\r\n");
    CheckConstraint(r, {"'propertyValue[0]'", "1 MiB"});
  }
  SUBCASE("a 2 MB JSON property value, a 20 MB JSON body") {
    CheckConstraint(PostStreamed(f.port(), "application/json",
                                 R"({"cmisaction":"createFolder","properties":{"cmis:name":"j","cmis:description":")",
                                 2 * 1000 * 1000, 'j', R"("}})"),
                    {"'properties.cmis:description'", "1 MiB"});
    PeakRss peak;
    // Announced by Content-Length: refused before a byte of it is read.
    const std::string r = PostStreamed(f.port(), "application/json", R"({"a":")", 20 * 1000 * 1000, 'j', R"("})");
    const double grown = peak.Stop();
    MESSAGE("20 MB JSON body, announced: peak RSS grew by " << grown << " MiB");
    CheckConstraint(r, {"JSON body", "16 MiB"});
    if (kRssBoundsHold) CHECK(grown < 4);
  }
  SUBCASE("a 20 MB JSON body, chunked, is refused once 16 MiB have arrived; a 15 MB one is read") {
    // Chunked: the length is not known, so the body is read until it passes the limit.
    auto post_chunked = [&](size_t fill_size) {
      const int fd = Connect(f.port(), 20);
      SendAll(fd, "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
      const std::string head = R"({"cmisaction":"createFolder","properties":{"cmis:name":"chunked"},"pad":[)";
      SendAll(fd, ToHex(head.size()) + "\r\n" + head + "\r\n");
      // Many short strings: no one value is over the 1 MiB limit of a JSON string.
      const std::string piece = "\"" + std::string(998, 'k') + "\",";
      size_t sent = 0;
      std::string chunk;
      while (sent < fill_size) {
        chunk.clear();
        for (int i = 0; i < 64 && sent < fill_size; ++i, sent += piece.size()) chunk += piece;
        SendAll(fd, ToHex(chunk.size()) + "\r\n" + chunk + "\r\n");
      }
      const std::string tail = "0]}";
      SendAll(fd, ToHex(tail.size()) + "\r\n" + tail + "\r\n0\r\n\r\n");
      std::string response = ReadResponse(fd);
      ::close(fd);
      return response;
    };
    PeakRss peak;
    const std::string refused = post_chunked(20 * 1000 * 1000);
    const double grown = peak.Stop();
    MESSAGE("20 MB JSON body, chunked: peak RSS grew by " << grown << " MiB");
    CheckConstraint(refused, {"JSON body", "16 MiB"});
    if (kRssBoundsHold) CHECK(grown < 64);  // 16 MiB held, a small multiple at most
    // Within the limit, the whole body is read and the operation runs; its padding
    // (an unknown parameter) is ignored.
    const std::string accepted = post_chunked(15 * 1000 * 1000);
    CHECK_MESSAGE(StatusOf(accepted) == 201, accepted.substr(0, 300));
    CHECK(Get(f.port(), "/demo/beta/docs/chunked?cmisselector=object&succinct=true").find("\"cmis:name\":\"chunked\"") !=
          std::string::npos);
    changed = true;
  }
  SUBCASE("a content part is a file: 20 MB pass, streamed to disk") {
    PeakRss peak;
    const std::string r = PostStreamed(
        f.port(), "multipart/form-data; boundary=XyZ",
        "--XyZ\r\nContent-Disposition: form-data; name=\"cmisaction\"\r\n\r\ncreateDocument\r\n"
        "--XyZ\r\nContent-Disposition: form-data; name=\"propertyId[0]\"\r\n\r\ncmis:name\r\n"
        "--XyZ\r\nContent-Disposition: form-data; name=\"propertyValue[0]\"\r\n\r\nbig.bin\r\n"
        "--XyZ\r\nContent-Disposition: form-data; name=\"content\"; filename=\"big.bin\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n",
        20 * 1000 * 1000, 'c', "\r\n--XyZ--\r\n");
    const double grown = peak.Stop();
    MESSAGE("20 MB content part: peak RSS grew by " << grown << " MiB");
    CHECK(StatusOf(r) == 201);
    CHECK(grown < 12);
    CHECK(c.Get("/demo/beta/docs/big.bin")->body.size() == 20 * 1000 * 1000);
    changed = true;
  }
  SUBCASE("a value of exactly 1 MiB is accepted and kept whole") {
    const std::string r = PostStreamed(f.port(), form, fields, 1024 * 1024, 'd', "");
    REQUIRE_MESSAGE(StatusOf(r) == 201, r.substr(0, 300));
    CHECK(Prop(JsonOf(r), "cmis:description").get<std::string>().size() == 1024 * 1024);
    changed = true;
  }
  if (!changed) CHECK(c.Get("/demo/beta/docs?cmisselector=children&succinct=true")->body == before);
}

// Raises the soft limit on open files to the hard one; returns the soft limit.
rlim_t RaiseFileLimit() {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  ::getrlimit(RLIMIT_NOFILE, &limit);
  return limit.rlim_cur;
}

// FOLIO_TEST_CONNECTIONS=N opens more, as far as the open-files limit allows (both ends of
// each connection are in this process: 10,000 need `ulimit -n 20300`). The 10,000-connection
// case with the server and its clients in separate processes is bench/http/connections.sh.
TEST_CASE("Http limits: thousands of idle connections are held, and others are served") {
  const rlim_t files = RaiseFileLimit();
  const char* env = std::getenv("FOLIO_TEST_CONNECTIONS");
  size_t wanted = env != nullptr ? std::strtoul(env, nullptr, 10) : 2000;
  const size_t fit = files > 300 ? (files - 300) / 2 : 0;
  if (wanted > fit) {
    MESSAGE("only " << fit << " connections fit the limit of " << files << " open files");
    wanted = fit;
  }
  REQUIRE(wanted >= 500);
  ServerConfig config;
  config.http.keep_alive_timeout = milliseconds(600000);
  ServerFixture f(config);
  const size_t held = std::min<size_t>(wanted, 10000);  // the server's limit
  PeakRss peak;
  std::vector<int> fds;
  for (size_t i = 0; i < wanted; ++i) fds.push_back(Connect(f.port(), 10));
  REQUIRE(WaitFor([&] { return static_cast<size_t>(f.server().metrics().open_connections()) == held; }));
  const double grown = peak.Stop();
  MESSAGE(held << " idle connections held (" << wanted << " opened): RSS grew by " << grown << " MiB, "
               << grown * 1024 / static_cast<double>(held) << " KiB each");
  // Each holds a thread (src/http/engine.h): the touched pages of its stack and its
  // bookkeeping, about 12 KiB; no buffer is held before a byte arrives.
  CHECK(grown < static_cast<double>(held) * 32 / 1024);
  if (held < wanted) {
    // Beyond the limit connections wait in the listen queue: a request on one of them is
    // answered once another connection closes.
    SendAll(fds.back(), "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK_FALSE(ReadableWithin(fds.back(), 300));
    for (size_t i = 0; i < wanted - held; ++i) ::close(fds[i]);
    CHECK(BodyText(ReadResponse(fds.back())) == "hello");
    fds.erase(fds.begin(), fds.begin() + static_cast<long>(wanted - held));
  } else {
    CHECK(Get(f.port(), "/demo/beta/docs/readme.txt") == "hello");
  }
  for (int fd : fds) ::close(fd);
  CHECK(WaitFor([&] { return f.server().metrics().open_connections() == 0; }));
}

TEST_CASE("Http limits: beyond the connection limit new connections wait in the listen queue") {
  ServerConfig config;
  config.http.max_connections = 8;
  config.http.keep_alive_timeout = milliseconds(600000);
  ServerFixture f(config);
  std::vector<int> idle;
  for (int i = 0; i < 7; ++i) idle.push_back(Connect(f.port(), 10));
  const int busy = Connect(f.port(), 10);
  SendAll(busy, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(BodyText(ReadResponse(busy)) == "hello");
  REQUIRE(WaitFor([&] { return f.server().metrics().open_connections() == 8; }));
  // The ninth connects (the kernel queues it) but is not accepted: its request waits.
  const int waiting = Connect(f.port(), 10);
  SendAll(waiting, "GET /demo/beta/docs/readme.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK_FALSE(ReadableWithin(waiting, 500));
  CHECK(f.server().metrics().open_connections() == 8);
  // The connections already open are served as usual.
  SendAll(busy, "GET /-/metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(Contains(ReadResponse(busy), "folio_http_open_connections 8\n"));
  ::close(idle.back());
  idle.pop_back();
  CHECK(BodyText(ReadResponse(waiting)) == "hello");
  CHECK(WaitFor([&] { return f.server().metrics().open_connections() == 8; }));
  for (int fd : idle) ::close(fd);
  ::close(busy);
  ::close(waiting);
}

}  // namespace
}  // namespace folio::testing
