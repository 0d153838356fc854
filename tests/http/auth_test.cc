// Authentication and the repository gate over HTTP (docs/API.md §11.1,
// §11.2, §11.3): Basic, API keys, wrong and missing
// credentials, another domain's users, the server administrator, who may use a
// repository, the user and group operations, and no secret in any answer or log line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "http/auth_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

std::string Exception(const httplib::Result& r) { return BodyJson(r).value("exception", ""); }
std::string Message(const httplib::Result& r) { return BodyJson(r).value("message", ""); }

std::vector<std::string> Keys(const Json& object) {
  std::vector<std::string> out;
  for (auto it = object.begin(); it != object.end(); ++it) out.push_back(it.key());
  return out;
}

// Every file below `dir`, read whole.
std::string AllFiles(const std::string& dir) {
  std::string all;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    all += ReadFile(e.path().string());
    all += '\n';
  }
  return all;
}

}  // namespace

TEST_CASE("Auth: a domain with users answers 401 with WWW-Authenticate without credentials") {
  AuthFixture f;
  for (const std::string path : {"/acme", "/acme/main", "/acme/main?cmisselector=object", "/acme?operation=getUsers"}) {
    CAPTURE(path);
    auto r = f.Get(path);
    REQUIRE(r);
    CHECK(r->status == 401);
    CHECK(Exception(r) == "unauthorized");
    CHECK(r->get_header_value("WWW-Authenticate") == "Basic realm=\"folio\"");
    CHECK(Contains(Message(r), "'acme'"));
  }
  // The anonymous domain of the fixture stays open.
  CHECK(f.Get("/demo/alpha/docs/readme.txt")->body == "hello");
}

TEST_CASE("Auth: a script's request (X-Requested-With: XMLHttpRequest) gets 401 without WWW-Authenticate") {
  AuthFixture f;
  auto c = f.server().Client();
  const httplib::Headers xhr{{"X-Requested-With", "XMLHttpRequest"}};
  // No credentials, a wrong password, a wrong key, a POST: each 401 unauthorized, none
  // with the challenge a browser meets with its own login dialog.
  httplib::Headers wrong = BasicAuth("alice", "not-her-password");
  wrong.emplace("X-Requested-With", "XMLHttpRequest");
  httplib::Headers bad_key{{"X-API-KEY", "folio_nope"}, {"X-Requested-With", "xmlhttprequest"}};
  std::vector<httplib::Result> answers;
  answers.push_back(c.Get("/acme/main", xhr));
  answers.push_back(c.Get("/acme/main?cmisselector=object", wrong));
  answers.push_back(c.Get("/acme", bad_key));
  answers.push_back(c.Post("/acme/main", xhr, "cmisaction=createFolder", "application/x-www-form-urlencoded"));
  for (const httplib::Result& r : answers) {
    REQUIRE(r);
    CHECK(r->status == 401);
    CHECK(Exception(r) == "unauthorized");
    CHECK(Contains(Message(r), "'acme'"));
    CHECK(!r->has_header("WWW-Authenticate"));
  }
  // With the right credentials the script is let in.
  httplib::Headers right = BasicAuth("alice", f.password("alice"));
  right.emplace("X-Requested-With", "XMLHttpRequest");
  CHECK(c.Get("/acme/main", right)->status == 200);
  // Without the header, or with another value, the challenge stays.
  CHECK(c.Get("/acme/main")->get_header_value("WWW-Authenticate") == "Basic realm=\"folio\"");
  CHECK(c.Get("/acme/main", httplib::Headers{{"X-Requested-With", "fetch"}})->get_header_value("WWW-Authenticate") ==
        "Basic realm=\"folio\"");
}

TEST_CASE("Auth: HTTP Basic and X-API-KEY let a user in; wrong ones are 401") {
  AuthFixture f;
  CHECK(f.Get("/acme/main", "alice")->status == 200);
  CHECK(f.GetWithKey("/acme/main", f.key("alice"))->status == 200);
  auto wrong = f.Post("/acme/main", "alice", "not-her-password", {{"cmisaction", "createFolder"}});
  CHECK(wrong->status == 401);
  CHECK(wrong->get_header_value("WWW-Authenticate") == "Basic realm=\"folio\"");
  CHECK(Message(wrong) == "wrong user name, password or API key for domain 'acme'");
  auto unknown = f.Post("/acme/main", "mallory", "x", {{"cmisaction", "createFolder"}});
  CHECK(unknown->status == 401);
  CHECK(Message(unknown) == Message(wrong));  // an unknown user looks like a wrong password
  auto bad_key = f.GetWithKey("/acme/main", f.key("alice") + "x");
  CHECK(bad_key->status == 401);
  auto c = f.server().Client();
  auto bearer = c.Get("/acme/main", httplib::Headers{{"Authorization", "Bearer abc"}});
  CHECK(bearer->status == 401);
  CHECK(Contains(Message(bearer), "'Bearer'"));
}

