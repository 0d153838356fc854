// getContentChanges over HTTP (docs/API.md §7.12) in both variants: the event of every
// kind of change, the CMIS 1.1 token rules (the named event first, the answer's token is
// the last one returned, following the log sees every event once), maxItems,
// includeProperties, includeACL, includePolicyIds, repositoryInfo's change-log members,
// retention, every error, and files removed by hand (one event, also with two servers),
// and folder trees removed by hand (one event per object, also while the server was
// stopped).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>


#include "http/server_fixture.h"
#include "support/serve_process.h"
#include "support/temp_dir.h"

namespace folio::testing {
namespace {



Json Post(httplib::Client& c, const std::string& url, const std::vector<std::pair<std::string, std::string>>& fields,
          const Json& props = Json::object(), int status = 0) {
  std::vector<std::pair<std::string, std::string>> all = fields;
  all.emplace_back("succinct", "true");
  auto r = PostAs(c, url, Encoding::kJson, all, props);
  REQUIRE(r);
  if (status != 0) CHECK(r->status == status);
  return BodyJson(r);
}

// "type id" of each event of a contentChanges answer.
std::vector<std::string> Events(const Json& answer, const std::string& prefix) {
  std::vector<std::string> out;
  for (const Json& o : answer["objects"]) {
    const Json& p = o.contains("succinctProperties") ? o["succinctProperties"] : o["properties"];
    const Json& id = o.contains("succinctProperties") ? p[prefix + "objectId"] : p[prefix + "objectId"]["value"];
    out.push_back(o["changeEventInfo"]["changeType"].get<std::string>() + " " + id.get<std::string>());
  }
  return out;
}

TEST_CASE("Http changes: every kind of change is one event, in order, with the token rules of CMIS 1.1") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    const std::string url = base + "?cmisselector=contentChanges&succinct=true&maxItems=1000";
    const std::string id = v.prefix + "objectId";
    // The fixture's folder "docs" and document "readme.txt".
    Json start = GetJson(c, url);
    REQUIRE(start["objects"].size() == 2);
    const std::string docs = GetJson(c, base + "/docs?cmisselector=object&succinct=true")["succinctProperties"][id];
    const std::string readme =
        GetJson(c, base + "/docs/readme.txt?cmisselector=object&succinct=true")["succinctProperties"][id];
    CHECK(Events(start, v.prefix) == std::vector<std::string>{"created " + docs, "created " + readme});
    const std::string first_token = start["changeLogToken"];

    Json folder = Post(c, base, {{"operation", "createFolder"}}, Json{{"cmis:name", "f"}}, 201);
    const std::string f_id = folder["succinctProperties"][id];
    Json doc = Post(c, base + "/f", {{"operation", "createDocument"}, {"content", "one"}},
                    Json{{"cmis:name", "d.txt"}}, 201);
    const std::string d_id = doc["succinctProperties"][id];
    const std::string series = doc["succinctProperties"][v.prefix + "versionSeriesId"];
    Post(c, base, {{"operation", "update"}, {"objectId", d_id}}, Json{{"cmis:description", "x"}}, 200);
    Post(c, base, {{"operation", "setContent"}, {"objectId", d_id}, {"content", "two"}}, Json::object(), 201);
    Json pwc = Post(c, base, {{"operation", "checkOut"}, {"objectId", d_id}}, Json::object(), 201);
    const std::string pwc_id = pwc["succinctProperties"][id];
    Json v2 = Post(c, base, {{"operation", "checkIn"}, {"objectId", pwc_id}}, Json::object(), 201);
    const std::string v2_id = v2["succinctProperties"][id];
    Post(c, base, {{"operation", "move"}, {"objectId", v2_id}, {"targetFolderId", docs}}, Json::object(), 201);
    // A file added by hand: one event when Folio first sees it (here: a listing).
    std::ofstream(std::filesystem::path(f.dir()) / "demo" / v.repo / "hand.txt") << "by hand";
    GetJson(c, base + "?cmisselector=children");
    GetJson(c, base + "?cmisselector=children");  // seen again: no second event
    const std::string hand = GetJson(c, base + "/hand.txt?cmisselector=object&succinct=true")["succinctProperties"][id];
    Post(c, base, {{"operation", "delete"}, {"objectId", f_id}}, Json::object(), 200);

