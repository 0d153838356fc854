// Errors and bad input over HTTP (docs/API.md §8, §9): every failure is
// {"exception","message"} with the contract's status, names the culprit, leaves the
// data unchanged and the server up. Also CORS, --read-only, --strict, --max-body.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http/raw_socket.h"
#include "http/server_fixture.h"

namespace folio::testing {
namespace {

// Sends `raw` as is and returns everything the server answers until it closes (send
// "Connection: close").
std::string RawRequest(int port, const std::string& raw) {
  const int fd = Connect(port, 3);
  SendAll(fd, raw);
  // No half-close: cpp-httplib takes a peer that shut down its sending side for gone.
  std::string out = ReadAll(fd);
  ::close(fd);
  return out;
}

Json BodyOf(const std::string& raw) {
  const size_t p = raw.find("\r\n\r\n");
  return Json::parse(p == std::string::npos ? "" : raw.substr(p + 4), nullptr, false);
}

// The listing of the fixture's beta/docs folder: compared before and after failures.
std::string Snapshot(httplib::Client& c) {
  return c.Get("/demo/beta/docs?cmisselector=children&succinct=true")->body +
         c.Get("/demo/beta/docs/readme.txt")->body;
}

void CheckError(const httplib::Result& r, int status, const std::string& exception, const std::string& needle) {
  REQUIRE(r);
  CHECK(r->status == status);
  Json j = BodyJson(r);
  CHECK(j["exception"] == exception);
  CHECK_MESSAGE(j["message"].get<std::string>().find(needle) != std::string::npos, j.dump());
  CHECK(r->get_header_value("Content-Type").find("application/json") == 0);
}

TEST_CASE("Http errors: bad bodies are invalidArgument and change nothing") {
  ServerFixture f;
  auto c = f.Client();
  const std::string before = Snapshot(c);
  CheckError(c.Post("/demo/beta/docs", "{\"operation\": \"createFolder\",", "application/json"), 400,
             "invalidArgument", "not valid JSON");
  CheckError(c.Post("/demo/beta/docs", "[1,2]", "application/json"), 400, "invalidArgument", "JSON object");
  CheckError(c.Post("/demo/beta/docs", std::string(100, '[') + std::string(100, ']'), "application/json"), 400,
             "invalidArgument", "nested deeper");
  CheckError(c.Post("/demo/beta/docs", "operation=createFolder&x=%zz", "application/x-www-form-urlencoded"), 400,
             "invalidArgument", "%zz");
  CheckError(c.Post("/demo/beta/docs", "operation=createFolder&propertyId[0]=cmis:name&propertyValue[0]=%C3%28",
                    "application/x-www-form-urlencoded"),
             400, "invalidArgument", "UTF-8");
  CheckError(c.Post("/demo/beta/docs", "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n",
                    "multipart/form-data; boundary=xyz"),
             400, "invalidArgument", "closing boundary");
  CheckError(c.Post("/demo/beta/docs", "--xyz\r\nX: y\r\n\r\nv\r\n--xyz--\r\n", "multipart/form-data; boundary=xyz"),
             400, "invalidArgument", "Content-Disposition");
  CheckError(c.Post("/demo/beta/docs", "x", "multipart/form-data"), 400, "invalidArgument", "boundary");
  CheckError(c.Post("/demo/beta/docs", "hello", "text/plain"), 400, "invalidArgument", "text/plain");
  CHECK(Snapshot(c) == before);
}

TEST_CASE("Http errors: unknown operations, missing and mistyped parameters") {
  ServerFixture f;
  auto c = f.Client();
  CheckError(c.Get("/demo/beta?cmisselector=bogusOp"), 405, "notSupported", "bogusOp");
  CheckError(PostAs(c, "/demo/beta", Encoding::kJson, {{"cmisaction", "bogusAction"}}), 405, "notSupported",
             "bogusAction");
  CheckError(c.Post("/demo/beta", "", "application/json"), 400, "invalidArgument", "operation");
  CheckError(c.Post("/demo/beta", "{\"operation\": 42}", "application/json"), 400, "invalidArgument", "operation");
  CheckError(c.Get("/demo/beta?cmisselector=typeDefinition"), 400, "invalidArgument", "typeId");
  CheckError(c.Get("/demo/beta/docs?cmisselector=children&skipCount=-1"), 400, "invalidArgument", "skipCount");
  CheckError(c.Get("/demo/beta/docs/readme.txt?cmisselector=object&succinct=maybe"), 400, "invalidArgument",
             "succinct");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}}), 400, "invalidArgument",
             "cmis:name");
  CheckError(PostAs(c, "/demo/alpha/docs", Encoding::kJson, {{"operation", "createObject"}}, Json{{"name", "x"}}), 400,
             "invalidArgument", "objectTypeId");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}, {"versioningState", "x"}},
                    Json{{"cmis:name", "v"}}),
             400, "invalidArgument", "versioningState");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createObject"}},
                    Json{{"cmis:name", "v"}, {"cmis:objectTypeId", "acme:nope"}}),
             400, "invalidArgument", "acme:nope");
  CheckError(c.Get("/demo/beta/docs/nosuch.txt"), 404, "objectNotFound", "nosuch.txt");
  CheckError(c.Get("/demo/beta?cmisselector=object&objectId=dnope"), 404, "objectNotFound", "dnope");
  CheckError(c.Get("/?operation=createDomain&domainId=abc"), 405, "notSupported", "POST");
  CheckError(c.Get("/demo?cmisselector=object"), 405, "notSupported", "domain URL");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"cmis:name", "a/b"}}),
             409, "nameConstraintViolation", "a/b");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}},
                    Json{{"cmis:name", ".folio"}}),
             409, "nameConstraintViolation", ".folio");
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createDocument"}},
                    Json{{"cmis:name", "readme.txt"}}),
             409, "nameConstraintViolation", "readme.txt");
}

