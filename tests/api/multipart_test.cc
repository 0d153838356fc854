#include "api/multipart.h"

#include <doctest/doctest.h>

#include <vector>


namespace folio::api {
namespace {

struct Part {
  PartHeader header;
  std::string data;
  bool ended = false;
};

class Collect : public MultipartSink {
 public:
  Status OnPartBegin(const PartHeader& h) override {
    parts.push_back({h, "", false});
    return OkStatus();
  }
  Status OnPartData(std::string_view b) override {
    parts.back().data.append(b);
    return OkStatus();
  }
  Status OnPartEnd() override {
    parts.back().ended = true;
    return OkStatus();
  }
  std::vector<Part> parts;
};

const std::string kBody =
    "preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"content\"; filename=\"C:\\\\dir\\\\a.txt\"; "
    "filename*=UTF-8''na%C3%AFve.txt\r\nContent-Type: text/plain\r\n\r\nline1\r\n--Xy not a boundary\r\n"
    "\r\n--XyZ\r\nContent-Disposition: form-data; name=\"cmisaction\"\r\n\r\ncreateDocument\r\n--XyZ--\r\nepilogue";

TEST_CASE("MultipartParser: parts, RFC 5987 file names, any split of the input") {
  for (size_t step : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, size_t{64}, kBody.size()}) {
    CAPTURE(step);
    MultipartParser parser("XyZ");
    Collect sink;
    for (size_t i = 0; i < kBody.size(); i += step) {
      REQUIRE(parser.Feed(std::string_view(kBody).substr(i, step), sink).ok());
    }
    REQUIRE(parser.Finish().ok());
    REQUIRE(sink.parts.size() == 2);
    CHECK(sink.parts[0].header.name == "content");
    CHECK(sink.parts[0].header.has_file_name);
    CHECK(sink.parts[0].header.file_name == "naïve.txt");
    CHECK(sink.parts[0].header.content_type == "text/plain");
    CHECK(sink.parts[0].data == "line1\r\n--Xy not a boundary\r\n");
    CHECK(sink.parts[1].header.name == "cmisaction");
    CHECK(sink.parts[1].data == "createDocument");
    CHECK(sink.parts[1].ended);
  }
}

TEST_CASE("MultipartParser: a plain filename is trimmed to its last path segment") {
  const std::string body =
      "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"C:\\dir\\report.pdf\"\r\n\r\nx\r\n--b--\r\n";
  MultipartParser parser("b");
  Collect sink;
  REQUIRE(parser.Feed(body, sink).ok());
  REQUIRE(parser.Finish().ok());
  CHECK(sink.parts[0].header.file_name == "report.pdf");
}

TEST_CASE("MultipartParser: malformed bodies are invalidArgument naming the problem") {
  struct Case {
    std::string body;
    std::string needle;
  };
  const Case cases[] = {
      {"--b\r\nX: y\r\n\r\nv\r\n--b--", "Content-Disposition"},
      {"--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--", "no name"},
      {"--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--b--", "form-data"},
      {"--b\r\nContent-Disposition: form-data; name=\"a\"; filename*=bogus\r\n\r\nv\r\n--b--", "filename*"},
      {"--b\r\nno colon here\r\n\r\nv\r\n--b--", "':'"},
      {"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n" + std::string(20000, 'x'), "16 KiB"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.body.substr(0, 60));
    MultipartParser parser("b");
    Collect sink;
    Status s = parser.Feed(c.body, sink);
    if (s.ok()) s = parser.Finish();
    CHECK(s.kind() == ErrorKind::kInvalidArgument);
    CHECK(s.message().find(c.needle) != std::string::npos);
  }
  MultipartParser unterminated("b");
  Collect sink;
  REQUIRE(unterminated.Feed("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv", sink).ok());
  CHECK(unterminated.Finish().kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("MultipartBoundary: from the Content-Type") {
  CHECK(*MultipartBoundary("multipart/form-data; boundary=----abc") == "----abc");
  CHECK(*MultipartBoundary("multipart/form-data; charset=utf-8; boundary=\"q b\"") == "q b");
  CHECK(MultipartBoundary("multipart/form-data").status().kind() == ErrorKind::kInvalidArgument);
  CHECK(MultipartBoundary("multipart/form-data; boundary=").status().kind() == ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace folio::api
