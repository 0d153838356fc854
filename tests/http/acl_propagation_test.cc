// ACLs that do what people expect, over HTTP, in both variants (docs/API.md §11.1,
// §11.3): applyACL on a folder reaches what it holds (by path, by id), one change with a "security" event per object; deleted users and groups
// leave no entry behind for a principal made later under their id; only the holder of a
// working copy (or cmis:all, or an administrator) ends its check-out; and a denial
// names nothing of an object the caller may not read.
#include <doctest/doctest.h>

#include <set>

#include "folio/repository.h"
#include "http/auth_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

std::string Exception(const httplib::Result& r) { return BodyJson(r).value("exception", ""); }
std::string Message(const httplib::Result& r) { return BodyJson(r).value("message", ""); }

// Domain acme (AuthFixture: alice administrator, bob, carol) with repository `repo` of
// `variant`, which alice, bob and carol may use; alice made /projects/legal/contract.txt
// (versions 1.0 and 2.0), /projects/legal/memo.txt (checked out by alice: a working
// copy) and /projects/legal/drafts/note.txt, all copying the root's entry for the
// repository's group. Requests go with API keys (no password hashing per request).
struct LegalFixture {
  AuthFixture f;
  std::string repo, prefix;
  std::string projects, legal, drafts, contract, note, memo, pwc;

  LegalFixture(const std::string& repo_id, const std::string& variant) : repo(repo_id) {
    prefix = variant == "A" ? "" : "cmis:";
    if (repo != "main") {
      auto r = Post("alice", "/acme", {{"operation", "createRepository"}, {"repositoryId", repo}, {"variant", variant}});
      REQUIRE_MESSAGE(r->status == 201, r->body);
    }
    auto g = Post("alice", "/acme", {{"operation", "updateGroup"}, {"groupId", Group()},
                                     {"members", "alice,bob,carol"}});
    REQUIRE_MESSAGE(g->status == 200, g->body);
    projects = Folder("", "projects");
    legal = Folder("/projects", "legal");
    drafts = Folder("/projects/legal", "drafts");
    contract = Doc("/projects/legal", "contract.txt", "the contract");
    note = Doc("/projects/legal/drafts", "note.txt", "a note");
    REQUIRE(Post("alice", Base() + "/projects/legal/contract.txt", {{"cmisaction", "checkOut"}})->status == 201);
    auto in = Post("alice", Base() + "/projects/legal/contract.txt", {{"cmisaction", "checkIn"}, {"content", "v2"}});
    REQUIRE_MESSAGE(in->status == 201, in->body);
    memo = Doc("/projects/legal", "memo.txt", "a memo");
    auto out = Post("alice", Base() + "/projects/legal/memo.txt", {{"cmisaction", "checkOut"}});
    REQUIRE_MESSAGE(out->status == 201, out->body);
    pwc = IdOf(out);
  }