TEST_CASE("Http errors: path traversal, bad percent-encoding and UTF-8 in URLs") {
  ServerFixture f;
  auto c = f.Client();
  const std::string before = Snapshot(c);
  for (const char* target : {"/demo/beta/docs/../../../etc/passwd", "/demo/beta/docs/%2e%2e/%2E%2E/x",
                             "/demo/beta/docs%2Freadme.txt", "/demo/beta/%00x", "/demo/beta/docs/%zz",
                             "/demo/beta/docs/%C3%28", "/demo/beta?q=%FF"}) {
    CAPTURE(target);
    const std::string raw = RawRequest(f.port(), std::string("GET ") + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    CHECK(StatusOf(raw) == 400);
    CHECK(BodyOf(raw)["exception"] == "invalidArgument");
  }
  const std::string absolute = RawRequest(f.port(), "GET http://evil/demo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  CHECK(StatusOf(absolute) >= 400);
  CHECK(BodyOf(absolute).contains("exception"));
  CheckError(c.Get("/demo/beta?cmisselector=object&objectId=../../etc"), 404, "objectNotFound", "../../etc");
  CheckError(PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "move"}, {"objectId", "x/../y"},
                                                       {"targetFolderId", "/etc"}}),
             404, "objectNotFound", "x/../y");
  CHECK(Snapshot(c) == before);
}

TEST_CASE("Http errors: bodies over --max-body are refused with 413") {
  ServerConfig config;
  config.http.max_body = 1000;
  ServerFixture f(config);
  auto c = f.Client();
  const std::string before = Snapshot(c);
  Upload big{std::string(5000, 'x'), "big.bin", "application/octet-stream"};
  auto r = PostAs(c, "/demo/beta/docs", Encoding::kMultipart, {{"operation", "createDocument"}},
                  Json{{"cmis:name", "big.bin"}}, &big);
  CheckError(r, 413, "constraint", "1000");
  // Chunked: no Content-Length; counted while streaming.
  std::string chunked = "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n"
                        "Transfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 5; ++i) chunked += "1f4\r\n" + std::string(500, ' ') + "\r\n";
  chunked += "0\r\n\r\n";
  const std::string raw = RawRequest(f.port(), chunked);
  CHECK(StatusOf(raw) == 413);
  CHECK(BodyOf(raw)["exception"] == "constraint");
  CHECK(Snapshot(c) == before);
  // The server is still up and a small body passes.
  CHECK(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"cmis:name", "ok"}})
            ->status == 201);
}

TEST_CASE("Http errors: chunked multipart upload is streamed and accepted") {
  ServerFixture f;
  const std::string part = std::string(70000, 'z');
  std::string body = "--b0undary\r\nContent-Disposition: form-data; name=\"content\"; filename*=UTF-8''na%C3%AFve.txt\r\n"
                     "Content-Type: text/plain\r\n\r\n" + part +
                     "\r\n--b0undary\r\nContent-Disposition: form-data; name=\"cmisaction\"\r\n\r\ncreateDocument\r\n"
                     "--b0undary\r\nContent-Disposition: form-data; name=\"propertyId[0]\"\r\n\r\ncmis:name\r\n"
                     "--b0undary\r\nContent-Disposition: form-data; name=\"propertyValue[0]\"\r\n\r\nnaïve.txt\r\n"
                     "--b0undary--\r\n";
  std::string raw = "POST /demo/beta/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    "Content-Type: multipart/form-data; boundary=b0undary\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (size_t i = 0; i < body.size(); i += 7000) {
    const std::string piece = body.substr(i, 7000);
    char size[32];
    std::snprintf(size, sizeof(size), "%zx\r\n", piece.size());
    raw += size + piece + "\r\n";
  }
  raw += "0\r\n\r\n";
  const std::string answer = RawRequest(f.port(), raw);
  CHECK(StatusOf(answer) == 201);
  Json j = BodyOf(answer);
  CHECK(j["properties"]["cmis:contentStreamFileName"]["value"] == "naïve.txt");
  CHECK(j["properties"]["cmis:contentStreamLength"]["value"] == 70000);
  auto c = f.Client();
  CHECK(c.Get("/demo/beta/docs/na%C3%AFve.txt")->body == part);
}