    Json all = GetJson(c, url);
    const std::vector<std::string> expected = {
        "created " + docs,   "created " + readme, "created " + f_id, "created " + d_id,   "updated " + d_id,
        "updated " + d_id,   "created " + pwc_id, "updated " + d_id, "deleted " + pwc_id, "created " + v2_id,
        "updated " + v2_id,
        "created " + hand,   "deleted " + f_id};
    {
      std::string got, want;
      for (const auto& e : Events(all, v.prefix)) got += e + "\n";
      for (const auto& e : expected) want += e + "\n";
      CHECK(got == want);
    }
    CHECK(all["numItems"] == expected.size());
    CHECK(all["hasMoreItems"] == false);
    // Tokens are consecutive; the answer's token is the last event's; so is repositoryInfo's.
    const std::string last = all["changeLogToken"];
    CHECK(std::stoull(last) == std::stoull(first_token) + expected.size() - 2);
    Json info = GetJson(c, base + "?cmisselector=repositoryInfo")[v.repo];
    CHECK(info["latestChangeLogToken"] == last);
    CHECK(info["changesIncomplete"] == false);
    CHECK(info["capabilities"]["capabilityChanges"] == "all");
    CHECK(info["changesOnType"] ==
          Json::array({v.prefix + "document", v.prefix + "folder", v.prefix + "item", v.prefix + "relationship"}));
    CHECK(GetJson(c, "/demo")[v.repo]["latestChangeLogToken"] == last);
    for (const Json& o : all["objects"]) {
      CHECK(o["changeEventInfo"]["changeTime"].is_number_integer());
      CHECK(o["succinctProperties"].size() == 3);  // id and types only, without includeProperties
      CHECK(o["succinctProperties"][v.prefix + "baseTypeId"].get<std::string>().starts_with(v.prefix));
    }

    // Following the log in pages of 3: the named event comes first; skipping it, every
    // event is seen exactly once.
    std::vector<std::string> followed;
    std::string token;
    for (int page = 0; page < 20; ++page) {
      Json a = GetJson(c, base + "?cmisselector=contentChanges&succinct=true&maxItems=3" +
                          (token.empty() ? "" : "&changeLogToken=" + token));
      auto events = Events(a, v.prefix);
      if (!token.empty()) {
        REQUIRE(!events.empty());
        CHECK(events.front() == followed.back());  // inclusive
        events.erase(events.begin());
      }
      followed.insert(followed.end(), events.begin(), events.end());
      token = a["changeLogToken"];
      if (!a["hasMoreItems"].get<bool>()) break;
    }
    CHECK(followed == expected);
    CHECK(token == last);
    // The newest token asked for again: that one event, nothing more.
    Json tail = GetJson(c, base + "?cmisselector=contentChanges&changeLogToken=" + last);
    CHECK(tail["objects"].size() == 1);
    CHECK(tail["hasMoreItems"] == false);
    CHECK(tail["changeLogToken"] == last);
    // A token beyond the newest is one this log never gave (a copy of another): refused,
    // naming it and the newest, so that the client does not wait for events that come
    // under other tokens.
    const std::string ahead_token = std::to_string(std::stoull(last) + 1);
    Json ahead = GetJson(c, base + "?cmisselector=contentChanges&changeLogToken=" + ahead_token, 409);
    CHECK(ahead["exception"] == "constraint");
    CHECK_MESSAGE(ahead["message"].get<std::string>().find("token " + ahead_token + " is newer than the newest "
                                                           "event, " + last) != std::string::npos,
                  ahead.dump());
    // maxItems=0: no event, but more there are.
    Json none = GetJson(c, base + "?cmisselector=contentChanges&maxItems=0");
    CHECK(none["objects"].empty());
    CHECK(none["hasMoreItems"] == true);
  }
}

// The events of the changes since `token` ("type id"), as an administrator sees them.
std::vector<std::string> EventsSince(httplib::Client& c, const std::string& base, const std::string& prefix,
                                     const std::string& token) {
  Json a = GetJson(c, base + "?cmisselector=contentChanges&succinct=true&maxItems=10000&changeLogToken=" + token);
  std::vector<std::string> events = Events(a, prefix);
  if (!events.empty()) events.erase(events.begin());  // the event of `token` itself
  return events;
}

