// Access control on every operation over HTTP (docs/API.md §11.3, §11.4): each
// permission boundary as a pair (the allowed user succeeds; the other gets 403
// permissionDenied naming what it lacks, and nothing changed), listings that leave out
// what the caller may not read, inheritance at creation, nested groups, version series
// sharing one ACL, allowable actions for the caller, applyACL and a check-in's entries
// recorded as "security" events, and writes racing a revoke (none succeeds after it).
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <thread>

#include "folio/repository.h"
#include "http/auth_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

std::string Exception(const httplib::Result& r) { return BodyJson(r).value("exception", ""); }
std::string Message(const httplib::Result& r) { return BodyJson(r).value("message", ""); }

// alice (administrator), bob and carol, all three in repository_main (past the gate);
// a folder /priv that only alice may change and bob may read (repository_main's entry
// removed at creation), holding d.txt; a folder /pub everyone in the repository may
// change.
struct AclFixture {
  AuthFixture f;
  std::string priv, doc, pub;

  AclFixture() {
    REQUIRE(f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "repository_main"},
                                          {"members", "alice,bob,carol"}})
                ->status == 200);
    auto p = Post("alice", "/acme/main",
                  {{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:objectTypeId"},
                   {"propertyValue[0]", "cmis:folder"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", "priv"},
                   {"removeACEPrincipal[0]", "repository_main"}, {"removeACEPermission[0][0]", "cmis:all"},
                   {"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(p->status == 201, p->body);
    priv = Id(p);
    auto d = Post("alice", "/acme/main/priv",
                  {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                   {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", "d.txt"},
                   {"content", "secret text"}});
    REQUIRE_MESSAGE(d->status == 201, d->body);
    doc = Id(d);
    auto u = Post("alice", "/acme/main",
                  {{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:objectTypeId"},
                   {"propertyValue[0]", "cmis:folder"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", "pub"}});
    REQUIRE(u->status == 201);
    pub = Id(u);
  }

  static std::string Id(const httplib::Result& r) {
    const Json j = BodyJson(r);
    return j["succinctProperties"].value("cmis:objectId", "");
  }
  httplib::Result Post(const std::string& user, const std::string& path, Fields fields) {
    fields.emplace_back("succinct", "true");
    return f.Post(path, user, "", fields);
  }
  httplib::Result Get(const std::string& user, const std::string& path) { return f.Get(path, user); }
  // Grants `user` `permission` on `id` alone (as alice, who holds cmis:all everywhere;
  // objectonly: a folder's objects keep their entries).
  void Grant(const std::string& id, const std::string& user, const std::string& permission) {
    auto r = Post("alice", "/acme/main", {{"cmisaction", "applyACL"}, {"objectId", id}, {"ACLPropagation", "objectonly"},
                                          {"addACEPrincipal[0]", user}, {"addACEPermission[0][0]", permission}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
  }
  std::string Name(const std::string& user, const std::string& id) {
    auto r = Get(user, "/acme/main?cmisselector=object&succinct=true&objectId=" + id);
    REQUIRE(r->status == 200);
    return BodyJson(r)["succinctProperties"].value("cmis:name", "");
  }
};

void ExpectDenied(const httplib::Result& r, const std::string& culprit) {
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(Exception(r) == "permissionDenied");
  CHECK_MESSAGE(Contains(Message(r), culprit), Message(r));
}

}  // namespace

TEST_CASE("ACL: read: bob (cmis:read) reads /priv and its document; carol gets 403 for object, content and ranges") {
  AclFixture a;
  CHECK(a.Get("bob", "/acme/main/priv?cmisselector=object")->status == 200);
  CHECK(a.Get("bob", "/acme/main/priv/d.txt")->body == "secret text");
  ExpectDenied(a.Get("carol", "/acme/main/priv?cmisselector=object"), "carol");
  ExpectDenied(a.Get("carol", "/acme/main/priv/d.txt"), "carol");
  auto c = a.f.server().Client();
  httplib::Headers h = BasicAuth("carol", a.f.password("carol"));
  h.emplace("Range", "bytes=0-3");
  auto range = c.Get("/acme/main/priv/d.txt", h);
  ExpectDenied(range, "carol");
  for (const std::string sel : {"properties", "allowableActions", "acl", "versions", "children", "parents"}) {
    CAPTURE(sel);
    const std::string target = sel == "children" ? "/acme/main/priv" : "/acme/main/priv/d.txt";
    CHECK(a.Get("bob", target + "?cmisselector=" + sel)->status == 200);
    ExpectDenied(a.Get("carol", target + "?cmisselector=" + sel), "carol");
  }
}

TEST_CASE("ACL: getAllVersions kept for readers is never given to a caller who may not read the series") {
  AclFixture a;
  auto pwc = a.Post("alice", "/acme/main/priv/d.txt", {{"cmisaction", "checkOut"}});
  REQUIRE_MESSAGE(pwc->status == 201, pwc->body);
  auto in = a.Post("alice", "/acme/main", {{"cmisaction", "checkIn"}, {"objectId", AclFixture::Id(pwc)}});
  REQUIRE_MESSAGE(in->status == 201, in->body);
  const std::string series = BodyJson(in)["succinctProperties"].value("cmis:versionSeriesId", "");
  const std::string by_path = "/acme/main/priv/d.txt?cmisselector=versions&succinct=true";
  const std::string by_series = "/acme/main?cmisselector=versions&succinct=true&versionSeriesId=" + series;
  // Twice each: the second answers are made of what the first kept.
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    auto alice = a.Get("alice", by_path);
    REQUIRE(alice->status == 200);
    CHECK(BodyJson(alice).size() == 2);
    CHECK(a.Get("bob", by_path)->body == alice->body);
    CHECK(a.Get("bob", by_series)->body == alice->body);
    ExpectDenied(a.Get("carol", by_path), "carol");
    ExpectDenied(a.Get("carol", by_series), "carol");
  }
  // Granted to carol: her next request is answered, with the same versions.
  a.Grant(a.doc, "carol", "cmis:read");
  CHECK(a.Get("carol", by_path)->body == a.Get("alice", by_path)->body);
}

TEST_CASE("ACL: children leave out what the caller may not read, and never count it") {
  AclFixture a;
  auto names = [&](const std::string& user) {
    auto r = a.Get(user, "/acme/main?cmisselector=children&succinct=true");
    REQUIRE(r->status == 200);
    const Json j = BodyJson(r);
    std::vector<std::string> out;
    for (const Json& o : j["objects"]) out.push_back(o["object"]["succinctProperties"]["cmis:name"]);
    CHECK(j["numItems"] == out.size());
    return out;
  };
  CHECK(names("alice") == std::vector<std::string>{"priv", "pub"});
  CHECK(names("bob") == std::vector<std::string>{"priv", "pub"});
  CHECK(names("carol") == std::vector<std::string>{"pub"});
  // Paging counts only what is shown.
  auto page = a.Get("carol", "/acme/main?cmisselector=children&maxItems=1&skipCount=0");
  CHECK(BodyJson(page)["hasMoreItems"] == false);
}

TEST_CASE("ACL: update: bob with cmis:read gets 403 and nothing changes; with cmis:write it works") {
  AclFixture a;
  const Fields rename{{"cmisaction", "update"}, {"propertyId[0]", "cmis:name"}, {"propertyValue[0]", "e.txt"}};
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", rename), "cmis:write");
  CHECK(a.Name("alice", a.doc) == "d.txt");
  a.Grant(a.doc, "bob", "cmis:write");
  CHECK(a.Post("bob", "/acme/main/priv/d.txt", rename)->status == 200);
  CHECK(a.Name("alice", a.doc) == "e.txt");
}

TEST_CASE("ACL: content changes and deletion need cmis:write on the document") {
  AclFixture a;
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "setContent"}, {"content", "x"}}), "bob");
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "appendContent"}, {"content", "x"}}), "bob");
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "deleteContent"}}), "bob");
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "delete"}}), "bob");
  CHECK(a.Get("alice", "/acme/main/priv/d.txt")->body == "secret text");
  a.Grant(a.doc, "bob", "cmis:write");
  CHECK(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "appendContent"}, {"content", "!"}})->status == 201);
  CHECK(a.Get("alice", "/acme/main/priv/d.txt")->body == "secret text!");
  CHECK(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "delete"}})->status == 200);
  CHECK(a.Get("alice", "/acme/main/priv/d.txt")->status == 404);
}