TEST_CASE("Http errors: suppressResponseCodes=true answers 200 with the error body") {
  ServerFixture f;
  auto c = f.Client();
  auto r = c.Get("/demo/beta/docs/nosuch?suppressResponseCodes=true");
  CHECK(r->status == 200);
  CHECK(BodyJson(r)["exception"] == "objectNotFound");
  auto p = PostAs(c, "/demo/beta/docs", Encoding::kUrlencoded, {{"cmisaction", "nope"}, {"suppressResponseCodes", "true"}});
  CHECK(p->status == 200);
  CHECK(BodyJson(p)["exception"] == "notSupported");
}

TEST_CASE("Http errors: CORS preflight and headers; --cors-origin list") {
  {
    ServerFixture f;
    auto c = f.Client();
    // A page on another loopback port (a browser app in development) may ask and read.
    auto pre = c.Options("/demo/beta", {{"Origin", "http://localhost:5173"},
                                        {"Access-Control-Request-Method", "POST"},
                                        {"Access-Control-Request-Headers", "content-type"}});
    REQUIRE(pre);
    CHECK(pre->status == 204);
    CHECK(pre->get_header_value("Access-Control-Allow-Origin") == "http://localhost:5173");
    CHECK(pre->get_header_value("Access-Control-Allow-Methods").find("POST") != std::string::npos);
    CHECK(pre->get_header_value("Access-Control-Allow-Headers") == "content-type");
    auto get = c.Get("/demo", {{"Origin", "http://127.0.0.1:5173"}});
    CHECK(get->get_header_value("Access-Control-Allow-Origin") == "http://127.0.0.1:5173");
    auto err = c.Get("/nosuch", {{"Origin", "http://127.0.0.1:5173"}});
    CHECK(err->status == 404);
    CHECK(err->get_header_value("Access-Control-Allow-Origin") == "http://127.0.0.1:5173");
    CHECK(err->get_header_value_count("Access-Control-Allow-Origin") == 1);
    // Another site's page gets no CORS header, on a preflight or a read.
    auto foreign = c.Options("/demo/beta", {{"Origin", "http://app.example"}, {"Access-Control-Request-Method", "POST"}});
    CHECK(foreign->status == 204);
    CHECK(!foreign->has_header("Access-Control-Allow-Origin"));
    CHECK(!foreign->has_header("Access-Control-Allow-Methods"));
    CHECK(!c.Get("/demo", {{"Origin", "http://app.example"}})->has_header("Access-Control-Allow-Origin"));
  }
  ServerConfig config;
  config.http.web.cors_origins = {"http://a.example", "http://b.example"};
  ServerFixture f(config);
  auto c = f.Client();
  CHECK(c.Get("/", {{"Origin", "http://b.example"}})->get_header_value("Access-Control-Allow-Origin") ==
        "http://b.example");
  CHECK(!c.Get("/", {{"Origin", "http://evil.example"}})->has_header("Access-Control-Allow-Origin"));
}

TEST_CASE("Http errors: methods other than GET, POST, OPTIONS are notSupported") {
  ServerFixture f;
  auto c = f.Client();
  CheckError(c.Put("/demo/beta", "x", "text/plain"), 405, "notSupported", "PUT");
  CheckError(c.Delete("/demo/beta"), 405, "notSupported", "DELETE");
  CHECK(c.Head("/demo/beta/docs/readme.txt")->status == 200);
}

TEST_CASE("Http errors: --read-only refuses writes with permissionDenied") {
  ServerConfig config;
  config.service.read_only = true;
  config.read_only_store = true;
  ServerFixture f(config);
  auto c = f.Client();
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"cmis:name", "x"}}),
             403, "permissionDenied", "read-only");
  CheckError(PostAs(c, "/", Encoding::kJson, {{"operation", "createDomain"}, {"domainId", "abc"}}), 403,
             "permissionDenied", "read-only");
  CHECK(c.Get("/demo/beta/docs/readme.txt")->body == "hello");
}

TEST_CASE("Http errors: --strict refuses urlencoded bodies in variant B only") {
  ServerConfig config;
  config.service.strict = true;
  ServerFixture f(config);
  auto c = f.Client();
  CheckError(PostAs(c, "/demo/beta/docs", Encoding::kUrlencoded, {{"operation", "createFolder"}},
                    Json{{"cmis:name", "x"}}),
             400, "invalidArgument", "urlencoded");
  CHECK(PostAs(c, "/demo/alpha/docs", Encoding::kUrlencoded, {{"operation", "createFolder"}}, Json{{"name", "x"}})
            ->status == 201);
  CHECK(PostAs(c, "/demo/beta/docs", Encoding::kJson, {{"operation", "createFolder"}}, Json{{"cmis:name", "x"}})
            ->status == 201);
}

TEST_CASE("Http errors: the server survives garbage and keeps serving") {
  ServerFixture f;
  for (const char* junk : {"\x01\x02\x03\r\n\r\n", "GET\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
                           "GET / HTTP/1.1\r\nRange: bytes=zz\r\nHost: localhost\r\n\r\n"}) {
    (void)RawRequest(f.port(), junk);
  }
  auto c = f.Client();
  CHECK(c.Get("/")->status == 200);
}

}  // namespace
}  // namespace folio::testing