TEST_CASE("Http changes: a deleted document is one deleted event per version and working copy, by their ids") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    const std::string id = v.prefix + "objectId";
    const auto latest = [&] {
      return GetJson(c, base + "?cmisselector=repositoryInfo")[v.repo]["latestChangeLogToken"].get<std::string>();
    };
    // d.txt: versions 1.0 and 2.0, then checked out; e.txt: 1.0 and 2.0, in folder t/.
    const auto make = [&](const std::string& folder, const std::string& name, bool check_out) {
      std::vector<std::string> ids;
      Json doc = Post(c, base + folder, {{"operation", "createDocument"}, {"content", "one"}},
                      Json{{"cmis:name", name}}, 201);
      ids.push_back(doc["succinctProperties"][id]);
      Json pwc = Post(c, base, {{"operation", "checkOut"}, {"objectId", ids[0]}}, Json::object(), 201);
      Json v2 = Post(c, base, {{"operation", "checkIn"}, {"objectId", pwc["succinctProperties"][id]}},
                     Json::object(), 201);
      ids.push_back(v2["succinctProperties"][id]);
      if (check_out) {
        pwc = Post(c, base, {{"operation", "checkOut"}, {"objectId", ids[1]}}, Json::object(), 201);
        ids.push_back(pwc["succinctProperties"][id]);
      }
      return ids;
    };
    const std::vector<std::string> d = make("", "d.txt", true);
    REQUIRE(d.size() == 3);
    std::string mark = latest();
    Post(c, base, {{"operation", "delete"}, {"objectId", d[1]}, {"allVersions", "true"}}, Json::object(), 200);
    CHECK(EventsSince(c, base, v.prefix, mark) ==
          std::vector<std::string>{"deleted " + d[0], "deleted " + d[1], "deleted " + d[2]});

    // One version deleted: that version's id.
    const std::vector<std::string> one = make("", "one.txt", false);
    mark = latest();
    Post(c, base, {{"operation", "delete"}, {"objectId", one[0]}, {"allVersions", "false"}}, Json::object(), 200);
    CHECK(EventsSince(c, base, v.prefix, mark) == std::vector<std::string>{"deleted " + one[0]});

    // deleteTree: one event per object, a document's per version.
    Json t = Post(c, base, {{"operation", "createFolder"}}, Json{{"cmis:name", "t"}}, 201);
    const std::string t_id = t["succinctProperties"][id];
    const std::vector<std::string> e = make("/t", "e.txt", true);
    mark = latest();
    REQUIRE(PostAs(c, base + "/t", Encoding::kJson, {{"operation", "deleteTree"}})->status == 200);
    std::vector<std::string> got = EventsSince(c, base, v.prefix, mark);
    std::sort(got.begin(), got.end());
    std::vector<std::string> want = {"deleted " + t_id, "deleted " + e[0], "deleted " + e[1], "deleted " + e[2]};
    std::sort(want.begin(), want.end());
    CHECK(got == want);

    // Every id a created event named for them is named by a deleted event.
    Json all = GetJson(c, base + "?cmisselector=contentChanges&succinct=true&maxItems=10000");
    std::set<std::string> created, deleted;
    for (const std::string& ev : Events(all, v.prefix)) {
      if (ev.starts_with("created ")) created.insert(ev.substr(8));
      if (ev.starts_with("deleted ")) deleted.insert(ev.substr(8));
    }
    for (const std::vector<std::string>* ids : {&d, &e}) {
      for (const std::string& x : *ids) {
        CHECK(created.count(x) == 1);
        CHECK(deleted.count(x) == 1);
      }
    }
  }
}

