// Writes to a checked-out document addressed by its path or its version series id go to
// the private working copy (docs/API.md §6.4): every answered change survives checkIn,
// and the versions already made are untouched. applyACL is not served yet (§10).
#include <doctest/doctest.h>

#include "http/server_fixture.h"
#include "http/versioning_support.h"

namespace folio::testing {
namespace {

httplib::Result PostJson(httplib::Client& c, const std::string& path, const Json& body) {
  return c.Post(path.c_str(), body.dump(), "application/json");
}

}  // namespace

TEST_CASE("Checked out: update, setContent, move and delete by path or series id go to the working copy") {
  ServerFixture f;
  auto c = f.Client();
  const Var& v = kVarB;
  for (const bool by_path : {true, false}) {
    CAPTURE(by_path);
    const std::string name = by_path ? "p.txt" : "s.txt";
    const Json doc = CreateDoc(c, v, name, "v1");
    const std::string series = Get(doc, "cmis:versionSeriesId");
    const std::string v10 = Get(doc, "cmis:objectId");
    // The document addressed as the request says: its path, or its series id.
    auto at = [&](const std::string& folder_path, Json body) {
      if (by_path) return PostJson(c, v.Url() + folder_path, body);
      body["objectId"] = series;
      return PostJson(c, v.Url(), body);
    };
    auto out = at("/docs/" + name, Json{{"operation", "checkOut"}});
    REQUIRE(out);
    REQUIRE_MESSAGE(out->status == 201, out->body);
    const std::string pwc = Get(Flat(BodyJson(out)), "cmis:objectId");

    // update (a rename) and setContent: answered, and on the working copy.
    const std::string renamed = "renamed-" + name;
    auto up = at("/docs/" + name, Json{{"operation", "update"}, {"properties", {{"cmis:name", renamed}}}});
    REQUIRE(up);
    CHECK_MESSAGE(up->status == 200, up->body);
    CHECK(Get(Flat(BodyJson(up)), "cmis:objectId") == pwc);
    auto set = at("/docs/" + name, Json{{"operation", "setContent"}, {"content", "edited"}});
    REQUIRE(set);
    CHECK_MESSAGE(set->status < 300, set->body);
    CHECK(Get(Flat(BodyJson(set)), "cmis:objectId") == pwc);
    // Version 1.0 is as it was until checkIn.
    auto old = c.Get((v.Url() + "?objectId=" + v10 + "&cmisselector=object&succinct=true").c_str());
    REQUIRE(old);
    CHECK(BodyJson(old)["succinctProperties"]["cmis:name"] == name);
    CHECK(c.Get((v.Url() + "/docs/" + name).c_str())->body == "v1");

    // checkIn names the working copy: by the document's path, or by its own id (a series
    // id is not a working copy: docs/API.md §6.5).
    auto in = by_path ? PostJson(c, v.Url() + "/docs/" + name, Json{{"operation", "checkIn"}, {"checkinComment", "kept"}})
                      : PostJson(c, v.Url(), Json{{"operation", "checkIn"}, {"objectId", pwc}});
    REQUIRE(in);
    REQUIRE_MESSAGE((in->status == 201 || in->status == 200), in->body);
    const Json latest = Flat(BodyJson(in));
    CHECK(Get(latest, "cmis:name") == renamed);
    CHECK(Get(latest, "cmis:versionLabel") == "2.0");
    auto content = c.Get((v.Url() + "/docs/" + renamed).c_str());
    REQUIRE(content);
    CHECK(content->status == 200);
    CHECK(content->body == "edited");
    CHECK(c.Get((v.Url() + "/docs/" + name).c_str())->status == 404);

    // move during a check-out: the series moves; checkIn leaves it there.
    const std::string folder = "moved-" + std::to_string(by_path);
    auto made = PostJson(c, v.Url() + "/docs",
                         Json{{"operation", "createFolder"},
                              {"properties", {{"cmis:name", folder}, {"cmis:objectTypeId", "cmis:folder"}}}});
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    const std::string folder_id = Get(Flat(BodyJson(made)), "cmis:objectId");
    const std::string docs_id = Get(Flat(BodyJson(c.Get((v.Url() + "/docs?cmisselector=object").c_str()))),
                                    "cmis:objectId");
    auto out2 = at("/docs/" + renamed, Json{{"operation", "checkOut"}});
    REQUIRE(out2);
    REQUIRE(out2->status == 201);
    CHECK(Get(Flat(BodyJson(out2)), "cmis:objectId") == pwc);  // {series};pwc again
    auto moved = at("/docs/" + renamed,
                    Json{{"operation", "move"}, {"targetFolderId", folder_id}, {"sourceFolderId", docs_id}});
    REQUIRE(moved);
    CHECK_MESSAGE(moved->status < 300, moved->body);
    auto in2 = by_path ? PostJson(c, v.Url() + "/docs/" + folder + "/" + renamed, Json{{"operation", "checkIn"}})
                       : PostJson(c, v.Url(), Json{{"operation", "checkIn"}, {"objectId", pwc}});
    REQUIRE(in2);
    CHECK_MESSAGE((in2->status == 201 || in2->status == 200), in2->body);
    CHECK(c.Get((v.Url() + "/docs/" + folder + "/" + renamed).c_str())->body == "edited");
    CHECK(c.Get((v.Url() + "/docs/" + renamed).c_str())->status == 404);

    // delete during a check-out: the whole document goes, working copy included.
    REQUIRE(at("/docs/" + folder + "/" + renamed, Json{{"operation", "checkOut"}})->status == 201);
    auto del = at("/docs/" + folder + "/" + renamed, Json{{"operation", "delete"}, {"allVersions", true}});
    REQUIRE(del);
    CHECK_MESSAGE(del->status < 300, del->body);
    CHECK(c.Get((v.Url() + "/docs/" + folder + "/" + renamed).c_str())->status == 404);
    auto pwc_gone = c.Get((v.Url() + "?objectId=" + series + ";pwc&cmisselector=object").c_str());
    REQUIRE(pwc_gone);
    CHECK(pwc_gone->status == 404);
  }
}

}  // namespace folio::testing
