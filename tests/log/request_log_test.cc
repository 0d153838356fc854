// The log output and the request log (src/log/log_output.h, request_log.h): one line per
// request, text or JSON, buffered but written promptly and at exit; the exception on
// 5xx at info, on 4xx only at debug.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <vector>

#include "log/log_output.h"
#include "log/request_log.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

using Clock = std::chrono::steady_clock;

// A pipe standing in for stderr; the default logger is restored at the end.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    REQUIRE(::pipe2(fds_, O_CLOEXEC) == 0);
    ::fcntl(fds_[0], F_SETFL, O_NONBLOCK);
  }
  ~CapturedLog() {
    spdlog::set_default_logger(previous_);
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  int fd() const { return fds_[1]; }

  // The lines written so far, waiting up to `wait_ms` for at least `count` of them.
  // The lines written so far, once one holds `needle` (or after `wait_ms`).
  std::vector<std::string> LinesUntil(const std::string& needle, int wait_ms = 3000) {
    const auto start = Clock::now();
    while (true) {
      const std::vector<std::string> lines = Lines(0, 0);
      for (const std::string& l : lines) {
        if (l.find(needle) != std::string::npos) return lines;
      }
      if (std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count() > wait_ms) return lines;
      pollfd p{fds_[0], POLLIN, 0};
      ::poll(&p, 1, 20);
    }
  }

  std::vector<std::string> Lines(size_t count, int wait_ms = 3000) {
    const auto start = Clock::now();
    while (true) {
      char buf[4096];
      const ssize_t n = ::read(fds_[0], buf, sizeof(buf));
      if (n > 0) {
        text_.append(buf, static_cast<size_t>(n));
        continue;
      }
      std::vector<std::string> lines;
      std::istringstream in(text_);
      std::string line;
      while (std::getline(in, line)) lines.push_back(line);
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      if (lines.size() >= count || waited > wait_ms) return lines;
      pollfd p{fds_[0], POLLIN, 0};
      ::poll(&p, 1, 20);
    }
  }

 private:
  int fds_[2];
  std::shared_ptr<spdlog::logger> previous_;
  std::string text_;
};

TEST_CASE("RequestLog: text lines; the exception of a 5xx at info, of a 4xx only at debug") {
  CapturedLog captured;
  {
    logging::LogOutput out(captured.fd(), logging::LogFormat::kText);
    out.Install(spdlog::level::info);
    const logging::RequestLog log(logging::LogFormat::kText);
    logging::RequestRecord r;
    r.method = "GET";
    r.target = "/demo/cmis/a.txt?cmisselector=object";
    r.operation = "object";
    r.status = 404;
    r.bytes = 97;
    r.seconds = 0.0123;
    r.exception = "objectNotFound";
    r.message = "no object at 'a.txt'";
    log.Write(r);
    r.status = 500;
    r.exception = "storage";
    r.message = "cannot read 'x.json'";
    log.Write(r);
    spdlog::set_level(spdlog::level::debug);
    r.status = 404;
    r.exception = "objectNotFound";
    r.message = "no object at 'a.txt'";
    log.Write(r);
    spdlog::set_level(spdlog::level::warn);
    log.Write(r);  // not written: the request log is info
  }  // destroyed: everything written
  const auto lines = captured.Lines(3);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("[folio] [info] GET /demo/cmis/a.txt object 404 97B 12.3ms") != std::string::npos);
  CHECK(lines[0].find("objectNotFound") == std::string::npos);
  CHECK(lines[1].find(R"(GET /demo/cmis/a.txt object 500 97B 12.3ms storage "cannot read 'x.json'")") !=
        std::string::npos);
  CHECK(lines[2].find(R"(404 97B 12.3ms objectNotFound "no object at 'a.txt'")") != std::string::npos);
}