TEST_CASE("Http changes: includeProperties (as now), includeACL, includePolicyIds, succinct, dateTimeFormat") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    Json doc = Post(c, base, {{"operation", "createDocument"}, {"content", "a"}}, Json{{"cmis:name", "p.txt"}}, 201);
    const std::string d_id = doc["succinctProperties"][v.prefix + "objectId"];
    Post(c, base, {{"operation", "update"}, {"objectId", d_id}}, Json{{"cmis:name", "renamed.txt"}}, 200);
    Json doomed = Post(c, base, {{"operation", "createFolder"}}, Json{{"cmis:name", "gone"}}, 201);
    Post(c, base, {{"operation", "delete"}, {"objectId", doomed["succinctProperties"][v.prefix + "objectId"]}},
         Json::object(), 200);
    Json a = GetJson(c, base + "?cmisselector=contentChanges&succinct=true&includeProperties=true&includeACL=true"
                           "&includePolicyIds=true&changeLogToken=3");
    REQUIRE(a["objects"].size() == 4);
    // Properties as they are now: both events of the document show its new name.
    CHECK(a["objects"][0]["succinctProperties"][v.prefix + "name"] == "renamed.txt");
    CHECK(a["objects"][1]["succinctProperties"][v.prefix + "name"] == "renamed.txt");
    CHECK(a["objects"][0]["succinctProperties"][v.prefix + "contentStreamLength"] == 1);
    CHECK(a["objects"][0]["acl"].contains("aces"));
    CHECK(a["objects"][0]["exactACL"] == true);
    CHECK(a["objects"][0]["policyIds"] == Json{{"ids", Json::array()}});
    // The deleted folder: gone now, so its id and types only, and no ACL.
    CHECK(a["objects"][3]["changeEventInfo"]["changeType"] == "deleted");
    CHECK(a["objects"][3]["succinctProperties"].size() == 3);
    CHECK(!a["objects"][3].contains("acl"));
    // The detailed form and ISO dates.
    Json detailed = GetJson(c, base + "?cmisselector=contentChanges&succinct=false&dateTimeFormat=extended&maxItems=1");
    CHECK(detailed["objects"][0]["properties"][v.prefix + "objectId"]["value"].is_string());
    CHECK(detailed["objects"][0]["changeEventInfo"]["changeTime"].get<std::string>().ends_with("Z"));
    // Without the flags: none of those members.
    Json plain = GetJson(c, base + "?cmisselector=getContentChanges&maxItems=1");
    CHECK(!plain["objects"][0].contains("acl"));
    CHECK(!plain["objects"][0].contains("policyIds"));
  }
}

TEST_CASE("Http changes: errors name the parameter") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string url = "/demo/" + v.repo + "?cmisselector=contentChanges";
    struct Bad {
      std::string query, named;
    };
    for (const Bad& b : {Bad{"&changeLogToken=abc", "changeLogToken"}, Bad{"&changeLogToken=0", "changeLogToken"},
                         Bad{"&changeLogToken=-4", "changeLogToken"}, Bad{"&maxItems=-1", "maxItems"},
                         Bad{"&maxItems=10001", "maxItems"}, Bad{"&includeProperties=maybe", "includeProperties"},
                         Bad{"&includeACL=2", "includeACL"}, Bad{"&includePolicyIds=yes", "includePolicyIds"},
                         Bad{"&dateTimeFormat=roman", "dateTimeFormat"}}) {
      CAPTURE(b.query);
      Json e = GetJson(c, url + b.query, 400);
      CHECK(e["exception"] == "invalidArgument");
      CHECK(e["message"].get<std::string>().find(b.named) != std::string::npos);
    }
  }
}