TEST_CASE("Auth: another domain's user does not count; a second domain has its own users") {
  AuthFixture f;
  REQUIRE(f.Post("/", "", "", {{"operation", "createDomain"}, {"domainId", "beta"}, {"adminUserId", "alice"},
                               {"adminPassword", "another-password"}})
              ->status == 201);
  auto c = f.server().Client();
  CHECK(c.Get("/beta", BasicAuth("bob", f.password("bob")))->status == 401);
  CHECK(c.Get("/beta", BasicAuth("alice", f.password("alice")))->status == 401);  // acme's alice
  CHECK(c.Get("/beta", httplib::Headers{{"X-API-KEY", f.key("alice")}})->status == 401);
  CHECK(c.Get("/beta", BasicAuth("alice", "another-password"))->status == 200);
}

TEST_CASE("Auth: the repository gate: members of repository_<id> and domain administrators") {
  AuthFixture f;
  auto denied = f.Get("/acme/main", "bob");
  CHECK(denied->status == 403);
  CHECK(Exception(denied) == "permissionDenied");
  CHECK(Contains(Message(denied), "'bob'"));
  CHECK(Contains(Message(denied), "repository_main"));
  // Before any object is looked up: a path that does not exist is still 403, not 404.
  CHECK(f.Get("/acme/main/no/such/thing", "bob")->status == 403);
  // The service document lists what the caller may use.
  CHECK(Keys(BodyJson(f.Get("/acme", "alice"))) == std::vector<std::string>{"main"});
  CHECK(BodyJson(f.Get("/acme", "bob")).empty());
  // Membership through a nested group, effective at once.
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "createGroup"}, {"groupId", "eng"}, {"members", "bob"}})->status ==
          201);
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "repository_main"},
                                         {"members", "alice,eng"}})
              ->status == 200);
  CHECK(f.Get("/acme/main", "bob")->status == 200);
  CHECK(Keys(BodyJson(f.Get("/acme", "bob"))) == std::vector<std::string>{"main"});
  CHECK(f.Get("/acme/main", "carol")->status == 403);
  // A missing repository is 404 for anyone who got past authentication.
  CHECK(f.Get("/acme/nope", "alice")->status == 404);
}

TEST_CASE("Auth: createRepository needs an administrator and adds its creator to repository_<id>") {
  AuthFixture f;
  auto refused = f.Post("/acme", "bob", "", {{"operation", "createRepository"}, {"repositoryId", "bobs"}});
  CHECK(refused->status == 403);
  CHECK(Contains(Message(refused), "'bob'"));
  CHECK(Contains(Message(refused), "createRepository"));
  // alice makes bob an administrator; bob's repository is his.
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "admin"}, {"members", "alice,bob"}})
              ->status == 200);
  REQUIRE(f.Post("/acme", "bob", "", {{"operation", "createRepository"}, {"repositoryId", "bobs"}})->status == 201);
  const Json groups = BodyJson(f.Get("/acme?operation=getGroups", "carol"))["groups"];
  Json bobs;
  for (const Json& g : groups) {
    if (g["groupId"] == "repository_bobs") bobs = g;
  }
  CHECK(bobs["members"] == Json::array({"bob"}));
  // Its root folder grants the repository's group cmis:all.
  const Json acl = BodyJson(f.Get("/acme/bobs?cmisselector=acl", "bob"));
  REQUIRE(acl["aces"].size() == 1);
  CHECK(acl["aces"][0]["principal"]["principalId"] == "repository_bobs");
  CHECK(acl["aces"][0]["permissions"] == Json::array({"cmis:all"}));
  // Deleting the repository removes its group: one made again under that id starts afresh.
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "updateGroup"}, {"groupId", "repository_bobs"},
                                         {"members", "bob,carol"}})
              ->status == 200);
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "deleteRepository"}, {"repositoryId", "bobs"}})->status == 200);
  REQUIRE(f.Post("/acme", "alice", "", {{"operation", "createRepository"}, {"repositoryId", "bobs"}})->status == 201);
  CHECK(f.Get("/acme/bobs", "carol")->status == 403);
}

