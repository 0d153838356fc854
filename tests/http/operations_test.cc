// The operations endpoints (docs/API.md, "Operations endpoints"): /-/health, 503 while
// the server stops, and /-/metrics in the Prometheus text format, parsed here.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include "http/raw_socket.h"
#include "http/server_fixture.h"
#include "metrics/metrics.h"

namespace folio::testing {
namespace {

using std::chrono::milliseconds;

// The samples of a Prometheus text exposition: series (name with labels, as written) ->
// value. Fails the test on a line that is neither a comment nor "series value".
std::map<std::string, double> ParseMetrics(const std::string& text) {
  std::map<std::string, double> samples;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') {
      CHECK_MESSAGE((line.empty() || line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0), line);
      continue;
    }
    const size_t space = line.rfind(' ');
    REQUIRE_MESSAGE(space != std::string::npos, line);
    const std::string series = line.substr(0, space);
    CHECK_MESSAGE(samples.count(series) == 0, "repeated series " << series);
    samples[series] = std::stod(line.substr(space + 1));
  }
  return samples;
}

std::map<std::string, double> Scrape(ServerFixture& f) {
  auto c = f.Client();
  auto r = c.Get("/-/metrics");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  return ParseMetrics(r->body);
}

// The value of `series`, 0 when absent.
double Value(const std::map<std::string, double>& m, const std::string& series) {
  const auto it = m.find(series);
  return it == m.end() ? 0 : it->second;
}

// Scrapes until `done` holds (for at most 5 s): a request is counted once its response
// has been sent, a moment after its client has it.
template <typename Done>
std::map<std::string, double> ScrapeUntil(ServerFixture& f, Done done) {
  auto m = Scrape(f);
  for (int i = 0; i < 500 && !done(m); ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    m = Scrape(f);
  }
  return m;
}

TEST_CASE("Http operations: /-/health answers ok while serving") {
  ServerFixture f;
  auto c = f.Client();
  auto r = c.Get("/-/health");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == R"({"status":"ok"})");
  CHECK(r->get_header_value("Content-Type").rfind("application/json", 0) == 0);
  CHECK(c.Head("/-/health")->status == 200);
  // Paths under /-/ are never domains, and answer GET only.
  auto nope = c.Get("/-/nope");
  CHECK(nope->status == 404);
  CHECK(BodyJson(nope)["exception"] == "objectNotFound");
  CHECK(BodyJson(nope)["message"].get<std::string>().find("'/-/nope'") != std::string::npos);
  auto post = c.Post("/-/health", "", "application/json");
  CHECK(post->status == 405);
  CHECK(BodyJson(post)["exception"] == "notSupported");
}

TEST_CASE("Http operations: /-/health answers 503 while the server stops") {
  ServerFixture f;
  // A request in flight keeps the server stopping (not stopped) until it is complete.
  const int fd = Connect(f.port(), 10);
  SendAll(fd, "GET /-/health HTTP/1.1\r\n");
  for (int i = 0; i < 500 && f.server().metrics().open_connections() != 1; ++i) {
    std::this_thread::sleep_for(milliseconds(10));  // until accepted: the queue is dropped at stop
  }
  REQUIRE(f.server().metrics().open_connections() == 1);
  const int port = f.port();
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    f.server().Stop();
    stopped = true;
  });
  // Once stopping, the server accepts nothing new.
  bool refused = false;
  for (int i = 0; i < 500 && !refused; ++i) {
    const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    refused = ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0;
    ::close(probe);
    if (!refused) std::this_thread::sleep_for(milliseconds(10));
  }
  REQUIRE(refused);
  CHECK_FALSE(stopped);
  SendAll(fd, "Host: localhost\r\n\r\n");
  const std::string response = ReadResponse(fd);
  stopper.join();
  ::close(fd);
  CHECK(StatusOf(response) == 503);
  CHECK(BodyText(response) == R"({"status":"stopping"})");
  CHECK(response.find("Connection: close\r\n") != std::string::npos);
}