TEST_CASE("Http changes: retention drops the oldest events, says so, and refuses their tokens naming the oldest") {
  ServerConfig config;
  config.change_log_max_events = 8;  // segments of 2 events
  ServerFixture f(config);
  auto c = f.Client();
  const std::string base = "/demo/beta";
  for (int i = 0; i < 30; ++i) {
    Post(c, base, {{"operation", "createFolder"}}, Json{{"cmis:name", "f" + std::to_string(i)}}, 201);
  }
  Json info = GetJson(c, base + "?cmisselector=repositoryInfo")["beta"];
  CHECK(info["changesIncomplete"] == true);
  const uint64_t latest = std::stoull(info["latestChangeLogToken"].get<std::string>());
  Json kept = GetJson(c, base + "?cmisselector=contentChanges&maxItems=100");
  const size_t n = kept["objects"].size();
  CHECK(n >= 8);
  CHECK(n <= 10);  // at most 1.25 x the limit
  CHECK(kept["numItems"] == n);
  CHECK(kept["changeLogToken"] == std::to_string(latest));
  const uint64_t oldest = latest - n + 1;
  Json refused = GetJson(c, base + "?cmisselector=contentChanges&changeLogToken=1", 409);
  CHECK(refused["exception"] == "constraint");
  CHECK(refused["message"].get<std::string>().find("oldest") != std::string::npos);
  CHECK(refused["message"].get<std::string>().find(std::to_string(oldest)) != std::string::npos);
  // The oldest kept token itself is fine.
  CHECK(GetJson(c, base + "?cmisselector=contentChanges&changeLogToken=" + std::to_string(oldest))["objects"].size() == n);
  // The other repository's log is its own, and complete.
  CHECK(GetJson(c, "/demo/alpha?cmisselector=repositoryInfo")["alpha"]["changesIncomplete"] == false);
}

}  // namespace
}  // namespace folio::testing

namespace folio::testing {
namespace {

// The "deleted" events of `series` in the whole log of `base`.
int DeletedEventsOf(httplib::Client& c, const std::string& base, const std::string& prefix,
                    const std::string& series) {
  Json all = GetJson(c, base + "?cmisselector=contentChanges&succinct=true&maxItems=10000");
  const auto events = Events(all, prefix);
  return static_cast<int>(std::count(events.begin(), events.end(), "deleted " + series));
}

TEST_CASE("Http changes: a file removed by hand is one deleted event when Folio first sees it") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    // The id its "created" event named, which its "deleted" event names too.
    const auto series_of = [&](const std::string& path) -> std::string {
      return GetJson(c, base + path + "?cmisselector=object&succinct=true")["succinctProperties"]
                    [v.prefix + "objectId"];
    };
    for (const char* name : {"listed.txt", "by-path.txt", "by-id.txt"}) {
      Post(c, base + "/docs", {{"operation", "createDocument"}, {"content", "x"}}, Json{{"cmis:name", name}}, 201);
    }
    const std::string listed = series_of("/docs/listed.txt");
    const std::string by_path = series_of("/docs/by-path.txt");
    const std::string by_id = series_of("/docs/by-id.txt");
    const std::filesystem::path docs = std::filesystem::path(f.dir()) / "demo" / v.repo / "docs";
    for (const char* name : {"listed.txt", "by-path.txt", "by-id.txt"}) std::filesystem::remove(docs / name);
    // A listing of the folder sees all three gone at once, and says so once.
    Json children = GetJson(c, base + "/docs?cmisselector=children&succinct=true");
    CHECK(children["numItems"] == 1);  // readme.txt
    GetJson(c, base + "/docs?cmisselector=children");
    auto by_path_answer = c.Get((base + "/docs/by-path.txt").c_str());
    REQUIRE(by_path_answer);
    CHECK(by_path_answer->status == 404);
    CHECK(BodyJson(by_path_answer)["exception"] == "objectNotFound");
    auto by_id_answer = c.Get((base + "?cmisselector=object&objectId=" + by_id).c_str());
    REQUIRE(by_id_answer);
    CHECK(by_id_answer->status == 404);
    for (const std::string& s : {listed, by_path, by_id}) CHECK(DeletedEventsOf(c, base, v.prefix, s) == 1);
  }
  // Seen first by a lookup by path: the event is there before any listing.
  const std::string base = "/demo/beta";
  Post(c, base + "/docs", {{"operation", "createDocument"}, {"content", "y"}}, Json{{"cmis:name", "p.txt"}}, 201);
  const std::string p_series =
      GetJson(c, base + "/docs/p.txt?cmisselector=object&succinct=true")["succinctProperties"]["cmis:objectId"];
  std::filesystem::remove(std::filesystem::path(f.dir()) / "demo/beta/docs/p.txt");
  auto gone = c.Get((base + "/docs/p.txt").c_str());
  REQUIRE(gone);
  CHECK(gone->status == 404);
  CHECK(DeletedEventsOf(c, base, "cmis:", p_series) == 1);
}

