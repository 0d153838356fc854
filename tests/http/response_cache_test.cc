// The response cache (src/api/response_cache.h): the hot read path answers a repeated
// getObject from kept bytes, and never with stale ones, whoever changed the object: this
// server, another process on the same data directory, or a person editing files by hand.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "http/server_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

// A property's value as text (strings without quotes).
std::string PropText(const Json& object, const std::string& id) {
  const Json v = Prop(object, id);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// GETs `target` until the server answers it from the response cache (the repository
// shares a built document only once its latest change is checkpointed, about a second
// after the last write: there is no signal to wait for); returns the body.
std::string GetUntilKept(ServerFixture& f, httplib::Client& c, const std::string& target) {
  for (int i = 0; i < 400; ++i) {
    const uint64_t hits = f.server().response_cache().hits();
    auto r = c.Get(target.c_str());
    REQUIRE(r);
    REQUIRE(r->status == 200);
    if (f.server().response_cache().hits() > hits) return r->body;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the answer to " << target << " was never reused");
  return "";
}

// Creates the document `name` = "hello" at the root of demo/beta through the server and
// GETs it until its answer is kept; returns its getObject URL.
std::string MakeKeptDocument(ServerFixture& f, httplib::Client& c, const std::string& name) {
  auto made = c.Post("/demo/beta", "cmisaction=createDocument&propertyId[0]=cmis:name&propertyValue[0]=" + name +
                                       "&propertyId[1]=cmis:objectTypeId&propertyValue[1]=cmis:document&content=hello",
                     "application/x-www-form-urlencoded");
  REQUIRE(made);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  const std::string target = "/demo/beta/" + name + "?cmisselector=object";
  GetUntilKept(f, c, target);
  return target;
}

TEST_CASE("Response cache over HTTP: a repeated getObject is answered from it, byte for byte") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "kept.txt");
  const std::string kept = c.Get(target.c_str())->body;
  const uint64_t hits_before = f.server().response_cache().hits();
  auto second = c.Get(target.c_str());
  REQUIRE(second);
  CHECK(second->status == 200);
  CHECK(second->body == kept);
  CHECK(second->get_header_value("Content-Type") == "application/json; charset=UTF-8");
  CHECK(!second->has_header("Access-Control-Allow-Origin"));  // no Origin, no CORS headers
  CHECK(f.server().response_cache().hits() == hits_before + 1);
  CHECK(PropText(Json::parse(second->body), "cmis:name") == "kept.txt");
  // HEAD from the cache: the head only.
  auto head = c.Head(target.c_str());
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // Another URL (other parameters) is another answer.
  auto succinct = c.Get((target + "&succinct=true").c_str());
  REQUIRE(succinct);
  CHECK(succinct->body != kept);
  CHECK(PropText(Json::parse(succinct->body), "cmis:name") == "kept.txt");
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // Folders are not kept (the repository builds them anew each time).
  for (int i = 0; i < 2; ++i) REQUIRE(c.Get("/demo/beta/docs?cmisselector=object")->status == 200);
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // Credentials bypass it.
  httplib::Headers auth = {{"Authorization", "Basic YTpi"}};
  REQUIRE(c.Get(target.c_str(), auth)->status == 200);
  CHECK(f.server().response_cache().hits() == hits_before + 2);
  // A write: the next answer is the new one.
  auto update = c.Post("/demo/beta/kept.txt", "cmisaction=update&propertyId[0]=cmis:description&propertyValue[0]=now",
                       "application/x-www-form-urlencoded");
  REQUIRE(update);
  REQUIRE_MESSAGE(update->status == 200, update->body);
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:description") == "now");
  CHECK(PropText(Json::parse(GetUntilKept(f, c, target)), "cmis:description") == "now");
}

