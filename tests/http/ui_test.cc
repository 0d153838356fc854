// The browse UI's files at /-/ui/ (docs/API.md §2.4) and what the UI reads from the API:
// readOnly (§4.4, §7.2), getUsers' caller (§11.1), 401 without WWW-Authenticate for a
// script's request (§11.2).
#include <doctest/doctest.h>

#include <string>

#include "http/auth_fixture.h"
#include "http/server_fixture.h"
#include "ui/assets.h"

namespace folio::testing {
namespace {

TEST_CASE("Ui assets: every embedded file has a type and an ETag, index.html among them") {
  REQUIRE(folio::ui::FindAsset("index.html") != nullptr);
  CHECK(folio::ui::FindAsset("app.js") != nullptr);
  CHECK(folio::ui::FindAsset("icons/folder.svg") != nullptr);
  CHECK(folio::ui::FindAsset("nope.js") == nullptr);
  CHECK(folio::ui::FindAsset("") == nullptr);
  size_t total = 0;
  for (const folio::ui::Asset& a : folio::ui::EmbeddedAssets()) {
    CHECK(!a.content_type.empty());
    CHECK(a.etag.size() > 2);
    CHECK(a.etag.front() == '"');
    total += a.body.size();
  }
  CHECK(total < 150 * 1024);  // the whole UI loads in under 150 KB
  CHECK(folio::ui::IsUiPath("/-/ui"));
  CHECK(folio::ui::IsUiPath("/-/ui/"));
  CHECK(folio::ui::IsUiPath("/-/ui/app.js"));
  CHECK(!folio::ui::IsUiPath("/-/uix"));
  CHECK(!folio::ui::IsUiPath("/-/health"));
}

TEST_CASE("Ui http: /-/ui/ serves index.html with the security headers") {
  ServerFixture f;
  auto c = f.Client();
  auto r = c.Get("/-/ui/");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "text/html; charset=utf-8");
  CHECK(r->body.find("<script type=\"module\" src=\"app.js\">") != std::string::npos);
  const std::string csp = r->get_header_value("Content-Security-Policy");
  CHECK(csp.find("default-src 'self'") != std::string::npos);
  CHECK(csp.find("script-src 'self';") != std::string::npos);
  CHECK(csp.find("frame-ancestors 'self'") != std::string::npos);
  CHECK(csp.find("unsafe-inline") == std::string::npos);
  CHECK(r->get_header_value("X-Frame-Options") == "SAMEORIGIN");
  CHECK(r->get_header_value("X-Content-Type-Options") == "nosniff");
  CHECK(r->get_header_value("Cache-Control") == "no-cache");
  const std::string etag = r->get_header_value("ETag");
  REQUIRE(!etag.empty());

  auto js = c.Get("/-/ui/app.js");
  CHECK(js->status == 200);
  CHECK(js->get_header_value("Content-Type") == "text/javascript; charset=utf-8");
  CHECK(c.Get("/-/ui/style.css")->get_header_value("Content-Type") == "text/css; charset=utf-8");
  CHECK(c.Get("/-/ui/icons/folder.svg")->get_header_value("Content-Type") == "image/svg+xml");
  CHECK(c.Head("/-/ui/app.js")->status == 200);

  SUBCASE("a matching If-None-Match is 304") {
    auto again = c.Get("/-/ui/", httplib::Headers{{"If-None-Match", "\"other\", " + etag}});
    CHECK(again->status == 304);
    CHECK(again->body.empty());
    CHECK(c.Get("/-/ui/", httplib::Headers{{"If-None-Match", "\"other\""}})->status == 200);
  }
  SUBCASE("/-/ui redirects to /-/ui/") {
    auto bare = c.Get("/-/ui");
    CHECK(bare->status == 308);
    CHECK(bare->get_header_value("Location") == "/-/ui/");
  }
  SUBCASE("an unknown file is 404 objectNotFound naming it") {
    auto nope = c.Get("/-/ui/nope.js?x=1");
    CHECK(nope->status == 404);
    CHECK(BodyJson(nope)["exception"] == "objectNotFound");
    CHECK(BodyJson(nope)["message"].get<std::string>().find("'nope.js'") != std::string::npos);
    CHECK(c.Get("/-/ui/icons/")->status == 404);
    CHECK(c.Get("/-/uiapp.js")->status == 404);
  }
  SUBCASE("POST is notSupported") {
    auto post = c.Post("/-/ui/", "", "application/json");
    CHECK(post->status == 405);
    CHECK(BodyJson(post)["exception"] == "notSupported");
  }
}

TEST_CASE("Ui http: readOnly says whether the server refuses writes") {
  for (const bool read_only : {false, true}) {
    CAPTURE(read_only);
    ServerConfig config;
    config.service.read_only = read_only;
    ServerFixture f(config);
    auto c = f.Client();
    CHECK(BodyJson(c.Get("/demo/alpha?cmisselector=repositoryInfo"))["alpha"]["readOnly"] == read_only);
    CHECK(BodyJson(c.Get("/demo"))["beta"]["readOnly"] == read_only);
    CHECK(BodyJson(c.Get("/"))["readOnly"] == read_only);
  }
}

TEST_CASE("Ui http: getUsers names the caller, null when anonymous") {
  AuthFixture f;
  CHECK(BodyJson(f.Get("/acme?operation=getUsers", "bob"))["caller"] == "bob");
  CHECK(BodyJson(f.GetWithKey("/acme?operation=getUsers", f.key("carol")))["caller"] == "carol");
  auto c = f.server().Client();
  REQUIRE(c.Post("/", "operation=createDomain&domainId=open", "application/x-www-form-urlencoded")->status == 201);
  CHECK(BodyJson(c.Get("/open?operation=getUsers"))["caller"].is_null());
}

TEST_CASE("Ui http: a script's request is refused 401 without WWW-Authenticate") {
  AuthFixture f;
  auto c = f.server().Client();
  auto plain = c.Get("/acme/main");
  CHECK(plain->status == 401);
  CHECK(plain->get_header_value("WWW-Authenticate") == "Basic realm=\"folio\"");
  for (const char* value : {"XMLHttpRequest", "xmlhttprequest"}) {
    auto script = c.Get("/acme/main", httplib::Headers{{"X-Requested-With", value}});
    CHECK(script->status == 401);
    CHECK(BodyJson(script)["exception"] == "unauthorized");
    CHECK(!script->has_header("WWW-Authenticate"));
  }
}

}  // namespace
}  // namespace folio::testing