TEST_CASE("Http changes: a folder tree removed by hand is one deleted event per object, in both variants") {
  ServerFixture f;
  auto c = f.Client();
  for (const FixtureVariant& v : kFixtureVariants) {
    CAPTURE(v.repo);
    const std::string base = "/demo/" + v.repo;
    const std::string id = v.prefix + "objectId";
    const auto prop = [&](const std::string& path, const std::string& name) -> std::string {
      return GetJson(c, base + path + "?cmisselector=object&succinct=true")["succinctProperties"][v.prefix + name];
    };
    Post(c, base, {{"operation", "createFolder"}}, Json{{"cmis:name", "tree"}}, 201);
    Post(c, base + "/tree", {{"operation", "createFolder"}}, Json{{"cmis:name", "sub"}}, 201);
    Post(c, base + "/tree", {{"operation", "createDocument"}, {"content", "a"}}, Json{{"cmis:name", "a.txt"}}, 201);
    Post(c, base + "/tree/sub", {{"operation", "createDocument"}, {"content", "b"}}, Json{{"cmis:name", "b.txt"}},
         201);
    const std::string tree = prop("/tree", "objectId"), sub = prop("/tree/sub", "objectId");
    // Documents by their version ids, as their "created" events named them.
    const std::string a = prop("/tree/a.txt", "objectId"), b = prop("/tree/sub/b.txt", "objectId");
    const std::string b_version = b;
    GetJson(c, base + "?cmisselector=children");  // the server lists the root: it knows "tree"
    const std::string mark = GetJson(c, base + "?cmisselector=repositoryInfo")[v.repo]["latestChangeLogToken"];
    std::filesystem::remove_all(std::filesystem::path(f.dir()) / "demo" / v.repo / "tree");
    // The listing of its parent sees it gone and says so, once for each object.
    Json children = GetJson(c, base + "?cmisselector=children&succinct=true");
    for (const Json& o : children["objects"]) CHECK(o["object"]["succinctProperties"][id] != tree);
    CHECK(children["objects"].size() == 1);  // docs
    const std::string url = base + "?cmisselector=contentChanges&succinct=true&changeLogToken=" + mark;
    Json changes = GetJson(c, url);
    std::vector<std::string> got = Events(changes, v.prefix);
    REQUIRE_FALSE(got.empty());
    got.erase(got.begin());  // the event named by the token: seen before
    std::sort(got.begin(), got.end());
    std::vector<std::string> want = {"deleted " + tree, "deleted " + sub, "deleted " + a, "deleted " + b};
    std::sort(want.begin(), want.end());
    CHECK(got == want);
    for (const Json& o : changes["objects"]) {
      const Json& p = o["succinctProperties"];
      if (p[id] == tree || p[id] == sub) CHECK(p[v.prefix + "baseTypeId"] == v.prefix + "folder");
      if (p[id] == a || p[id] == b) CHECK(p[v.prefix + "baseTypeId"] == v.prefix + "document");
    }
    // Looked up again, by path and by id: gone, and nothing more is logged.
    for (const std::string& gone : {base + "/tree/sub/b.txt", base + "?cmisselector=object&objectId=" + b_version,
                                    base + "?cmisselector=object&objectId=" + sub}) {
      CAPTURE(gone);
      auto answer = c.Get(gone.c_str());
      REQUIRE(answer);
      CHECK(answer->status == 404);
      CHECK(BodyJson(answer)["exception"] == "objectNotFound");
    }
    CHECK(Events(GetJson(c, url), v.prefix).size() == want.size() + 1);
  }
}

