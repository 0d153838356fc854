// query and access control over HTTP (docs/API.md §12.6, §11.3), in both variants: a
// user who may read half of the matches gets exactly those, numItems counts only them,
// hasMoreItems is right on every page, and skipCount/maxItems walk them without gaps or
// duplicates; an applyACL is seen by the next query; an administrator sees everything.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "http/auth_fixture.h"
#include "support/repo_fixture.h"

namespace folio::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

constexpr int kDocs = 20;  // n00.txt..n19.txt: bob may read the even ones

std::string DocName(int i) { return std::string("n") + (i < 10 ? "0" : "") + std::to_string(i) + ".txt"; }

// Domain acme (from AuthFixture) with repository `repo` of `variant`, used by alice
// (administrator) and bob; folder /f holds the kDocs documents, the odd ones made
// without the repository group's entry (so only alice, their creator, may read them).
// Requests go with the users' API keys (no password hashing per request).
struct QueryAclFixture {
  AuthFixture f;
  std::string repo, prefix, folder_id;
  std::map<int, std::string> ids;

  QueryAclFixture(const std::string& repo_id, const std::string& variant) : repo(repo_id) {
    prefix = variant == "A" ? "" : "cmis:";
    if (repo != "main") {
      auto r = Post("alice", "/acme", {{"operation", "createRepository"}, {"repositoryId", repo}, {"variant", variant}});
      REQUIRE_MESSAGE(r->status == 201, r->body);
    }
    auto g = Post("alice", "/acme", {{"operation", "updateGroup"}, {"groupId", "repository_" + repo},
                                     {"members", "alice,bob"}});
    REQUIRE_MESSAGE(g->status == 200, g->body);
    auto folder = Post("alice", Base(), {{"cmisaction", "createFolder"}, {"propertyId[0]", "cmis:objectTypeId"},
                                         {"propertyValue[0]", "cmis:folder"}, {"propertyId[1]", "cmis:name"},
                                         {"propertyValue[1]", "f"}});
    REQUIRE_MESSAGE(folder->status == 201, folder->body);
    folder_id = IdOf(folder);
    for (int i = 0; i < kDocs; ++i) {
      Fields fields = {{"cmisaction", "createDocument"}, {"propertyId[0]", "cmis:objectTypeId"},
                       {"propertyValue[0]", "cmis:document"}, {"propertyId[1]", "cmis:name"},
                       {"propertyValue[1]", DocName(i)}, {"content", "shared word " + DocName(i)}};
      if (i % 2 == 1) {
        fields.emplace_back("removeACEPrincipal[0]", "repository_" + repo);
        fields.emplace_back("removeACEPermission[0][0]", "cmis:all");
      }
      auto d = Post("alice", Base() + "/f", fields);
      REQUIRE_MESSAGE(d->status == 201, d->body);
      ids[i] = IdOf(d);
    }
  }