  std::string Base() const { return "/acme/" + repo; }
  std::string Group() const { return "repository_" + repo; }
  std::string IdOf(const httplib::Result& r) const {
    const Json j = BodyJson(r);
    return j["succinctProperties"].value(prefix + "objectId", "");
  }
  std::string Folder(const std::string& parent, const std::string& name) {
    auto r = Post("alice", Base() + parent, {{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:objectTypeId"},
                                             {"propertyValue[0]", "cmis:folder"}, {"propertyId[1]", "cmis:name"},
                                             {"propertyValue[1]", name}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return IdOf(r);
  }
  std::string Doc(const std::string& parent, const std::string& name, const std::string& text) {
    auto r = Post("alice", Base() + parent, {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                                             {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"},
                                             {"propertyValue[1]", name}, {"content", text}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    return BodyJson(r)["succinctProperties"].value(prefix + "versionSeriesId", "");  // resolves to the latest
  }
  httplib::Result Post(const std::string& user, const std::string& path, Fields fields) {
    fields.emplace_back("succinct", "true");
    auto c = f.server().Client();
    return c.Post(path.c_str(), httplib::Headers{{"X-API-KEY", f.key(user)}}, FormBody(fields),
                  "application/x-www-form-urlencoded");
  }
  httplib::Result Get(const std::string& user, const std::string& path) {
    auto c = f.server().Client();
    return c.Get(path.c_str(), httplib::Headers{{"X-API-KEY", f.key(user)}});
  }
  httplib::Result ById(const std::string& user, const std::string& id) {
    return Get(user, Base() + "?cmisselector=object&succinct=true&objectId=" + id);
  }
  std::shared_ptr<Repository> Engine() { return f.server().store().GetRepository("acme", repo).value(); }
  // The restriction: the repository's group out, bob in with cmis:read.
  httplib::Result Restrict(const std::string& user, const std::string& propagation) {
    Fields fields{{"cmisaction", "applyACL"},
                  {"removeACEPrincipal[0]", Group()},
                  {"removeACEPermission[0][0]", "cmis:all"},
                  {"addACEPrincipal[0]", "bob"},
                  {"addACEPermission[0][0]", "cmis:read"}};
    if (!propagation.empty()) fields.emplace_back("ACLPropagation", propagation);
    return Post(user, Base() + "/projects/legal", fields);
  }
};

void ExpectDenied(const httplib::Result& r) {
  REQUIRE(r);
  CHECK_MESSAGE(r->status == 403, r->body);
  CHECK(Exception(r) == "permissionDenied");
}

const std::pair<const char*, const char*> kVariants[] = {{"alpha", "A"}, {"main", "B"}};

}  // namespace

TEST_CASE("ACL propagation: restricting a folder restricts what it holds, by path and by id") {
  for (const std::string propagation : {"", "repositorydetermined", "propagate"}) {
    for (const auto& v : kVariants) {
      CAPTURE(propagation);
      CAPTURE(v.second);
      LegalFixture a(v.first, v.second);
      const std::string doc_path = a.Base() + "/projects/legal/contract.txt";
      REQUIRE(a.Get("carol", doc_path)->status == 200);
      const uint64_t before = a.Engine()->LatestChangeToken().value();
      auto r = a.Restrict("alice", propagation);
      REQUIRE_MESSAGE(r->status == 201, r->body);
      // carol: nothing of /projects/legal by path, nor by any id of its documents
      // (series, each version, the working copy).
      ExpectDenied(a.Get("carol", doc_path));
      ExpectDenied(a.Get("carol", a.Base() + "/projects/legal/drafts/note.txt"));
      ExpectDenied(a.Get("carol", a.Base() + "/projects/legal?cmisselector=children"));
      for (const std::string& id :
           {a.contract, a.contract + ";1.0", a.contract + ";2.0", a.memo, a.pwc, a.note, a.drafts}) {
        CAPTURE(id);
        ExpectDenied(a.ById("carol", id));
      }
      // bob reads all of it, and finds it; the folder above keeps its entries.
      CHECK(a.Get("bob", doc_path)->body == "v2");
      CHECK(a.ById("bob", a.contract + ";1.0")->status == 200);
      CHECK(a.ById("bob", a.pwc)->status == 200);
      CHECK(a.Get("carol", a.Base() + "/projects?cmisselector=object")->status == 200);
      // One change: a "security" event per object changed (the folder, drafts, the three
      // documents), and getACL lists bob's entry on each.
      auto changes = a.Engine()->ReadChanges(before + 1, 100);
      REQUIRE(changes.ok());
      std::multiset<std::string> events;
      for (const ChangeEventInfo& e : changes->events) events.insert(e.type + " " + e.object_id);
      CHECK(events == std::multiset<std::string>{"security " + a.legal, "security " + a.drafts,
                                                 "security " + a.contract + ";2.0", "security " + a.memo + ";1.0",
                                                 "security " + a.note + ";1.0"});
      const Json acl = BodyJson(a.Get("alice", a.Base() + "?cmisselector=acl&objectId=" + a.contract + ";1.0"));
      std::set<std::string> principals;
      for (const Json& ace : acl["aces"]) principals.insert(ace["principal"]["principalId"].get<std::string>());
      CHECK(principals == std::set<std::string>{"alice", "bob"});
    }
  }
}

TEST_CASE("ACL propagation: objectonly changes the folder alone") {
  LegalFixture a("main", "B");
  const uint64_t before = a.Engine()->LatestChangeToken().value();
  auto r = a.Restrict("alice", "objectonly");
  REQUIRE_MESSAGE(r->status == 201, r->body);
  ExpectDenied(a.Get("carol", a.Base() + "/projects/legal?cmisselector=object"));
  CHECK(a.ById("carol", a.contract)->status == 200);
  CHECK(a.Engine()->LatestChangeToken().value() == before + 1);
}

TEST_CASE("ACL propagation: all or nothing: one object below without cmis:all refuses the whole change") {
  LegalFixture a("main", "B");
  // bob manages the folders but not note.txt (alice took the group's cmis:all away from it).
  for (const std::string& id : {a.legal, a.drafts, a.contract, a.memo}) {
    auto g = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", id}, {"ACLPropagation", "objectonly"},
                                        {"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:all"}});
    REQUIRE_MESSAGE(g->status == 201, g->body);
  }
  auto closed = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", a.note},
                                           {"removeACEPrincipal[0]", a.Group()}, {"removeACEPermission[0][0]", "cmis:all"}});
  REQUIRE_MESSAGE(closed->status == 201, closed->body);
  const uint64_t before = a.Engine()->LatestChangeToken().value();
  auto r = a.Restrict("bob", "");
  ExpectDenied(r);
  // note.txt is not bob's to read: the denial says nothing of it.
  CHECK_MESSAGE(Message(r).find("note") == std::string::npos, Message(r));
  CHECK(a.Engine()->LatestChangeToken().value() == before);
  CHECK(a.Get("carol", a.Base() + "/projects/legal/contract.txt")->status == 200);
  CHECK(a.Get("carol", a.Base() + "/projects/legal?cmisselector=object")->status == 200);
}

TEST_CASE("ACL propagation: repositoryInfo announces propagate") {
  for (const auto& v : kVariants) {
    CAPTURE(v.second);
    LegalFixture a(v.first, v.second);
    const Json info = BodyJson(a.Get("carol", a.Base() + "?cmisselector=repositoryInfo"));
    const Json caps = info.begin().value()["aclCapabilities"];
    CHECK(caps["propagation"] == "propagate");
    CHECK(caps["supportedPermissions"] == "basic");
    CHECK(info.begin().value()["capabilities"]["capabilityACL"] == "manage");
  }
}

TEST_CASE("ACL: deleteUser and deleteGroup remove their entries everywhere; a principal made later inherits nothing") {
  for (const auto& v : kVariants) {
    CAPTURE(v.second);
    LegalFixture a(v.first, v.second);
    // Only grp1 (bob) reads /projects/legal and what it holds; dave, alone, note.txt.
    REQUIRE(a.Post("alice", "/acme", {{"operation", "createGroup"}, {"groupId", "grp1"}, {"members", "bob"}})->status ==
            201);
    auto dave = a.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "dave"}, {"password", "dave-Pa55word!"}});
    REQUIRE(dave->status == 201);
    auto restricted = a.Post("alice", a.Base() + "/projects/legal",
                             {{"cmisaction", "applyACL"}, {"removeACEPrincipal[0]", a.Group()},
                              {"removeACEPermission[0][0]", "cmis:all"}, {"addACEPrincipal[0]", "grp1"},
                              {"addACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(restricted->status == 201, restricted->body);
    auto given = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", a.note},
                                            {"addACEPrincipal[0]", "dave"}, {"addACEPermission[0][0]", "cmis:write"}});
    REQUIRE_MESSAGE(given->status == 201, given->body);
    REQUIRE(a.Get("bob", a.Base() + "/projects/legal/contract.txt")->status == 200);

    const uint64_t before = a.Engine()->LatestChangeToken().value();
    REQUIRE(a.Post("alice", "/acme", {{"operation", "deleteGroup"}, {"groupId", "grp1"}})->status == 200);
    auto changes = a.Engine()->ReadChanges(before + 1, 100);
    REQUIRE(changes.ok());
    std::multiset<std::string> events;
    for (const ChangeEventInfo& e : changes->events) events.insert(e.type + " " + e.object_id);
    CHECK(events == std::multiset<std::string>{"security " + a.legal, "security " + a.drafts,
                                               "security " + a.contract + ";2.0", "security " + a.memo + ";1.0",
                                                 "security " + a.note + ";1.0"});
    REQUIRE(a.Post("alice", "/acme", {{"operation", "deleteUser"}, {"userId", "dave"}})->status == 200);
    // getACL lists neither.
    for (const std::string& id : {a.legal, a.contract, a.pwc, a.note}) {
      CAPTURE(id);
      const std::string acl = a.Get("alice", a.Base() + "?cmisselector=acl&objectId=" + id)->body;
      CHECK(acl.find("grp1") == std::string::npos);
      CHECK(acl.find("dave") == std::string::npos);
    }
    // A user made as grp1, and dave again, read nothing the old ones could.
    auto grp1 = a.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "grp1"}, {"password", "grp1-Pa55word!"}});
    REQUIRE(grp1->status == 201);
    REQUIRE(a.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "dave"}, {"password", "dave-Pa55word!"}})
                ->status == 201);
    REQUIRE(a.Post("alice", "/acme", {{"operation", "updateGroup"}, {"groupId", a.Group()},
                                      {"members", "alice,bob,carol,grp1,dave"}})
                ->status == 200);
    for (const std::string user : {"grp1", "dave"}) {
      CAPTURE(user);
      auto c = a.f.server().Client();
      const std::string password = user + "-Pa55word!";
      auto r = c.Get((a.Base() + "/projects/legal/contract.txt").c_str(), BasicAuth(user, password));
      ExpectDenied(r);
      ExpectDenied(c.Get((a.Base() + "/projects/legal/drafts/note.txt").c_str(), BasicAuth(user, password)));
    }
    // Deleting an unknown principal changes nothing.
    const uint64_t now = a.Engine()->LatestChangeToken().value();
    CHECK(a.Post("alice", "/acme", {{"operation", "deleteGroup"}, {"groupId", "grp9"}})->status == 404);
    CHECK(a.Engine()->LatestChangeToken().value() == now);
  }
}

