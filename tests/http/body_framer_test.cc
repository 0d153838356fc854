// BodyFramer (src/http/body_framer.h): where Content-Length and chunked bodies end, fed
// in pieces of any size; chunk framing removed; malformed chunks refused.
#include "http/body_framer.h"

#include <doctest/doctest.h>

#include <string>

namespace folio::http {
namespace {

struct Fed {
  std::string body;
  size_t consumed = 0;
  Status status;
  bool done = false;
};

// Feeds `input` in pieces of `piece` bytes (all at once for 0) until the body ends.
Fed FeedAll(BodyFramer framer, const std::string& input, size_t piece) {
  Fed out;
  const BodyFramer::Sink sink = [&out](std::string_view bytes) {
    out.body.append(bytes);
    return OkStatus();
  };
  size_t at = 0;
  while (at < input.size() && !framer.done()) {
    const size_t n = piece == 0 ? input.size() - at : std::min(piece, input.size() - at);
    auto used = framer.Feed(std::string_view(input).substr(at, n), sink);
    if (!used.ok()) {
      out.status = used.status();
      break;
    }
    at += *used;
    if (*used < n) break;  // the body ended inside this piece
  }
  out.consumed = at;
  out.done = framer.done();
  return out;
}

TEST_CASE("BodyFramer: Content-Length takes exactly its bytes") {
  for (size_t piece : {0, 1, 3, 7}) {
    CAPTURE(piece);
    const Fed f = FeedAll(BodyFramer::Length(5), "helloGET /next", piece);
    CHECK(f.status.ok());
    CHECK(f.done);
    CHECK(f.body == "hello");
    CHECK(f.consumed == 5);
  }
  CHECK(BodyFramer::Length(0).done());
}

TEST_CASE("BodyFramer: chunked bodies, with extensions and trailers, in pieces of any size") {
  const std::string input =
      "5\r\nhello\r\n1a;ext=1\r\n abcdefghijklmnopqrstuvwxy\r\n0\r\nTrailer: x\r\n\r\nGET /next";
  for (size_t piece = 0; piece < 12; ++piece) {
    CAPTURE(piece);
    const Fed f = FeedAll(BodyFramer::Chunked(), input, piece);
    REQUIRE(f.status.ok());
    CHECK(f.done);
    CHECK(f.body == "hello abcdefghijklmnopqrstuvwxy");
    CHECK(input.substr(f.consumed) == "GET /next");
  }
}

TEST_CASE("BodyFramer: a bare LF ending a chunk size, chunk or trailer line is invalidArgument") {
  for (const std::string input : {"3\nabc\r\n0\r\n\r\n", "3\r\nabc\n0\r\n\r\n", "3\r\nabc\r\n0\n\r\n",
                                  "3\r\nabc\r\n0\r\nTrailer: x\n\r\n", "3\r\nabc\r\n0\r\n\n"}) {
    CAPTURE(input);
    for (size_t piece : {size_t{0}, size_t{1}, size_t{4}}) {
      const Fed f = FeedAll(BodyFramer::Chunked(), input, piece);
      REQUIRE_FALSE(f.status.ok());
      CHECK(f.status.kind() == ErrorKind::kInvalidArgument);
      CHECK(f.status.message().find("bare LF") != std::string::npos);
    }
  }
}

TEST_CASE("BodyFramer: malformed chunks are invalidArgument") {
  struct Case {
    std::string input;
    std::string_view culprit;
  };
  const Case cases[] = {
      {"zz\r\n", "not a hexadecimal number"},
      {"5x\r\nhello\r\n", "after a chunk size"},
      {"3\r\nabcX\r\n", "not followed by CRLF"},
      {"fffffffffffffffffff\r\n", "too large"},
      {std::string(70000, '1'), "too long"},
      {"0\r\n" + std::string(70000, 'x'), "too long"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.input.substr(0, 40));
    const Fed f = FeedAll(BodyFramer::Chunked(), c.input, 0);
    REQUIRE_FALSE(f.status.ok());
    CHECK(f.status.kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(f.status.message().find(c.culprit) != std::string::npos, f.status.message());
  }
}

TEST_CASE("BodyFramer: an error of the sink stops the body") {
  BodyFramer framer = BodyFramer::Length(10);
  auto used = framer.Feed("0123456789", [](std::string_view) { return Constraint("too much"); });
  REQUIRE_FALSE(used.ok());
  CHECK(used.status().kind() == ErrorKind::kConstraint);
}

}  // namespace
}  // namespace folio::http