TEST_CASE("ACL: creating in a folder needs cmis:write on it; the new object copies its entries and its creator gets cmis:all") {
  AclFixture a;
  const Fields create{{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:objectTypeId"},
                      {"propertyValue[0]", "cmis:folder"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", "sub"}};
  ExpectDenied(a.Post("bob", "/acme/main/priv", create), "cmis:write");
  CHECK(a.Get("alice", "/acme/main/priv/sub?cmisselector=object")->status == 404);
  a.Grant(a.priv, "bob", "cmis:write");
  auto made = a.Post("bob", "/acme/main/priv", create);
  REQUIRE(made->status == 201);
  auto acl = BodyJson(a.Get("bob", "/acme/main/priv/sub?cmisselector=acl"));
  std::map<std::string, Json> by;
  for (const Json& ace : acl["aces"]) by[ace["principal"]["principalId"]] = ace["permissions"];
  CHECK(by["alice"] == Json::array({"cmis:all"}));             // copied from /priv
  CHECK(by["bob"] == Json::array({"cmis:read", "cmis:write", "cmis:all"}));  // merged: the creator's
  CHECK(by.count("repository_main") == 0);                     // /priv had none
  CHECK(acl["isExact"] == true);
  CHECK(acl["aces"][0]["isDirect"] == true);
}

TEST_CASE("ACL: move needs cmis:write on the object, its folder and the target folder") {
  AclFixture a;
  a.Grant(a.doc, "bob", "cmis:write");  // the object, not its folder
  const Fields move{{"cmisaction", "move"}, {"targetFolderId", a.pub}, {"sourceFolderId", a.priv}};
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", move), "'/priv'");
  CHECK(a.Get("alice", "/acme/main/priv/d.txt")->status == 200);
  a.Grant(a.priv, "bob", "cmis:write");
  CHECK(a.Post("bob", "/acme/main/priv/d.txt", move)->status == 201);
  CHECK(a.Get("alice", "/acme/main/pub/d.txt")->status == 200);
}

TEST_CASE("ACL: deleteTree is all or nothing: one object bob may not delete keeps the whole tree") {
  AclFixture a;
  a.Grant(a.priv, "bob", "cmis:write");  // the folder, not d.txt inside it
  ExpectDenied(a.Post("bob", "/acme/main/priv", {{"cmisaction", "deleteTree"}}), "'/priv/d.txt'");
  CHECK(a.Get("alice", "/acme/main/priv/d.txt")->status == 200);
  a.Grant(a.doc, "bob", "cmis:write");
  CHECK(a.Post("bob", "/acme/main/priv", {{"cmisaction", "deleteTree"}})->status == 200);
  CHECK(a.Get("alice", "/acme/main/priv?cmisselector=object")->status == 404);
}

TEST_CASE("ACL: applyACL needs cmis:all; objectonly changes only the object named, and is a 'security' change event") {
  AclFixture a;
  const Fields give{{"cmisaction", "applyACL"}, {"addACEPrincipal[0]", "carol"}, {"addACEPermission[0][0]", "cmis:read"},
                    {"ACLPropagation", "objectonly"}};
  ExpectDenied(a.Post("bob", "/acme/main/priv", give), "cmis:all");
  ExpectDenied(a.Get("carol", "/acme/main/priv?cmisselector=object"), "carol");
  auto before = a.f.server().store().GetRepository("acme", "main");
  REQUIRE(before.ok());
  const uint64_t token = (*before)->LatestChangeToken().value();
  auto r = a.Post("alice", "/acme/main/priv", give);
  REQUIRE(r->status == 201);
  bool carol = false;
  const Json answer = BodyJson(r);
  for (const Json& ace : answer["aces"]) carol |= ace["principal"]["principalId"] == "carol";
  CHECK_MESSAGE(carol, r->body);
  CHECK(a.Get("carol", "/acme/main/priv?cmisselector=object")->status == 200);
  ExpectDenied(a.Get("carol", "/acme/main/priv/d.txt"), "carol");  // objectonly: d.txt keeps its ACL
  auto changes = (*before)->ReadChanges(token + 1, 10);
  REQUIRE(changes.ok());
  REQUIRE(changes->events.size() == 1);
  CHECK(changes->events[0].type == "security");
  CHECK(changes->events[0].object_id == a.priv);
  // Errors name the culprit.
  auto bad = a.Post("alice", "/acme/main/priv", {{"cmisaction", "applyACL"}, {"addACEPrincipal[0]", "nobody"},
                                                 {"addACEPermission[0][0]", "cmis:read"}});
  CHECK(bad->status == 400);
  CHECK(Contains(Message(bad), "nobody"));
  auto perm = a.Post("alice", "/acme/main/priv", {{"cmisaction", "applyACL"}, {"addACEPrincipal[0]", "bob"},
                                                  {"addACEPermission[0][0]", "cmis:delete"}});
  CHECK(perm->status == 409);
  CHECK(Exception(perm) == "constraint");
}

// A type decides what every object of the repository may be: managing types needs
// cmis:all on the root folder, whichever URL the request names.
TEST_CASE("ACL: type management needs cmis:all on the root folder, at any URL; nothing changes when refused") {
  AclFixture a;
  auto root = a.Get("alice", "/acme/main?cmisselector=object&succinct=true");
  REQUIRE(root->status == 200);
  const std::string root_id = BodyJson(root)["succinctProperties"].value("cmis:objectId", "");
  // Every member held cmis:all on the root (repository_main's entry): now only bob does,
  // carol may write there.
  auto changed = a.Post("alice", "/acme/main",
                        {{"cmisaction", "applyACL"}, {"objectId", root_id}, {"ACLPropagation", "objectonly"},
                         {"removeACEPrincipal[0]", "repository_main"}, {"removeACEPermission[0][0]", "cmis:all"},
                         {"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:all"},
                         {"addACEPrincipal[1]", "carol"}, {"addACEPermission[1][0]", "cmis:write"}});
  REQUIRE_MESSAGE(changed->status == 201, changed->body);
  const Json type{{"id", "acme:memo"}, {"parentId", "cmis:document"}, {"displayName", "Memo"}};
  const Fields create{{"cmisaction", "createType"}, {"type", type.dump()}};
  ExpectDenied(a.Post("carol", "/acme/main", create), "cmis:all");
  // /pub kept repository_main's cmis:all (objectonly): the root decides, not the URL.
  ExpectDenied(a.Post("carol", "/acme/main/pub", create), "cmis:all");
  CHECK(a.Get("alice", "/acme/main?cmisselector=typeDefinition&typeId=acme:memo")->status == 404);
  auto made = a.Post("bob", "/acme/main", create);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  const Json renamed{{"id", "acme:memo"}, {"displayName", "Note"}};
  ExpectDenied(a.Post("carol", "/acme/main", {{"cmisaction", "updateType"}, {"type", renamed.dump()}}), "cmis:all");
  ExpectDenied(a.Post("carol", "/acme/main", {{"cmisaction", "deleteType"}, {"typeId", "acme:memo"}}), "cmis:all");
  auto kept = a.Get("carol", "/acme/main?cmisselector=typeDefinition&typeId=acme:memo");
  REQUIRE(kept->status == 200);  // reading types needs only the repository
  CHECK(BodyJson(kept)["displayName"] == "Memo");
  CHECK(a.Post("bob", "/acme/main", {{"cmisaction", "updateType"}, {"type", renamed.dump()}})->status == 200);
  CHECK(a.Post("alice", "/acme/main", {{"cmisaction", "deleteType"}, {"typeId", "acme:memo"}})->status == 200);
}

TEST_CASE("ACL: principals: nested groups, cmis:anyone") {
  AclFixture a;
  REQUIRE(a.f.Post("/acme", "alice", "", {{"operation", "createGroup"}, {"groupId", "team"}, {"members", "carol"}})
              ->status == 201);
  REQUIRE(a.f.Post("/acme", "alice", "", {{"operation", "createGroup"}, {"groupId", "eng"}, {"members", "team"}})
              ->status == 201);
  ExpectDenied(a.Get("carol", "/acme/main/priv?cmisselector=object"), "carol");
  a.Grant(a.priv, "eng", "cmis:read");
  CHECK(a.Get("carol", "/acme/main/priv?cmisselector=object")->status == 200);
  ExpectDenied(a.Get("carol", "/acme/main/priv/d.txt"), "carol");
  a.Grant(a.doc, "cmis:anyone", "cmis:read");
  CHECK(a.Get("carol", "/acme/main/priv/d.txt")->status == 200);
}

TEST_CASE("ACL: allowable actions are the caller's") {
  AclFixture a;
  auto actions = [&](const std::string& user) {
    auto r = a.Get(user, "/acme/main/priv/d.txt?cmisselector=allowableActions");
    REQUIRE(r->status == 200);
    return BodyJson(r);
  };
  Json bob = actions("bob");
  CHECK(bob["canGetProperties"] == true);
  CHECK(bob["canGetContentStream"] == true);
  CHECK(bob["canGetACL"] == true);
  CHECK(bob["canUpdateProperties"] == false);
  CHECK(bob["canCheckOut"] == false);
  CHECK(bob["canDeleteObject"] == false);
  CHECK(bob["canApplyACL"] == false);
  Json alice = actions("alice");
  CHECK(alice["canUpdateProperties"] == true);
  CHECK(alice["canCheckOut"] == true);
  CHECK(alice["canApplyACL"] == true);
  a.Grant(a.doc, "bob", "cmis:write");
  bob = actions("bob");
  CHECK(bob["canUpdateProperties"] == true);
  CHECK(bob["canCheckOut"] == true);
  CHECK(bob["canApplyACL"] == false);
  // includeAllowableActions on a listing, too.
  auto list = a.Get("bob", "/acme/main/priv?cmisselector=children&includeAllowableActions=true");
  CHECK(BodyJson(list)["objects"][0]["object"]["allowableActions"]["canApplyACL"] == false);
}

TEST_CASE("ACL: versioning: check-out/in need cmis:write; a version series shares its ACL") {
  AclFixture a;
  ExpectDenied(a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "checkOut"}}), "cmis:write");
  a.Grant(a.doc, "bob", "cmis:write");
  auto pwc = a.Post("bob", "/acme/main/priv/d.txt", {{"cmisaction", "checkOut"}});
  REQUIRE(pwc->status == 201);
  // The checked-out list leaves out what carol may not read.
  auto list = BodyJson(a.Get("carol", "/acme/main?cmisselector=checkedout"));
  CHECK(list["numItems"] == 0);
  CHECK(BodyJson(a.Get("bob", "/acme/main?cmisselector=checkedout"))["numItems"] == 1);
  // A check-in that changes entries needs cmis:all.
  const std::string pwc_id = AclFixture::Id(pwc);
  ExpectDenied(a.Post("bob", "/acme/main", {{"cmisaction", "checkIn"}, {"objectId", pwc_id},
                                            {"addACEPrincipal[0]", "carol"}, {"addACEPermission[0][0]", "cmis:read"}}),
               "cmis:all");
  auto in = a.Post("alice", "/acme/main", {{"cmisaction", "checkIn"}, {"objectId", pwc_id},
                                           {"addACEPrincipal[0]", "carol"}, {"addACEPermission[0][0]", "cmis:read"}});
  REQUIRE_MESSAGE(in->status == 201, in->body);
  // Version 1.0 has carol's entry as well as 2.0.
  CHECK(a.Get("carol", "/acme/main/priv/d.txt?versionLabel=1.0")->body == "secret text");
  CHECK(a.Get("carol", "/acme/main/priv/d.txt?cmisselector=versions")->status == 200);
  // The change log: the working copy goes, the version comes, and the ACL change is a
  // "security" event of its own, as applyACL's is.
  const std::string v2 = AclFixture::Id(in);
  auto repo = a.f.server().store().GetRepository("acme", "main");
  REQUIRE(repo.ok());
  const uint64_t last = (*repo)->LatestChangeToken().value();
  auto changes = (*repo)->ReadChanges(last - 2, 10);
  REQUIRE(changes.ok());
  std::vector<std::string> got;
  for (const ChangeEventInfo& e : changes->events) got.push_back(e.type + " " + e.object_id);
  CHECK(got == std::vector<std::string>{"deleted " + pwc_id, "created " + v2, "security " + v2});
  const Json seen = BodyJson(a.Get("alice", "/acme/main?cmisselector=contentChanges&succinct=true&changeLogToken=" +
                                               std::to_string(last)));
  REQUIRE(seen["objects"].size() == 1);
  CHECK(seen["objects"][0]["changeEventInfo"]["changeType"] == "security");
  CHECK(seen["objects"][0]["succinctProperties"]["cmis:objectId"] == v2);
}

