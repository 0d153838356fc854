// HeadParser (src/http/head_parser.h): request heads as they arrive, the limits on
// their size and fields, and what is malformed.
#include "http/head_parser.h"

#include <doctest/doctest.h>

#include <string>

namespace folio::http {
namespace {

bool Contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST_CASE("HeadParser: parses a head, fed whole or one byte at a time") {
  const std::string text =
      "GET /demo/cmis/a.txt?x=1 HTTP/1.1\r\nHost: example\r\nX-Empty:\r\nAccept:  */*  \r\n\r\nBODY";
  for (const bool bytewise : {false, true}) {
    CAPTURE(bytewise);
    HeadParser p;
    HeadParser::State state = HeadParser::State::kIncomplete;
    if (bytewise) {
      for (size_t n = 1; n <= text.size() && state == HeadParser::State::kIncomplete; ++n) {
        state = p.Parse(std::string_view(text).substr(0, n));
      }
    } else {
      state = p.Parse(text);
    }
    REQUIRE(state == HeadParser::State::kComplete);
    CHECK(p.head_size() == text.size() - 4);
    CHECK(p.head().method == "GET");
    CHECK(p.head().target == "/demo/cmis/a.txt?x=1");
    CHECK(p.head().minor_version == 1);
    REQUIRE(p.head().headers.size() == 3);
    CHECK(p.head().header("host") == "example");
    CHECK(p.head().header("X-EMPTY") == "");
    CHECK(p.head().has_header("x-empty"));
    CHECK(p.head().header("Accept") == "*/*");
    CHECK_FALSE(p.head().has_header("Cookie"));
  }
}

TEST_CASE("HeadParser: leading empty lines, HTTP/1.0") {
  HeadParser p;
  const std::string text = "\r\n\r\nPOST / HTTP/1.0\r\nContent-Length: 3\r\n\r\n";
  REQUIRE(p.Parse(text) == HeadParser::State::kComplete);
  CHECK(p.head_size() == text.size());
  CHECK(p.head().method == "POST");
  CHECK(p.head().minor_version == 0);
  CHECK(p.head().header("Content-Length") == "3");
  p.Reset();
  CHECK_FALSE(p.started());
  CHECK(p.Parse("\r\n") == HeadParser::State::kIncomplete);
  CHECK(p.Parse("\r\n\r") == HeadParser::State::kIncomplete);  // a CR whose LF is on its way
  CHECK_FALSE(p.started());
  CHECK(p.Parse("\r\n\r\nGET / HTTP/1.1\r\n\r\n") == HeadParser::State::kComplete);
}

TEST_CASE("HeadParser: a bare LF anywhere in the head is 400, in whatever pieces it arrives") {
  for (const std::string text :
       {"GET / HTTP/1.1\nHost: localhost\r\n\r\n", "GET / HTTP/1.1\r\nHost: localhost\nX-A: b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: localhost\r\n\n", "\nGET / HTTP/1.1\r\n\r\n", "\r\n\nGET / HTTP/1.1\r\n\r\n",
        "POST / HTTP/1.0\nContent-Length: 3\n\n"}) {
    CAPTURE(text);
    for (size_t piece : {size_t{1}, size_t{2}, size_t{5}, text.size()}) {
      CAPTURE(piece);
      HeadParser p;
      HeadParser::State state = HeadParser::State::kIncomplete;
      for (size_t n = piece; state == HeadParser::State::kIncomplete; n += piece) {
        state = p.Parse(std::string_view(text).substr(0, std::min(n, text.size())));
        if (n >= text.size()) break;
      }
      REQUIRE(state == HeadParser::State::kError);
      CHECK(p.error_status() == 400);
      CHECK(p.error_message().find("bare LF") != std::string::npos);
    }
  }
}

TEST_CASE("HeadParser: HasToken reads comma-separated lists") {
  HeadParser p;
  REQUIRE(p.Parse("GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nExpect: 100-Continue\r\n\r\n") ==
          HeadParser::State::kComplete);
  CHECK(p.head().HasToken("connection", "upgrade"));
  CHECK(p.head().HasToken("Connection", "KEEP-ALIVE"));
  CHECK_FALSE(p.head().HasToken("Connection", "close"));
  CHECK(p.head().HasToken("Expect", "100-continue"));
}

TEST_CASE("HeadParser: malformed heads are 400 or 505, naming what is wrong") {
  struct Case {
    std::string text;
    int status;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"\x01\x02 garbage\r\n\r\n", 400, "malformed request line"},
      {"GET\r\n\r\n", 400, "malformed request line"},
      {"GET /a b HTTP/1.1\r\n\r\n", 400, "malformed request line"},
      {"G(T / HTTP/1.1\r\n\r\n", 400, "malformed request line"},
      {"GET / HTTX/1.1\r\n\r\n", 400, "malformed request line"},
      {"GET / HTTP/2.0\r\n\r\n", 505, "'2.0' is not supported"},
      {"GET / HTTP/1.1\r\nHost x\r\n\r\n", 400, "'Host x'"},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400, "'Bad Name: x'"},
      {"GET / HTTP/1.1\r\nA: b\r\n  folded\r\n\r\n", 400, "obsolete line folding"},
      {"GET / HTTP/1.1\r\nA: b\x01c\r\n\r\n", 400, "'A' holds a control character"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    HeadParser p;
    REQUIRE(p.Parse(c.text) == HeadParser::State::kError);
    CHECK(p.error_status() == c.status);
    CHECK_MESSAGE(Contains(p.error_message(), c.culprit), p.error_message());
  }
}

TEST_CASE("HeadParser: over 64 KiB or 100 fields is 431, found while the head arrives") {
  SUBCASE("one endless header line") {
    HeadParser p;
    std::string text = "GET / HTTP/1.1\r\nX-Long: ";
    HeadParser::State state = HeadParser::State::kIncomplete;
    while (state == HeadParser::State::kIncomplete && text.size() < 1024 * 1024) {
      text += std::string(4096, 'a');
      state = p.Parse(text);
    }
    REQUIRE(state == HeadParser::State::kError);
    CHECK(text.size() <= 64 * 1024 + 4096);  // refused with the first bytes over the limit
    CHECK(p.error_status() == 431);
    CHECK_MESSAGE(Contains(p.error_message(), "65536 bytes"), p.error_message());
  }
  SUBCASE("many short header lines") {
    HeadParser p;
    std::string text = "GET / HTTP/1.1\r\n";
    HeadParser::State state = HeadParser::State::kIncomplete;
    int fields = 0;
    while (state == HeadParser::State::kIncomplete && fields < 1000) {
      text += "X-F" + std::to_string(fields++) + ": v\r\n";
      state = p.Parse(text);
    }
    REQUIRE(state == HeadParser::State::kError);
    CHECK(fields == 101);
    CHECK(p.error_status() == 431);
    CHECK_MESSAGE(Contains(p.error_message(), "100 header fields"), p.error_message());
  }
  SUBCASE("exactly 100 fields and a head of exactly the limit pass") {
    std::string text = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 99; ++i) text += "X-F" + std::to_string(i) + ": v\r\n";
    const size_t last = 64 * 1024 - text.size() - std::string("X-Pad: \r\n\r\n").size();
    text += "X-Pad: " + std::string(last, 'p') + "\r\n\r\n";
    REQUIRE(text.size() == 64 * 1024);
    HeadParser p;
    REQUIRE(p.Parse(text) == HeadParser::State::kComplete);
    CHECK(p.head().headers.size() == 100);
    HeadParser q;
    CHECK(q.Parse(text.substr(0, text.size() - 4) + "p\r\n\r\n") == HeadParser::State::kError);
    CHECK(q.error_status() == 431);
  }
  SUBCASE("limits are configurable") {
    HeadParser p(HeadLimits{128, 2});
    CHECK(p.Parse("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n") == HeadParser::State::kError);
    CHECK(p.error_status() == 431);
  }
}

}  // namespace
}  // namespace folio::http