TEST_CASE("Auth: createdBy, lastModifiedBy and versionSeriesCheckedOutBy are the authenticated user") {
  AuthFixture f;
  auto folder = f.Post("/acme/main", "alice", "",
                       {{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:name"}, {"propertyValue[0]", "f"}});
  REQUIRE(folder->status == 201);
  CHECK(Prop(BodyJson(folder), "cmis:createdBy") == "alice");
  CHECK(Prop(BodyJson(folder), "cmis:lastModifiedBy") == "alice");
  auto c = f.server().Client();
  httplib::MultipartFormDataItems items{{"content", "v1", "a.txt", "text/plain"},
                                        {"cmisaction", "createDocument", "", ""},
                                        {"propertyId[0]", "cmis:name", "", ""},
                                        {"propertyValue[0]", "a.txt", "", ""}};
  auto doc = c.Post("/acme/main/f", httplib::Headers{{"X-API-KEY", f.key("alice")}}, items);
  REQUIRE(doc->status == 201);
  CHECK(Prop(BodyJson(doc), "cmis:createdBy") == "alice");
  auto pwc = f.Post("/acme/main/f/a.txt", "alice", "", {{"cmisaction", "checkOut"}});
  REQUIRE(pwc->status == 201);
  CHECK(Prop(BodyJson(pwc), "cmis:versionSeriesCheckedOutBy") == "alice");
}

TEST_CASE("Auth: a content upload to a repository the caller may not use is refused and leaves nothing") {
  AuthFixture f;
  auto c = f.server().Client();
  httplib::MultipartFormDataItems items{{"content", std::string(100000, 'x'), "a.txt", "text/plain"},
                                        {"cmisaction", "createDocument", "", ""},
                                        {"propertyId[0]", "cmis:name", "", ""},
                                        {"propertyValue[0]", "a.txt", "", ""}};
  CHECK(c.Post("/acme/main", items)->status == 401);
  CHECK(c.Post("/acme/main", BasicAuth("bob", f.password("bob")), items)->status == 403);
  const std::string uploads = f.server().dir() + "/acme/main/.folio/uploads";
  CHECK((!std::filesystem::exists(uploads) || std::filesystem::is_empty(uploads)));
}

TEST_CASE("Auth: users: create, list, update (fields given only), regenerate the key, delete") {
  AuthFixture f;
  const Json users = BodyJson(f.Get("/acme?operation=getUsers", "bob"))["users"];
  REQUIRE(users.size() == 3);
  CHECK(users[0] == Json{{"userId", "alice"}, {"displayName", "alice"}, {"groups", {"admin", "repository_main", "user"}}});
  CHECK(users[1] == Json{{"userId", "bob"}, {"displayName", "User bob"}, {"groups", {"user"}}});

  auto renamed = f.Post("/acme", "alice", "", {{"operation", "updateUser"}, {"userId", "bob"}, {"displayName", "Bob"}});
  REQUIRE(renamed->status == 200);
  CHECK(BodyJson(renamed) == Json{{"userId", "bob"}, {"displayName", "Bob"}, {"groups", {"user"}}});
  CHECK(f.Get("/acme", "bob")->status == 200);  // the password did not change

  // A user may change its own password; the old one stops working at once.
  auto own = f.Post("/acme", "bob", "", {{"operation", "updateUser"}, {"userId", "bob"}, {"password", "new-pw"}});
  REQUIRE(own->status == 200);
  auto c = f.server().Client();
  CHECK(c.Get("/acme", BasicAuth("bob", f.password("bob")))->status == 401);
  CHECK(c.Get("/acme", BasicAuth("bob", "new-pw"))->status == 200);
  // ... but not someone else's.
  auto other = f.Post("/acme", "carol", "", {{"operation", "updateUser"}, {"userId", "bob"}, {"password", "x"}});
  CHECK(other->status == 403);

  const std::string old_key = f.key("carol");
  CHECK(f.GetWithKey("/acme", old_key)->status == 200);
  auto regenerated =
      f.Post("/acme", "carol", "", {{"operation", "updateUser"}, {"userId", "carol"}, {"regenerateApiKey", "true"}});
  REQUIRE(regenerated->status == 200);
  const std::string new_key = BodyJson(regenerated)["apiKey"];
  CHECK(new_key != old_key);
  CHECK(f.GetWithKey("/acme", old_key)->status == 401);
  CHECK(f.GetWithKey("/acme", new_key)->status == 200);

  CHECK(f.Post("/acme", "carol", "", {{"operation", "deleteUser"}, {"userId", "bob"}})->status == 403);
  CHECK(f.Post("/acme", "alice", "", {{"operation", "deleteUser"}, {"userId", "carol"}})->status == 200);
  CHECK(f.GetWithKey("/acme", new_key)->status == 401);
  auto last = f.Post("/acme", "alice", "", {{"operation", "deleteUser"}, {"userId", "alice"}});
  CHECK(last->status == 409);
  CHECK(Exception(last) == "constraint");
  CHECK(Contains(Message(last), "administrator"));
}

TEST_CASE("Auth: user and group operations refuse bad input with the contract's errors") {
  AuthFixture f;
  auto post = [&](std::vector<std::pair<std::string, std::string>> fields) { return f.Post("/acme", "alice", "", fields); };
  auto bad_id = post({{"operation", "createUser"}, {"userId", "has space"}, {"password", "p"}});
  CHECK(bad_id->status == 400);
  CHECK(Contains(Message(bad_id), "^[A-Za-z0-9._@-]{1,64}$"));
  auto exists = post({{"operation", "createUser"}, {"userId", "bob"}, {"password", "p"}});
  CHECK(exists->status == 409);
  CHECK(Exception(exists) == "contentAlreadyExists");
  auto no_password = post({{"operation", "createUser"}, {"userId", "dave"}});
  CHECK(no_password->status == 400);
  CHECK(Contains(Message(no_password), "'password'"));
  CHECK(post({{"operation", "createUser"}, {"userId", "admin"}, {"password", "p"}})->status == 409);
  CHECK(post({{"operation", "createGroup"}, {"groupId", "admin"}})->status == 409);
  auto ghost = post({{"operation", "createGroup"}, {"groupId", "eng"}, {"members", "bob, ghost"}});
  CHECK(ghost->status == 400);
  CHECK(Contains(Message(ghost), "'ghost'"));
  CHECK(post({{"operation", "deleteGroup"}, {"groupId", "user"}})->status == 409);
  CHECK(post({{"operation", "deleteGroup"}, {"groupId", "repository_main"}})->status == 409);
  CHECK(post({{"operation", "updateGroup"}, {"groupId", "repository_nope"}, {"members", "bob"}})->status == 404);
  CHECK(post({{"operation", "updateGroup"}, {"groupId", "eng"}, {"members", "bob"}})->status == 404);
  auto no_members = post({{"operation", "updateGroup"}, {"groupId", "admin"}});
  CHECK(no_members->status == 400);
  CHECK(Contains(Message(no_members), "'members'"));
}

TEST_CASE("Auth: groups nest (JSON members), cycles included; getGroups lists the built-in ones first") {
  AuthFixture f;
  auto c = f.server().Client();
  auto json = [&](const Json& body) {
    return c.Post("/acme", BasicAuth("alice", f.password("alice")), body.dump(), "application/json");
  };
  REQUIRE(json({{"operation", "createGroup"}, {"groupId", "a"}, {"members", {"bob"}}})->status == 201);
  REQUIRE(json({{"operation", "createGroup"}, {"groupId", "b"}, {"members", {"a", "carol"}}})->status == 201);
  REQUIRE(json({{"operation", "updateGroup"}, {"groupId", "a"}, {"members", {"bob", "b"}}})->status == 200);
  REQUIRE(json({{"operation", "updateGroup"}, {"groupId", "repository_main"}, {"members", {"a"}}})->status == 200);
  CHECK(f.Get("/acme/main", "carol")->status == 200);  // carol -> b -> a -> repository_main
  const Json groups = BodyJson(f.Get("/acme?operation=getGroups", "bob"))["groups"];
  std::vector<std::string> ids;
  for (const Json& g : groups) ids.push_back(g["groupId"]);
  CHECK(ids == std::vector<std::string>{"admin", "user", "repository_main", "a", "b"});
  CHECK(groups[1]["members"] == Json::array({"alice", "bob", "carol"}));
  const Json users = BodyJson(f.Get("/acme?operation=getUsers", "bob"))["users"];
  CHECK(users[2]["groups"] == Json::array({"a", "b", "repository_main", "user"}));
  REQUIRE(json({{"operation", "deleteGroup"}, {"groupId", "b"}})->status == 200);
  CHECK(f.Get("/acme/main", "carol")->status == 403);
}

TEST_CASE("Auth: no password, hash or stored key in any answer or log line, nor a clear password on disk") {
  LogCapture log;
  AuthFixture f({}, /*log_everything=*/true);
  const std::string shown_once = f.key("bob");
  f.Get("/acme?operation=getUsers", "alice");
  f.Get("/acme?operation=getGroups", "alice");
  f.Post("/acme", "alice", "", {{"operation", "updateUser"}, {"userId", "bob"}, {"password", "second-Pa55"}});
  f.Post("/acme", "bob", "wrong-Pa55", {{"operation", "getUsers"}});
  f.Get("/acme/main?cmisselector=object&password=query-Pa55", "alice");
  const std::string answers = f.responses();
  const std::string logged = log.WaitFor("GET /acme/main");  // the last request's line
  const std::string disk = AllFiles(f.server().dir());
  CHECK(Contains(logged, "getUsers"));  // the capture works
  for (const std::string secret : {"alice-Pa55word!", "bob-Pa55word!", "carol-Pa55word!", "second-Pa55",
                                   "wrong-Pa55", "query-Pa55"}) {
    CAPTURE(secret);
    CHECK_FALSE(Contains(answers, secret));
    CHECK_FALSE(Contains(logged, secret));
    CHECK_FALSE(Contains(disk, secret));
  }
  for (const std::string hashy : {"$argon2id", "blake2b:", "passwordHash", "apiKeyHash"}) {
    CAPTURE(hashy);
    CHECK_FALSE(Contains(answers, hashy));
    CHECK_FALSE(Contains(logged, hashy));
  }
  // An API key is shown once, by the answer that made it, and never logged or stored.
  const size_t first = answers.find(shown_once);
  CHECK(first != std::string::npos);
  CHECK(answers.find(shown_once, first + 1) == std::string::npos);
  CHECK_FALSE(Contains(logged, shown_once));
  CHECK_FALSE(Contains(disk, shown_once));
}

// The server level, through api::Service directly: the client's address is a field of
// the request there (a loopback socket can only ever be loopback).
TEST_CASE("Auth: server-level operations without FOLIO_ADMIN_PASSWORD: loopback clients only") {
  ServerFixture s;
  api::Service service(s.store(), {});
  api::Request r;
  r.method = "GET";
  r.peer_loopback = true;
  CHECK(service.Handle(r).status == 200);
  r.peer_loopback = false;
  api::Response remote = service.Handle(r);
  CHECK(remote.status == 403);
  CHECK(remote.exception == "permissionDenied");
  CHECK(Contains(remote.body, "FOLIO_ADMIN_PASSWORD"));
}

TEST_CASE("Auth: server-level operations with FOLIO_ADMIN_PASSWORD: Basic admin and that password") {
  ServerConfig config;
  config.service.admin_password = "server-Pa55";
  ServerFixture s(config);
  auto c = s.Client();
  auto none = c.Get("/");
  CHECK(none->status == 401);
  CHECK(none->get_header_value("WWW-Authenticate") == "Basic realm=\"folio\"");
  CHECK(c.Get("/", BasicAuth("admin", "wrong"))->status == 401);
  auto ok = c.Get("/", BasicAuth("admin", "server-Pa55"));
  CHECK(ok->status == 200);
  CHECK(BodyJson(ok)["domains"][0]["domainId"] == "demo");
  auto made = c.Post("/", BasicAuth("admin", "server-Pa55"),
                     FormBody({{"operation", "createDomain"}, {"domainId", "acme"}, {"adminUserId", "root"},
                               {"adminPassword", "root-Pa55"}}),
                     "application/x-www-form-urlencoded");
  CHECK(made->status == 201);
  // The server administrator is no user of a domain.
  CHECK(c.Get("/acme", BasicAuth("admin", "server-Pa55"))->status == 401);
  CHECK(c.Get("/acme", BasicAuth("root", "root-Pa55"))->status == 200);
}

TEST_CASE("Auth: beyond loopback, createDomain without an administrator is constraint unless --insecure") {
  ServerFixture s;
  for (bool insecure : {false, true}) {
    CAPTURE(insecure);
    api::ServiceOptions o;
    o.exposed = true;
    o.insecure = insecure;
    api::Service service(s.store(), o);
    api::Request r;
    r.method = "POST";
    r.peer_loopback = true;
    r.query = {{"operation", "createDomain"}, {"domainId", insecure ? "open" : "closed"}};
    api::Response made = service.Handle(r);
    if (insecure) {
      CHECK(made.status == 201);
    } else {
      CHECK(made.status == 409);
      CHECK(made.exception == "constraint");
      CHECK(Contains(made.body, "adminUserId"));
      CHECK(Contains(made.body, "--insecure"));
    }
    r.query = {{"operation", "createDomain"}, {"domainId", insecure ? "open2" : "closed2"}, {"adminUserId", "root"},
               {"adminPassword", "pw"}};
    CHECK(service.Handle(r).status == 201);
    auto open = service.AnonymousDomains();
    REQUIRE(open.ok());
    CHECK(std::find(open->begin(), open->end(), "demo") != open->end());
    CHECK(std::find(open->begin(), open->end(), "closed2") == open->end());
  }
}

}  // namespace folio::testing
