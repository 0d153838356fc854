// The response cache (src/http/response_cache.h): the hot read path answers a repeated
// getObject from kept bytes, and never with stale ones, whoever changed the object: this
// server, another process on the same data directory, or a person editing files by hand.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

#include "http/response_cache.h"
#include "http/server_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

const char* const kReadme = "/demo/alpha/docs/readme.txt?cmisselector=object";

Json GetJson(httplib::Client& c, const std::string& target) {
  auto r = c.Get(target.c_str());
  REQUIRE(r);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  return Json::parse(r->body);
}

std::string Prop(const Json& object, const std::string& id) {
  const Json& v = object["properties"][id];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

TEST_CASE("ResponseCache: keeps answers with a check, drops them once stale, stays bounded") {
  http::ResponseCache cache(/*max_entries=*/32, /*max_body=*/100);
  auto valid = std::make_shared<std::atomic<bool>>(true);
  http::ResponseCache::Answer a;
  a.content_type = "application/json";
  a.body = "{\"x\":1}";
  a.operation = "object";
  a.still_valid = [valid] { return valid->load(); };
  cache.Put("/a", a);
  auto found = cache.Find("/a");
  REQUIRE(found != nullptr);
  CHECK(found->body == "{\"x\":1}");
  CHECK(found->operation == "object");
  CHECK(cache.hits() == 1);
  CHECK(cache.Find("/b") == nullptr);
  CHECK(cache.misses() == 1);
  *valid = false;
  CHECK(cache.Find("/a") == nullptr);  // stale: dropped
  CHECK(cache.size() == 0);
  *valid = true;
  CHECK(cache.Find("/a") == nullptr);  // gone for good, even if the check would pass now

  http::ResponseCache::Answer unchecked = a;
  unchecked.still_valid = nullptr;
  cache.Put("/u", unchecked);
  http::ResponseCache::Answer large = a;
  large.body.assign(101, 'x');
  cache.Put("/l", large);
  CHECK(cache.size() == 0);

  for (int i = 0; i < 1000; ++i) cache.Put("/n" + std::to_string(i), a);
  CHECK(cache.size() <= 32);
  CHECK(cache.size() >= 16);
}

TEST_CASE("Response cache over HTTP: a repeated getObject is answered from it, byte for byte") {
  ServerFixture f;
  auto c = f.Client();
  auto first = c.Get(kReadme);
  REQUIRE(first);
  REQUIRE(first->status == 200);
  const uint64_t hits_before = f.server().response_cache().hits();
  auto second = c.Get(kReadme);
  REQUIRE(second);
  CHECK(second->status == 200);
  CHECK(second->body == first->body);
  CHECK(second->get_header_value("Content-Type") == first->get_header_value("Content-Type"));
  CHECK(second->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(f.server().response_cache().hits() == hits_before + 1);
  // HEAD from the cache: the head only.
  auto head = c.Head(kReadme);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // Another URL (other parameters) is another answer.
  auto succinct = c.Get("/demo/alpha/docs/readme.txt?cmisselector=object&succinct=true");
  REQUIRE(succinct);
  CHECK(succinct->body != first->body);
  // Folders are not kept (the repository builds them anew each time).
  for (int i = 0; i < 2; ++i) REQUIRE(c.Get("/demo/alpha/docs?cmisselector=object")->status == 200);
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // Credentials bypass it.
  httplib::Headers auth = {{"Authorization", "Basic YTpi"}};
  REQUIRE(c.Get(kReadme, auth)->status == 200);
  CHECK(f.server().response_cache().hits() == hits_before + 2);
}

TEST_CASE("Response cache over HTTP: never stale after a write through this server") {
  ServerFixture f;
  auto c = f.Client();
  const Json before = GetJson(c, kReadme);
  GetJson(c, kReadme);  // kept
  auto update = c.Post("/demo/alpha/docs/readme.txt", "cmisaction=update&propertyId[0]=cmis:description&propertyValue[0]=changed",
                       "application/x-www-form-urlencoded");
  REQUIRE(update);
  REQUIRE_MESSAGE(update->status == 200, update->body);
  const Json after = GetJson(c, kReadme);
  CHECK(Prop(after, "cmis:description") == "changed");
  CHECK(Prop(after, "cmis:changeToken") != Prop(before, "cmis:changeToken"));
  // setContent changes the length; checkOut the checked-out flag.
  auto set = c.Post("/demo/alpha/docs/readme.txt", "cmisaction=setContent&content=hello%20world",
                    "application/x-www-form-urlencoded");
  REQUIRE(set);
  REQUIRE_MESSAGE(set->status == 200, set->body);
  CHECK(Prop(GetJson(c, kReadme), "cmis:contentStreamLength") == "11");
  auto checkout = c.Post("/demo/alpha/docs/readme.txt", "cmisaction=checkOut", "application/x-www-form-urlencoded");
  REQUIRE(checkout);
  REQUIRE_MESSAGE(checkout->status == 200, checkout->body);
  CHECK(Prop(GetJson(c, kReadme), "cmis:isVersionSeriesCheckedOut") == "true");
  auto del = c.Post("/demo/alpha/docs/readme.txt", "cmisaction=delete&allVersions=true",
                    "application/x-www-form-urlencoded");
  REQUIRE(del);
  REQUIRE_MESSAGE(del->status == 200, del->body);
  auto gone = c.Get(kReadme);
  REQUIRE(gone);
  CHECK(gone->status == 404);
}

TEST_CASE("Response cache over HTTP: never stale after a write by another process on the same data") {
  ServerFixture f;
  auto c = f.Client();
  GetJson(c, kReadme);
  GetJson(c, kReadme);  // kept
  // Another process: its own Store, engine, caches and commit path on the same directory.
  auto other = Store::Open(f.dir(), {.durable = false});
  REQUIRE(other.ok());
  auto repo = (*other)->GetRepository("demo", "alpha");
  REQUIRE(repo.ok());
  auto doc = (*repo)->GetObjectByPath("/docs/readme.txt");
  REQUIRE(doc.ok());
  for (int round = 0; round < 5; ++round) {
    const std::string text = "from the other process " + std::to_string(round);
    auto updated = (*repo)->UpdateProperties(doc->id, Json{{"cmis:description", text}}, "bob");
    REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
    CHECK(Prop(GetJson(c, kReadme), "cmis:description") == text);
    CHECK(Prop(GetJson(c, kReadme), "cmis:description") == text);  // and kept again
  }
  auto renamed = (*repo)->UpdateProperties(doc->id, Json{{"cmis:name", "renamed.txt"}}, "bob");
  REQUIRE_MESSAGE(renamed.ok(), renamed.status().ToString());
  CHECK(c.Get(kReadme)->status == 404);
  CHECK(Prop(GetJson(c, "/demo/alpha/docs/renamed.txt?cmisselector=object"), "cmis:name") == "renamed.txt");
}

TEST_CASE("Response cache over HTTP: never stale after the visible file is edited, replaced or removed by hand") {
  ServerFixture f;
  auto c = f.Client();
  const std::string file = f.dir() + "/demo/alpha/docs/readme.txt";
  REQUIRE(std::filesystem::is_regular_file(file));
  REQUIRE(Prop(GetJson(c, kReadme), "cmis:contentStreamLength") == "5");
  GetJson(c, kReadme);  // kept
  WriteFile(file, "hello, edited by hand");  // in place, as an editor without a temp file does
  CHECK(Prop(GetJson(c, kReadme), "cmis:contentStreamLength") == "21");
  GetJson(c, kReadme);
  // Same size, other bytes, written in place: the modification time tells (set a second
  // on, as a later edit would have it; the test does not wait for the clock).
  const auto edited_at = std::filesystem::last_write_time(file);
  WriteFile(file, "HELLO, EDITED BY HAND");
  std::filesystem::last_write_time(file, edited_at + std::chrono::seconds(1));
  const Json same_size = GetJson(c, kReadme);
  CHECK(Prop(same_size, "cmis:contentStreamLength") == "21");
  auto content = c.Get("/demo/alpha/docs/readme.txt?cmisselector=content");
  REQUIRE(content);
  CHECK(content->body == "HELLO, EDITED BY HAND");
  // Replaced by rename, as most editors save.
  WriteFile(file + ".tmp", "xyz");
  std::filesystem::rename(file + ".tmp", file);
  CHECK(Prop(GetJson(c, kReadme), "cmis:contentStreamLength") == "3");
  GetJson(c, kReadme);
  std::filesystem::remove(file);
  auto gone = c.Get(kReadme);
  REQUIRE(gone);
  CHECK(gone->status == 404);
}

}  // namespace
}  // namespace folio::testing