TEST_CASE("RequestLog: JSON lines, one object each, from a running server, written without a flush") {
  CapturedLog captured;
  ServerConfig config;
  config.http.log_format = logging::LogFormat::kJson;
  ServerFixture f(config);
  logging::LogOutput out(captured.fd(), logging::LogFormat::kJson);
  out.Install(spdlog::level::info);
  auto c = f.Client();
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
  CHECK(c.Get("/demo/beta/docs/nosuch.txt?cmisselector=object")->status == 404);
  spdlog::info("a message with \"quotes\"");
  // No flush asked for: the output writes within its 50 ms period. Lines of other layers
  // (the engine logs what it adopts at info) may come between: requests are told apart by
  // their "method", messages by their "level".
  const auto of_kind = [](const std::vector<std::string>& lines, const char* key) {
    std::vector<Json> out;
    for (const std::string& line : lines) {
      const Json j = Json::parse(line, nullptr, false);
      REQUIRE_MESSAGE(!j.is_discarded(), line);
      REQUIRE(j.is_object());
      if (j.contains(key)) out.push_back(j);
    }
    return out;
  };
  const auto lines = captured.LinesUntil("quotes");
  const std::vector<Json> requests = of_kind(lines, "method");
  REQUIRE(requests.size() == 2);
  // A request's line is written once its answer is sent, by the worker that served it:
  // the second request (the same connection, maybe another worker) may be logged first.
  const bool in_order = requests[0]["path"] == "/demo/beta/docs/readme.txt";
  const Json& ok = requests[in_order ? 0 : 1];
  CHECK(ok["method"] == "GET");
  CHECK(ok["path"] == "/demo/beta/docs/readme.txt");
  CHECK(ok["operation"] == "content");
  CHECK(ok["status"] == 200);
  CHECK(ok["bytes"] == 5);
  CHECK(ok["duration"].is_number());
  CHECK(ok["exception"].is_null());
  CHECK(ok["time"].get<std::string>().size() == 24);  // 2026-11-23T22:30:14.123Z
  const Json& missing = requests[in_order ? 1 : 0];
  CHECK(missing["status"] == 404);
  CHECK(missing["path"] == "/demo/beta/docs/nosuch.txt");  // no query string
  CHECK(missing["exception"].is_null());                   // a 4xx at info
  const std::vector<Json> messages = of_kind(lines, "level");
  REQUIRE_FALSE(messages.empty());
  const Json& message = messages.back();
  CHECK(message["level"] == "info");
  CHECK(message["message"] == "a message with \"quotes\"");
  // At debug the 4xx carries its exception and message.
  spdlog::set_level(spdlog::level::debug);
  CHECK(c.Get("/demo/beta/docs/nosuch2.txt?cmisselector=object")->status == 404);
  const std::vector<Json> more = of_kind(captured.LinesUntil("nosuch2"), "method");
  REQUIRE(more.size() == 3);
  const Json& debug = more[2];
  CHECK(debug["path"] == "/demo/beta/docs/nosuch2.txt");
  CHECK(debug["exception"] == "objectNotFound");
  CHECK(debug["message"].get<std::string>().find("nosuch2.txt") != std::string::npos);
  spdlog::set_level(spdlog::level::warn);
}

TEST_CASE("LogOutput: lines appended from many threads are whole, and all written at exit") {
  CapturedLog captured;
  {
    logging::LogOutput out(captured.fd(), logging::LogFormat::kText);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&out, t] {
        for (int i = 0; i < 200; ++i) out.Append("thread " + std::to_string(t) + " line " + std::to_string(i));
      });
    }
    for (auto& t : threads) t.join();
  }
  const auto lines = captured.Lines(800);
  REQUIRE(lines.size() == 800);
  for (const std::string& line : lines) CHECK(line.rfind("thread ", 0) == 0);
  CHECK(logging::ParseLogFormat("json") == logging::LogFormat::kJson);
  CHECK_FALSE(logging::ParseLogFormat("xml").has_value());
}

}  // namespace
}  // namespace folio::testing