  std::string Base() const { return "/acme/" + repo; }
  std::string IdOf(const httplib::Result& r) const {
    const Json j = BodyJson(r);
    return j["succinctProperties"].value("cmis:objectId", j["succinctProperties"].value("objectId", ""));
  }
  httplib::Result Post(const std::string& user, const std::string& path, Fields fields) {
    fields.emplace_back("succinct", "true");
    auto c = f.server().Client();
    return c.Post(path.c_str(), httplib::Headers{{"X-API-KEY", f.key(user)}}, FormBody(fields),
                  "application/x-www-form-urlencoded");
  }
  // The query's answer as `user` (status 200 checked).
  Json Query(const std::string& user, const std::string& q, int max, int skip, bool all_versions = false) {
    httplib::Params p{{"cmisselector", "query"},
                      {"q", q},
                      {"maxItems", std::to_string(max)},
                      {"skipCount", std::to_string(skip)},
                      {"searchAllVersions", all_versions ? "true" : "false"},
                      {"succinct", "true"}};
    auto c = f.server().Client();
    auto r = c.Get((Base() + "?" + httplib::detail::params_to_query_str(p)).c_str(),
                   httplib::Headers{{"X-API-KEY", f.key(user)}});
    REQUIRE(r);
    REQUIRE_MESSAGE(r->status == 200, r->body);
    return BodyJson(r);
  }
  std::vector<std::string> Names(const Json& answer) const {
    std::vector<std::string> out;
    for (const Json& r : answer["results"]) out.push_back(r["succinctProperties"].value(prefix + "name", "<none>"));
    return out;
  }
  // Every page of `q` as `user`, `max` at a time: the names in order; each page's
  // numItems and hasMoreItems checked against `expected`.
  std::vector<std::string> Walk(const std::string& user, const std::string& q, int max,
                                const std::vector<std::string>& expected) {
    std::vector<std::string> all;
    const int n = static_cast<int>(expected.size());
    CAPTURE(q);
    CAPTURE(max);
    for (int skip = 0; skip < n + max; skip += max) {
      CAPTURE(skip);
      const Json page = Query(user, q, max, skip);
      CHECK(page["numItems"] == n);
      const std::vector<std::string> names = Names(page);
      CHECK(static_cast<int>(names.size()) == std::max(0, std::min(max, n - skip)));
      CHECK(page["hasMoreItems"] == (skip + max < n));
      all.insert(all.end(), names.begin(), names.end());
      if (skip >= n) break;
    }
    return all;
  }
  void Acl(const std::string& id, const std::string& add_or_remove, const std::string& principal) {
    auto r = Post("alice", Base(), {{"cmisaction", "applyACL"}, {"objectId", id},
                                    {add_or_remove + "ACEPrincipal[0]", principal},
                                    {add_or_remove + "ACEPermission[0][0]", "cmis:read"}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
  }
};

std::vector<std::string> Expected(const std::function<bool(int)>& readable) {
  std::vector<std::string> out;
  for (int i = 0; i < kDocs; ++i) {
    if (readable(i)) out.push_back(DocName(i));
  }
  return out;
}

const std::pair<const char*, const char*> kVariants[] = {{"alpha", "A"}, {"main", "B"}};

}  // namespace

TEST_CASE("Http query ACL: a user who may read half of the matches pages through exactly those, in both variants") {
  for (const auto& v : kVariants) {
    const std::string repo = v.first, variant = v.second;
    CAPTURE(variant);
    QueryAclFixture a(repo, variant);
    const std::string by_name = "SELECT cmis:name FROM cmis:document WHERE cmis:name LIKE 'n%' ORDER BY cmis:name";
    const std::vector<std::string> even = Expected([](int i) { return i % 2 == 0; });
    const std::vector<std::string> every = Expected([](int) { return true; });
    // bob: 10 of the 20, pages of 3 (the last one short), of 1, of more than all.
    for (int max : {3, 1, 4, 10, 50}) {
      CAPTURE(max);
      CHECK(a.Walk("bob", by_name, max, even) == even);
    }
    // alice (domain administrator): all 20.
    CHECK(a.Walk("alice", by_name, 7, every) == every);
    // The same with descending order, IN_FOLDER, full text, and no ORDER BY at all (then
    // the pages must still neither repeat nor skip a result).
    std::vector<std::string> down = even;
    std::reverse(down.begin(), down.end());
    CHECK(a.Walk("bob", "SELECT cmis:name FROM cmis:document WHERE cmis:name LIKE 'n%' ORDER BY cmis:name DESC", 3,
                 down) == down);
    CHECK(a.Walk("bob", "SELECT cmis:name FROM cmis:document WHERE IN_FOLDER('" + a.folder_id + "') ORDER BY cmis:name",
                 4, even) == even);
    std::vector<std::string> unordered =
        a.Walk("bob", "SELECT cmis:name FROM cmis:document WHERE CONTAINS('shared')", 3, even);
    std::sort(unordered.begin(), unordered.end());
    CHECK(unordered == even);
    // searchAllVersions counts the same way: n02 (readable) and n03 (not) get a second
    // version each, and n04 is checked out (a working copy is never a result).
    for (int i : {2, 3}) {
      auto out = a.Post("alice", a.Base(), {{"cmisaction", "checkOut"}, {"objectId", a.ids[i]}});
      REQUIRE_MESSAGE(out->status == 201, out->body);
      auto in = a.Post("alice", a.Base(), {{"cmisaction", "checkIn"}, {"objectId", a.IdOf(out)}, {"major", "true"}});
      REQUIRE_MESSAGE(in->status == 201, in->body);
    }
    REQUIRE(a.Post("alice", a.Base(), {{"cmisaction", "checkOut"}, {"objectId", a.ids[4]}})->status == 201);
    std::vector<std::string> versions = even;
    versions.insert(versions.begin() + 2, DocName(2));  // n02 twice
    CHECK(a.Query("bob", by_name, 100, 0)["numItems"] == 10);
    const Json all_versions = a.Query("bob", by_name, 100, 0, /*all_versions=*/true);
    CHECK(all_versions["numItems"] == 11);
    CHECK(a.Names(all_versions) == versions);
    CHECK(a.Query("bob", by_name, 4, 8, /*all_versions=*/true)["hasMoreItems"] == false);
    CHECK(a.Query("bob", by_name, 3, 8, /*all_versions=*/true)["hasMoreItems"] == false);
    CHECK(a.Query("bob", by_name, 2, 8, /*all_versions=*/true)["hasMoreItems"] == true);
    CHECK(a.Query("alice", by_name, 0, 0, /*all_versions=*/true)["numItems"] == kDocs + 2);
    // A count alone (maxItems 0) leaks nothing either.
    const Json count = a.Query("bob", by_name, 0, 0);
    CHECK(count["numItems"] == 10);
    CHECK(count["results"].empty());
    CHECK(count["hasMoreItems"] == true);
  }
}

TEST_CASE("Http query ACL: applyACL is seen by the next query's results and numItems, in both variants") {
  for (const auto& v : kVariants) {
    const std::string repo = v.first, variant = v.second;
    CAPTURE(variant);
    QueryAclFixture a(repo, variant);
    const std::string q = "SELECT cmis:name FROM cmis:document WHERE CONTAINS('shared') ORDER BY cmis:name";
    // bob is granted n03 by name, n05 through a group he is in, n07 through cmis:anyone.
    a.Acl(a.ids[3], "add", "bob");
    a.Acl(a.ids[5], "add", "repository_" + a.repo);
    a.Acl(a.ids[7], "add", "cmis:anyone");
    std::vector<std::string> more = Expected([](int i) { return i % 2 == 0 || i == 3 || i == 5 || i == 7; });
    CHECK(a.Walk("bob", q, 5, more) == more);
    // Taken away from n00 (its only entry for bob was the group's) and from n03.
    auto r = a.Post("alice", a.Base(), {{"cmisaction", "applyACL"}, {"objectId", a.ids[0]},
                                         {"removeACEPrincipal[0]", "repository_" + a.repo},
                                         {"removeACEPermission[0][0]", "cmis:all"}});
    REQUIRE_MESSAGE(r->status == 201, r->body);
    a.Acl(a.ids[3], "remove", "bob");
    std::vector<std::string> fewer = Expected([](int i) { return (i % 2 == 0 && i != 0) || i == 5 || i == 7; });
    CHECK(a.Walk("bob", q, 5, fewer) == fewer);
    // alice still sees all 20.
    CHECK(a.Query("alice", q, 0, 0)["numItems"] == kDocs);
  }
}

}  // namespace folio::testing