TEST_CASE("Response cache over HTTP: a kept answer gets the CORS headers of each request that reuses it") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "kept.txt");
  const std::string kept = c.Get(target.c_str())->body;
  const uint64_t hits_before = f.server().response_cache().hits();
  auto from_page = c.Get(target.c_str(), {{"Origin", "http://localhost:3000"}});
  CHECK(from_page->body == kept);
  CHECK(from_page->get_header_value("Access-Control-Allow-Origin") == "http://localhost:3000");
  auto foreign = c.Get(target.c_str(), {{"Origin", "http://evil.example"}});
  CHECK(foreign->body == kept);
  CHECK(!foreign->has_header("Access-Control-Allow-Origin"));
  CHECK(!c.Get(target.c_str())->has_header("Access-Control-Allow-Origin"));
  CHECK(f.server().response_cache().hits() == hits_before + 3);
}

TEST_CASE("Response cache over HTTP: a kept answer is never given after a write through this server") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "w.txt");
  const std::string url = "/demo/beta/w.txt";
  const Json before = Json::parse(c.Get(target.c_str())->body);
  auto post = [&](const std::string& form, int status) {
    auto r = c.Post(url.c_str(), form, "application/x-www-form-urlencoded");
    REQUIRE(r);
    REQUIRE_MESSAGE(r->status == status, r->body);
  };
  post("cmisaction=update&propertyId[0]=cmis:description&propertyValue[0]=changed", 200);
  const Json after = Json::parse(c.Get(target.c_str())->body);
  CHECK(PropText(after, "cmis:description") == "changed");
  CHECK(PropText(after, "cmis:changeToken") != PropText(before, "cmis:changeToken"));
  GetUntilKept(f, c, target);
  post("cmisaction=setContent&content=hello%20world", 201);
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "11");
  GetUntilKept(f, c, target);
  post("cmisaction=checkOut", 201);  // the working copy is created
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:isVersionSeriesCheckedOut") == "true");
  GetUntilKept(f, c, target);
  post("cmisaction=delete&allVersions=true", 200);
  auto gone = c.Get(target.c_str());
  REQUIRE(gone);
  CHECK(gone->status == 404);
}

// Another process on the server's data directory: its own Store, engine, caches and
// commit path, holding demo/beta.
struct OtherProcess {
  std::unique_ptr<Store> store;
  std::shared_ptr<Repository> repo;
};
OtherProcess OpenOtherProcess(ServerFixture& f) {
  auto store = Store::Open(f.dir(), {.durable = false});
  REQUIRE_MESSAGE(store.ok(), store.status().ToString());
  auto repo = (*store)->GetRepository("demo", "beta");
  REQUIRE_MESSAGE(repo.ok(), repo.status().ToString());
  return OtherProcess{std::move(*store), std::move(*repo)};
}

TEST_CASE("Response cache over HTTP: a kept answer is never given after a write by another process") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "p.txt");
  OtherProcess other = OpenOtherProcess(f);
  const std::shared_ptr<Repository>& repo = other.repo;
  auto doc = repo->GetObjectByPath("/p.txt");
  REQUIRE(doc.ok());
  for (int round = 0; round < 3; ++round) {
    const std::string text = "from the other process " + std::to_string(round);
    auto updated = repo->UpdateProperties(doc->id, Json{{"cmis:description", text}}, "bob", WriteCheck::Trusted());
    REQUIRE_MESSAGE(updated.ok(), updated.status().ToString());
    CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:description") == text);
    CHECK(PropText(Json::parse(GetUntilKept(f, c, target)), "cmis:description") == text);
  }
  auto renamed = repo->UpdateProperties(doc->id, Json{{"cmis:name", "renamed.txt"}}, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(renamed.ok(), renamed.status().ToString());
  CHECK(c.Get(target.c_str())->status == 404);
  CHECK(PropText(Json::parse(c.Get("/demo/beta/renamed.txt?cmisselector=object")->body), "cmis:name") ==
        "renamed.txt");
}