TEST_CASE("ACL: entries of a principal whose deletion was interrupted are gone before a new one takes its id") {
  LegalFixture a("main", "B");
  auto dave = a.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "dave"}, {"password", "dave-Pa55word!"}});
  REQUIRE(dave->status == 201);
  REQUIRE(a.f.server().Client().Post("/acme", httplib::Headers{{"X-API-KEY", a.f.key("alice")}},
                                     FormBody({{"operation", "deleteUser"}, {"userId", "dave"}}),
                                     "application/x-www-form-urlencoded")->status == 200);
  // The state a process that died between deleteUser's two steps leaves: dave is gone,
  // his entry is not.
  REQUIRE(a.Engine()->ApplyAcl(a.note, {Ace{"dave", {"cmis:read"}}}, {}, WriteCheck::Trusted()).ok());
  // A new dave does not inherit it.
  REQUIRE(a.Post("alice", "/acme", {{"operation", "createUser"}, {"userId", "dave"}, {"password", "dave-Pa55word!"}})
              ->status == 201);
  CHECK(a.Get("alice", a.Base() + "?cmisselector=acl&objectId=" + a.note)->body.find("dave") == std::string::npos);
}

TEST_CASE("ACL: checkIn and cancelCheckOut: the holder, cmis:all on the document, or an administrator") {
  for (const auto& v : kVariants) {
    CAPTURE(v.second);
    LegalFixture a(v.first, v.second);
    // carol checks out note.txt (repository group: cmis:all ... taken down to write for all).
    auto down = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", a.note},
                                           {"removeACEPrincipal[0]", a.Group()}, {"removeACEPermission[0][0]", "cmis:all"},
                                           {"addACEPrincipal[0]", a.Group()}, {"addACEPermission[0][0]", "cmis:write"}});
    REQUIRE_MESSAGE(down->status == 201, down->body);
    auto out = a.Post("carol", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "checkOut"}});
    REQUIRE_MESSAGE(out->status == 201, out->body);
    const std::string pwc = a.IdOf(out);
    const uint64_t before = a.Engine()->LatestChangeToken().value();
    // bob (cmis:write) may neither check it in nor cancel nor delete it; nothing changes.
    for (const Fields& fields : {Fields{{"cmisaction", "checkIn"}, {"objectId", pwc}, {"content", "bob's"}},
                                 Fields{{"cmisaction", "cancelCheckOut"}, {"objectId", pwc}},
                                 Fields{{"cmisaction", "delete"}, {"objectId", pwc}}}) {
      CAPTURE(fields[0].second);
      auto r = a.Post("bob", a.Base(), fields);
      ExpectDenied(r);
      CHECK_MESSAGE(Message(r).find("carol") != std::string::npos, Message(r));
    }
    auto by_path = a.Post("bob", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "checkIn"}});
    ExpectDenied(by_path);
    CHECK(a.Engine()->LatestChangeToken().value() == before);
    CHECK(a.ById("bob", pwc)->status == 200);
    // Allowable actions say so.
    const Json actions = BodyJson(a.Get("bob", a.Base() + "?cmisselector=allowableActions&objectId=" + pwc));
    CHECK(actions["canCheckIn"] == false);
    CHECK(actions["canCancelCheckOut"] == false);
    const Json own = BodyJson(a.Get("carol", a.Base() + "?cmisselector=allowableActions&objectId=" + pwc));
    CHECK(own["canCheckIn"] == true);
    // carol herself may; then bob with cmis:all on the document may; then alice (admin).
    auto in = a.Post("carol", a.Base(), {{"cmisaction", "checkIn"}, {"objectId", pwc}, {"content", "carol's"}});
    REQUIRE_MESSAGE(in->status == 201, in->body);
    REQUIRE(a.Post("carol", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "checkOut"}})->status == 201);
    auto all = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", a.note},
                                          {"addACEPrincipal[0]", "bob"}, {"addACEPermission[0][0]", "cmis:all"}});
    REQUIRE_MESSAGE(all->status == 201, all->body);
    auto cancel = a.Post("bob", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "cancelCheckOut"}});
    CHECK_MESSAGE(cancel->status == 200, cancel->body);
    REQUIRE(a.Post("carol", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "checkOut"}})->status == 201);
    auto admin = a.Post("alice", a.Base() + "/projects/legal/drafts/note.txt", {{"cmisaction", "checkIn"}});
    CHECK_MESSAGE(admin->status == 201, admin->body);
  }
}