TEST_CASE("Http operations: /-/metrics counts requests by operation and status, latency, connections, bytes") {
  ServerFixture f;
  auto c = f.Client();
  for (int i = 0; i < 3; ++i) CHECK(c.Get("/demo/beta/docs/readme.txt?cmisselector=object")->status == 200);
  CHECK(c.Get("/demo/beta/docs/nosuch.txt?cmisselector=object")->status == 404);
  CHECK(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"cmisaction", "createFolder"}}, Json{{"cmis:name", "m"}})
            ->status == 201);
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  const auto m = ScrapeUntil(f, [](const std::map<std::string, double>& s) {
    return Value(s, R"(folio_http_requests_total{operation="object",status="200"})") +
               Value(s, R"(folio_http_requests_total{operation="object",status="404"})") +
               Value(s, R"(folio_http_requests_total{operation="createFolder",status="201"})") +
               Value(s, R"(folio_http_requests_total{operation="content",status="200"})") ==
           6;
  });
  CHECK(Value(m, R"(folio_http_requests_total{operation="object",status="200"})") == 3);
  CHECK(Value(m, R"(folio_http_requests_total{operation="object",status="404"})") == 1);
  CHECK(Value(m, R"(folio_http_requests_total{operation="createFolder",status="201"})") == 1);
  CHECK(Value(m, R"(folio_http_requests_total{operation="content",status="200"})") == 1);
  // A histogram per operation: cumulative buckets, +Inf equal to the count, the count
  // equal to the requests of that operation.
  const std::string h = "folio_http_request_duration_seconds";
  CHECK(Value(m, h + R"(_count{operation="object"})") == 4);
  CHECK(Value(m, h + R"(_bucket{operation="object",le="+Inf"})") == 4);
  double previous = 0;
  for (const char* le : {"0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1",
                         "2.5", "5", "10", "+Inf"}) {
    const double v = Value(m, h + R"(_bucket{operation="object",le=")" + le + "\"}");
    CHECK(v >= previous);
    previous = v;
  }
  CHECK(Value(m, h + R"(_sum{operation="object"})") > 0);
  CHECK(Value(m, "folio_http_open_connections") >= 1);  // this scrape's own
  CHECK(Value(m, "folio_http_connections_total") >= 7);
  CHECK(Value(m, "folio_http_received_bytes_total") > 300);
  CHECK(Value(m, "folio_http_sent_bytes_total") > 300);
  // The next scrapes count the earlier ones and what they sent.
  const auto again = ScrapeUntil(f, [](const std::map<std::string, double>& s) {
    return Value(s, R"(folio_http_requests_total{operation="metrics",status="200"})") >= 1;
  });
  CHECK(Value(again, R"(folio_http_requests_total{operation="metrics",status="200"})") >= 1);
  CHECK(Value(again, "folio_http_sent_bytes_total") > Value(m, "folio_http_sent_bytes_total"));
}

TEST_CASE("Http operations: the commit latency the engine reports is a histogram in /-/metrics") {
  ServerFixture f;
  const auto before = Scrape(f);
  metrics::ObserveCommitLatency(0.003);  // the histogram is process-wide: compare, do not count
  const auto after = Scrape(f);
  CHECK(Value(after, "folio_commit_duration_seconds_count") == Value(before, "folio_commit_duration_seconds_count") + 1);
  CHECK(Value(after, R"(folio_commit_duration_seconds_bucket{le="0.005"})") ==
        Value(before, R"(folio_commit_duration_seconds_bucket{le="0.005"})") + 1);
  CHECK(Value(after, R"(folio_commit_duration_seconds_bucket{le="0.0025"})") ==
        Value(before, R"(folio_commit_duration_seconds_bucket{le="0.0025"})"));
}

TEST_CASE("Http operations: open connections is a gauge") {
  ServerFixture f;
  const int a = Connect(f.port(), 10);
  const int b = Connect(f.port(), 10);
  SendAll(a, "GET /-/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(StatusOf(ReadResponse(a)) == 200);
  SendAll(b, "GET /-/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(StatusOf(ReadResponse(b)) == 200);
  SendAll(a, "GET /-/metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
  const auto m = ParseMetrics(BodyText(ReadResponse(a)));
  CHECK(Value(m, "folio_http_open_connections") == 2);
  ::close(a);
  ::close(b);
  for (int i = 0; i < 500 && f.server().metrics().open_connections() != 0; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  CHECK(f.server().metrics().open_connections() == 0);
}

}  // namespace
}  // namespace folio::testing