TEST_CASE("Response cache over HTTP: a kept answer is never given after a hand edit of the file") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "h.txt");
  const std::string file = f.dir() + "/demo/beta/h.txt";
  REQUIRE(std::filesystem::is_regular_file(file));
  REQUIRE(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "5");
  WriteFile(file, "hello, edited by hand");  // in place, as an editor without a temp file does
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "21");
  GetUntilKept(f, c, target);
  // Same size, other bytes, written in place: the modification time tells (set a second
  // on, as a later edit would have it; the test does not wait for the clock).
  const auto edited_at = std::filesystem::last_write_time(file);
  WriteFile(file, "HELLO, EDITED BY HAND");
  std::filesystem::last_write_time(file, edited_at + std::chrono::seconds(1));
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "21");
  auto content = c.Get("/demo/beta/h.txt?cmisselector=content");
  REQUIRE(content);
  CHECK(content->body == "HELLO, EDITED BY HAND");
  GetUntilKept(f, c, target);
  // Replaced by rename, as most editors save.
  WriteFile(file + ".tmp", "xyz");
  std::filesystem::rename(file + ".tmp", file);
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "3");
  GetUntilKept(f, c, target);
  std::filesystem::remove(file);
  auto gone = c.Get(target.c_str());
  REQUIRE(gone);
  CHECK(gone->status == 404);
}

// GETs `target` twice from the cache once the commit log has been still for longer than
// the 100 ms a cheap check needs: the first reuse checks fully and takes a stamp, the
// second is answered on it (Repository::Unchanged).
void KeepWithStamp(ServerFixture& f, httplib::Client& c, const std::string& target) {
  GetUntilKept(f, c, target);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const uint64_t hits = f.server().response_cache().hits();
  for (int i = 0; i < 2; ++i) REQUIRE(c.Get(target.c_str())->status == 200);
  REQUIRE(f.server().response_cache().hits() == hits + 2);
}

TEST_CASE("Response cache over HTTP: reused on a stamp while nothing changed, and still never stale") {
  ServerFixture f;
  auto c = f.Client();
  const std::string target = MakeKeptDocument(f, c, "q.txt");
  const std::string file = f.dir() + "/demo/beta/q.txt";
  KeepWithStamp(f, c, target);
  // A write by another process: seen at once.
  OtherProcess other = OpenOtherProcess(f);
  const std::shared_ptr<Repository>& repo = other.repo;
  auto doc = repo->GetObjectByPath("/q.txt");
  REQUIRE(doc.ok());
  REQUIRE(repo->UpdateProperties(doc->id, Json{{"cmis:description", "other process"}}, "bob",
                                 WriteCheck::Trusted()).ok());
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:description") == "other process");
  REQUIRE(repo->Checkpoint().ok());  // as its idle checkpoint would, before the next stamp

  // An edit by hand of the document's file: seen at once.
  KeepWithStamp(f, c, target);
  WriteFile(file, "edited!");
  CHECK(PropText(Json::parse(c.Get(target.c_str())->body), "cmis:contentStreamLength") == "7");

  // An edit by hand of a record, which nothing watches: seen within about a second.
  KeepWithStamp(f, c, target);
  const std::string record = f.dir() + "/demo/beta/.folio/docs/q.txt/1.0.json";
  Json rec = Json::parse(ReadFile(record));
  rec["properties"]["cmis:description"] = "by hand";
  WriteFile(record + ".tmp", rec.dump(2));
  std::filesystem::rename(record + ".tmp", record);
  const auto edited = std::chrono::steady_clock::now();
  std::string seen;
  while (std::chrono::steady_clock::now() - edited < std::chrono::seconds(3)) {
    seen = PropText(Json::parse(c.Get(target.c_str())->body), "cmis:description");
    if (seen == "by hand") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(seen == "by hand");
  CHECK(std::chrono::steady_clock::now() - edited < std::chrono::milliseconds(1500));
}

}  // namespace
}  // namespace folio::testing