TEST_CASE("ACL: a denial names no path, name or version of an object the caller may not read") {
  for (const auto& v : kVariants) {
    CAPTURE(v.second);
    LegalFixture a(v.first, v.second);
    auto r = a.Restrict("alice", "");
    REQUIRE_MESSAGE(r->status == 201, r->body);
    std::vector<httplib::Result> answers;
    answers.push_back(a.Get("carol", a.Base() + "/projects/legal/contract.txt"));
    answers.push_back(a.Get("carol", a.Base() + "/projects/legal/contract.txt?cmisselector=versions"));
    answers.push_back(a.ById("carol", a.contract + ";1.0"));  // exists
    answers.push_back(a.ById("carol", a.contract + ";1.1"));  // does not
    answers.push_back(a.ById("carol", a.contract + ";7.3"));
    answers.push_back(a.Post("carol", a.Base(), {{"cmisaction", "delete"}, {"objectId", a.contract}}));
    answers.push_back(a.Post("carol", a.Base(), {{"cmisaction", "move"}, {"objectId", a.note},
                                                 {"sourceFolderId", a.drafts}, {"targetFolderId", a.projects}}));
    for (const httplib::Result& answer : answers) {
      ExpectDenied(answer);
      const std::string m = Message(answer);
      CAPTURE(m);
      for (const char* secret : {"legal", "contract", "note", "drafts", "1.0", "1.1", "2.0", "7.3"}) {
        CHECK(m.find(secret) == std::string::npos);
      }
      // Every such denial reads alike.
      CHECK(m == Message(answers[0]));
    }
    // bob, who may read it, is told which version is missing.
    auto missing = a.ById("bob", a.contract + ";1.1");
    CHECK(missing->status == 404);
  }
}

}  // namespace folio::testing
