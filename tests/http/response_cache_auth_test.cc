// The response cache for authenticated callers (api/response_cache.h, docs/API.md
// §11.2): a repeated getObject by a signed-in user is answered from it, and never once
// the answer would be another: after the object's ACL changes, after the caller's groups
// or password change, nor to another user or other credentials.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "api/response_cache.h"
#include "http/auth_fixture.h"

namespace folio::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// GETs `target` as `user` until the answer comes from the response cache (a document is
// shared, and so kept, about a second after its last write); returns the body.
std::string GetUntilKept(AuthFixture& f, const std::string& target, const std::string& user) {
  for (int i = 0; i < 400; ++i) {
    const uint64_t hits = f.server().server().response_cache().hits();
    auto r = f.Get(target, user);
    REQUIRE(r);
    REQUIRE_MESSAGE(r->status == 200, r->body);
    if (f.server().server().response_cache().hits() > hits) return r->body;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("the answer to " << target << " was never reused");
  return "";
}

std::string Exception(const httplib::Result& r) { return BodyJson(r).value("exception", ""); }

struct Fixture {
  AuthFixture f;
  std::string doc;
  const std::string target = "/acme/main/d.txt?cmisselector=object&succinct=true";

  Fixture() {
    REQUIRE(f.Post("/acme", "alice", "", {{"operation", "createGroup"}, {"groupId", "readers"}, {"members", "bob"}})
                ->status == 201);
    REQUIRE(f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "repository_main"},
                                          {"members", "alice,bob,carol"}})
                ->status == 200);
    // d.txt: only alice and the group readers (bob) may read it.
    auto d = f.Post("/acme/main", "alice", "",
                    {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                     {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"},
                     {"propertyValue[1]", "d.txt"}, {"content", "text"}, {"succinct", "true"},
                     {"removeACEPrincipal[0]", "repository_main"}, {"removeACEPermission[0][0]", "cmis:all"},
                     {"addACEPrincipal[0]", "readers"}, {"addACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(d->status == 201, d->body);
    doc = BodyJson(d)["succinctProperties"].value("cmis:objectId", "");
  }
};

}  // namespace

TEST_CASE("Response cache with credentials: a signed-in user's repeated getObject is kept, and only for that user") {
  Fixture x;
  const std::string body = GetUntilKept(x.f, x.target, "bob");
  CHECK(body.find("d.txt") != std::string::npos);
  // carol asks the same URL: her own answer, a denial.
  auto carol = x.f.Get(x.target, "carol");
  CHECK(carol->status == 403);
  CHECK(Exception(carol) == "permissionDenied");
  // Wrong credentials for bob are never answered from what bob was given, nor is a
  // request without credentials.
  auto c = x.f.server().Client();
  auto wrong = c.Get(x.target.c_str(), BasicAuth("bob", "not-his-password"));
  CHECK(wrong->status == 401);
  CHECK(x.f.Get(x.target)->status == 401);
  // bob's API key is other credentials: answered on its own, then kept on its own.
  auto by_key = x.f.GetWithKey(x.target, x.f.key("bob"));
  CHECK(by_key->status == 200);
}

TEST_CASE("Response cache with credentials: a kept answer is never given once the ACL no longer lets the caller read") {
  Fixture x;
  GetUntilKept(x.f, x.target, "bob");
  auto revoked = x.f.Post("/acme/main", "alice", "",
                          {{"cmisaction", "applyACL"}, {"objectId", x.doc}, {"removeACEPrincipal[0]", "readers"},
                           {"removeACEPermission[0][0]", "cmis:read"}});
  REQUIRE_MESSAGE(revoked->status == 201, revoked->body);
  auto r = x.f.Get(x.target, "bob");
  CHECK(r->status == 403);
  CHECK(Exception(r) == "permissionDenied");
}

TEST_CASE("Response cache with credentials: a kept answer is never given once the caller leaves the group that reads") {
  Fixture x;
  GetUntilKept(x.f, x.target, "bob");
  REQUIRE(x.f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "readers"}, {"members", "carol"}})
              ->status == 200);
  auto bob = x.f.Get(x.target, "bob");
  CHECK(bob->status == 403);
  CHECK(Exception(bob) == "permissionDenied");
  CHECK(x.f.Get(x.target, "carol")->status == 200);
}

TEST_CASE("Response cache with credentials: a kept answer is never given to the old password once it changed") {
  Fixture x;
  GetUntilKept(x.f, x.target, "bob");
  REQUIRE(x.f.Post("/acme", "alice", "", {{"operation", "updateUser"}, {"userId", "bob"}, {"password", "n3w-Pa55word!"}})
              ->status == 200);
  auto old = x.f.Get(x.target, "bob");  // the fixture still sends the old password
  CHECK(old->status == 401);
  CHECK(Exception(old) == "unauthorized");
}

}  // namespace folio::testing