TEST_CASE("ACL: once a revoke of cmis:write is acknowledged, no write of the revoked user succeeds") {
  AclFixture a;
  a.Grant(a.doc, "bob", "cmis:write");
  auto repo = a.f.server().store().GetRepository("acme", "main");
  REQUIRE(repo.ok());
  const uint64_t start = (*repo)->LatestChangeToken().value();
  std::atomic<bool> revoked{false};   // set once alice's applyACL is answered
  std::atomic<int> written{0}, late{0}, refused_after{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      auto c = a.f.server().Client();  // (the fixture's helpers are for one thread)
      for (int i = 0; i < 400 && refused_after < 10; ++i) {
        const bool after = revoked.load();  // before the request is sent
        auto r = c.Post("/acme/main", BasicAuth("bob", AuthFixture::kBobPassword),
                        FormBody({{"cmisaction", "update"}, {"objectId", a.doc}, {"propertyId[0]", "cmis:description"},
                                  {"propertyValue[0]", std::to_string(w) + "-" + std::to_string(i)}}),
                        "application/x-www-form-urlencoded");
        if (!r) {
          CHECK_MESSAGE(false, "no answer");
          return;
        }
        if (r->status == 200) {
          ++written;
          if (after) ++late;  // a write sent after the revoke was acknowledged succeeded
        } else {
          CHECK(r->status == 403);
          if (after) ++refused_after;
        }
      }
    });
  }
  while (written < 6) std::this_thread::yield();
  auto r = a.Post("alice", "/acme/main", {{"cmisaction", "applyACL"}, {"objectId", a.doc},
                                          {"removeACEPrincipal[0]", "bob"}, {"removeACEPermission[0][0]", "cmis:write"}});
  REQUIRE_MESSAGE(r->status == 201, r->body);
  revoked = true;
  for (auto& t : writers) t.join();
  CHECK(late == 0);
  CHECK(refused_after >= 10);
  // In the log, every update of bob comes before the revoke's security event.
  auto changes = (*repo)->ReadChanges(start + 1, 10000);
  REQUIRE(changes.ok());
  bool security_seen = false;
  int updates = 0;
  for (const ChangeEventInfo& e : changes->events) {
    if (e.type == "security") security_seen = true;
    if (e.type == "updated") {
      ++updates;
      CHECK_MESSAGE(!security_seen, "an update logged after the revoke, token " << e.token);
    }
  }
  CHECK(security_seen);
  CHECK(updates == written);
}