TEST_CASE("Http changes: a folder tree removed by hand while the server was stopped is noticed by the first listing") {
  TempDir dir;
  BuildFixtureData(dir.path());
  ServeProcess server(dir.path());
  const std::string base = "/demo/beta";
  const auto client = [&] {
    httplib::Client c("127.0.0.1", server.port());
    c.set_read_timeout(60, 0);
    return c;
  };
  std::string tree, sub, a, b, mark;
  {
    auto c = client();
    const auto made = [&](const std::string& url, const Json& props, const std::string& content) -> std::string {
      std::vector<std::pair<std::string, std::string>> fields = {
          {"operation", content.empty() ? "createFolder" : "createDocument"}};
      if (!content.empty()) fields.emplace_back("content", content);
      const Json p = Post(c, url, fields, props, 201)["succinctProperties"];
      return p["cmis:objectId"];  // a document's version id, as its "created" event named it
    };
    tree = made(base, Json{{"cmis:name", "tree"}}, "");
    sub = made(base + "/tree", Json{{"cmis:name", "sub"}}, "");
    a = made(base + "/tree", Json{{"cmis:name", "a.txt"}}, "a");
    b = made(base + "/tree/sub", Json{{"cmis:name", "b.txt"}}, "b");
    mark = GetJson(c, base + "?cmisselector=repositoryInfo")["beta"]["latestChangeLogToken"];
  }
  CHECK(server.Stop(SIGTERM) == 0);
  std::filesystem::remove_all(std::filesystem::path(dir.path()) / "demo/beta/tree");
  server.Start();
  const std::string url = base + "?cmisselector=contentChanges&succinct=true&changeLogToken=" + mark;
  std::vector<std::string> want = {"deleted " + tree, "deleted " + sub, "deleted " + a, "deleted " + b};
  std::sort(want.begin(), want.end());
  const auto deleted = [&](httplib::Client& c) {
    std::vector<std::string> got = Events(GetJson(c, url), "cmis:");
    got.erase(got.begin());  // the event named by the token: seen before
    std::sort(got.begin(), got.end());
    return got;
  };
  {
    auto c = client();
    // Nothing looked up: the first listing of the root finds "tree" gone. (The query
    // index's start-up scan lists the root too: when its thread is already recording
    // the deletions, the listing does not wait for it, and they appear when it ends.)
    Json children = GetJson(c, base + "?cmisselector=children&succinct=true");
    CHECK(children["objects"].size() == 1);  // docs
    std::vector<std::string> got = deleted(c);
    for (int i = 0; i < 600 && got.size() < want.size(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      got = deleted(c);
    }
    CHECK(got == want);
    GetJson(c, base + "?cmisselector=children");
    CHECK(deleted(c) == want);
  }
  // Started again: nothing more.
  CHECK(server.Stop(SIGTERM) == 0);
  server.Start();
  auto c = client();
  GetJson(c, base + "?cmisselector=children");
  CHECK(deleted(c) == want);
}

TEST_CASE("Http changes: two servers that both see a file removed by hand record one deleted event") {
  TempDir dir;
  BuildFixtureData(dir.path());
  ServeProcess a(dir.path());
  ServeProcess b(dir.path());
  httplib::Client ca("127.0.0.1", a.port()), cb("127.0.0.1", b.port());
  ca.set_read_timeout(60, 0);
  cb.set_read_timeout(60, 0);
  const std::string base = "/demo/beta";
  std::vector<std::string> ids;  // each document's version 1.0
  for (int i = 0; i < 6; ++i) {
    const std::string name = "gone" + std::to_string(i) + ".txt";
    Json made = Post(ca, base + "/docs", {{"operation", "createDocument"}, {"content", "x"}},
                     Json{{"cmis:name", name}}, 201);
    ids.push_back(made["succinctProperties"]["cmis:objectId"]);
  }
  for (int round = 0; round < 6; ++round) {
    CAPTURE(round);
    std::filesystem::remove(std::filesystem::path(dir.path()) / "demo/beta/docs" /
                            ("gone" + std::to_string(round) + ".txt"));
    // Both servers list the folder (and look the file up) at once.
    std::vector<std::thread> threads;
    std::atomic<int> ready{0};
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        httplib::Client c("127.0.0.1", t % 2 == 0 ? a.port() : b.port());
        c.set_read_timeout(60, 0);
        ++ready;
        while (ready < 4) std::this_thread::yield();
        auto r = t < 2 ? c.Get((base + "/docs?cmisselector=children").c_str())
                       : c.Get((base + "/docs/gone" + std::to_string(round) + ".txt").c_str());
        CHECK(r);
      });
    }
    for (auto& t : threads) t.join();
    CHECK(DeletedEventsOf(ca, base, "cmis:", ids[round]) == 1);
    CHECK(DeletedEventsOf(cb, base, "cmis:", ids[round]) == 1);
  }
}

}  // namespace
}  // namespace folio::testing