// "type name" of each event `user` sees from token `from` on (maxItems=1000), with the
// answer's numItems (-1 when left out).
std::pair<std::vector<std::string>, int> SeenChanges(AclFixture& a, const std::string& user, uint64_t from,
                                                     std::map<std::string, std::string>& names) {
  auto r = a.Get(user, "/acme/main?cmisselector=contentChanges&succinct=true&maxItems=1000&changeLogToken=" +
                           std::to_string(from));
  REQUIRE(r->status == 200);
  const Json j = BodyJson(r);
  std::vector<std::string> out;
  for (const Json& o : j["objects"]) {
    const std::string id = o["succinctProperties"]["cmis:objectId"];
    out.push_back(o["changeEventInfo"]["changeType"].get<std::string>() + " " +
                  (names.count(id) ? names[id] : id));
  }
  return {out, j.contains("numItems") ? j["numItems"].get<int>() : -1};
}

TEST_CASE("ACL: the change log shows a reader every event of what it could read, deletions included") {
  AclFixture a;
  auto repo = a.f.server().store().GetRepository("acme", "main");
  REQUIRE(repo.ok());
  const uint64_t from = (*repo)->LatestChangeToken().value() + 1;
  // p.txt in /pub (everyone in the repository reads it), s.txt in /priv (bob reads it,
  // carol does not); both changed, then deleted.
  std::map<std::string, std::string> names;
  const auto make = [&](const std::string& folder, const std::string& name) {
    auto r = a.Post("alice", "/acme/main/" + folder,
                    {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                     {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"},
                     {"propertyValue[1]", name}, {"content", "x"}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    names[AclFixture::Id(r)] = name;
    return AclFixture::Id(r);
  };
  const std::string p = make("pub", "p.txt"), s = make("priv", "s.txt");
  for (const std::string& id : {p, s}) {
    REQUIRE(a.Post("alice", "/acme/main", {{"cmisaction", "update"}, {"objectId", id}, {"propertyId[0]", "cmis:description"},
                                           {"propertyValue[0]", "changed"}})
                ->status == 200);
  }
  for (const std::string& id : {p, s}) {
    REQUIRE(a.Post("alice", "/acme/main", {{"cmisaction", "delete"}, {"objectId", id}})->status == 200);
  }
  const std::vector<std::string> every = {"created p.txt", "created s.txt", "updated p.txt",
                                          "updated s.txt", "deleted p.txt", "deleted s.txt"};
  CHECK(SeenChanges(a, "alice", from, names) == std::make_pair(every, 6));
  CHECK(SeenChanges(a, "bob", from, names) == std::make_pair(every, 6));
  const std::vector<std::string> carols = {"created p.txt", "updated p.txt", "deleted p.txt"};
  CHECK(SeenChanges(a, "carol", from, names) == std::make_pair(carols, 3));

  // Followed in pages of two, carol sees each of hers once and is never stuck on what she
  // does not see; numItems is left out while more may follow.
  std::vector<std::string> followed;
  std::string token = std::to_string(from);
  for (int page = 0; page < 10; ++page) {
    auto r = a.Get("carol", "/acme/main?cmisselector=contentChanges&succinct=true&maxItems=2&changeLogToken=" + token);
    REQUIRE(r->status == 200);
    const Json j = BodyJson(r);
    for (const Json& o : j["objects"]) {
      const std::string line = o["changeEventInfo"]["changeType"].get<std::string>() + " " +
                               names[o["succinctProperties"]["cmis:objectId"].get<std::string>()];
      if (followed.empty() || line != followed.back()) followed.push_back(line);
    }
    token = j["changeLogToken"];
    if (!j["hasMoreItems"].get<bool>()) {
      CHECK(j.contains("numItems"));
      break;
    }
    CHECK_FALSE(j.contains("numItems"));
  }
  CHECK(followed == carols);
}

TEST_CASE("ACL: relationships: creating one needs both ends readable; one with an unreadable end is left out") {
  AclFixture a;
  const Fields rel{{"cmisaction", "createRelationship"},
                   {"propertyId[0]", "cmis:objectTypeId"}, {"propertyValue[0]", "cmis:relationship"},
                   {"propertyId[1]", "cmis:sourceId"},     {"propertyValue[1]", a.pub},
                   {"propertyId[2]", "cmis:targetId"},     {"propertyValue[2]", a.doc},
                   {"propertyId[3]", "cmis:name"},         {"propertyValue[3]", "r"}};
  // d.txt is not carol's to read: the denial does not name it.
  ExpectDenied(a.Post("carol", "/acme/main", rel), "carol");
  CHECK(a.Post("carol", "/acme/main", rel)->body.find("d.txt") == std::string::npos);
  auto made = a.Post("bob", "/acme/main", rel);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  a.Grant(AclFixture::Id(made), "cmis:anyone", "cmis:read");
  auto count = [&](const std::string& user) {
    auto r = a.Get(user, "/acme/main/pub?cmisselector=relationships&relationshipDirection=either");
    REQUIRE(r->status == 200);
    return BodyJson(r)["numItems"].get<int>();
  };
  CHECK(count("bob") == 1);
  CHECK(count("carol") == 0);  // d.txt, its target, is not hers to read
}

TEST_CASE("ACL: bulkUpdate leaves out the objects the caller may not change") {
  AclFixture a;
  auto made = a.Post("bob", "/acme/main/pub",
                     {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                      {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"}, {"propertyValue[1]", "b.txt"},
                      {"content", "b"}});
  REQUIRE(made->status == 201);
  const std::string b = AclFixture::Id(made);
  const Fields bulk{{"cmisaction", "bulkUpdate"}, {"objectId[0]", a.doc}, {"objectId[1]", b},
                    {"propertyId[0]", "cmis:description"}, {"propertyValue[0]", "x"}};
  auto r = a.Post("bob", "/acme/main", bulk);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  CHECK(BodyJson(r).size() == 1);
  CHECK(BodyJson(r)[0]["id"] == b);
  auto only = a.Post("bob", "/acme/main", {{"cmisaction", "bulkUpdate"}, {"objectId[0]", a.doc},
                                           {"propertyId[0]", "cmis:description"}, {"propertyValue[0]", "x"}});
  ExpectDenied(only, "cmis:write");
}

}  // namespace folio::testing

namespace folio::testing {

TEST_CASE("ACL: a version id of a document the caller may not read is denied alike by every lookup, existing or not") {
  AclFixture a;
  const std::string series = a.doc.substr(0, a.doc.find(';'));
  const std::string missing = series + ";9.9";
  const std::string nothing = "user 'carol' has no permission on an object this request needs";
  auto expect_nothing_told = [&](const httplib::Result& r) {
    REQUIRE(r);
    CHECK(r->status == 403);
    CHECK(Exception(r) == "permissionDenied");
    CHECK_MESSAGE(Message(r) == nothing, Message(r));
  };
  for (const std::string& id : {a.doc, missing}) {
    CAPTURE(id);
    expect_nothing_told(a.Get("carol", "/acme/main?cmisselector=object&objectId=" + id));
    // The source of a copy and the objects of a bulkUpdate are looked up as any target.
    expect_nothing_told(a.Post("carol", "/acme/main",
                               {{"cmisaction", "createDocumentFromSource"}, {"folderId", a.pub}, {"sourceId", id},
                                {"propertyId[0]", "cmis:name"}, {"propertyValue[0]", "copy.txt"}}));
    expect_nothing_told(a.Post("carol", "/acme/main",
                               {{"cmisaction", "bulkUpdate"}, {"objectId[0]", id},
                                {"propertyId[0]", "cmis:description"}, {"propertyValue[0]", "x"}}));
  }
  // bob may read the document: a version it does not have is not found, and says so.
  auto bob = a.Post("bob", "/acme/main",
                    {{"cmisaction", "createDocumentFromSource"}, {"folderId", a.pub}, {"sourceId", missing},
                     {"propertyId[0]", "cmis:name"}, {"propertyValue[0]", "copy.txt"}});
  CHECK(Exception(bob) == "objectNotFound");
}

}  // namespace folio::testing
