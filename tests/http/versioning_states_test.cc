// Versioning over HTTP (docs/API.md §6.4, §7.10, §5, §6): every row of the state
// table and every rule, through a mixed history, in both variants and each encoding.
#include <algorithm>
#include <fstream>
#include <vector>

#include "api/answer_buffers.h"
#include "http/versioning_support.h"

namespace folio::testing {
namespace {

struct Step {
  bool major;
  const char* label;
  bool send_major;  // false: leave `major` out (default true)
};

// Checks every versioning property of every version of `doc` (labels oldest first),
// not checked out.
void CheckHistory(httplib::Client& c, const Var& v, const std::string& doc, const std::string& series,
                  const std::vector<std::string>& labels, const std::string& dir) {
  auto r = c.Get((doc + "/versions").c_str());
  REQUIRE(r);
  REQUIRE(r->status == 200);
  Json all = BodyJson(r);
  REQUIRE(all.size() == labels.size());
  size_t last_major = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (labels[i].ends_with(".0")) last_major = i;
  }
  for (size_t i = 0; i < labels.size(); ++i) {
    CAPTURE(labels[i]);
    CHECK(all[i].contains("succinctProperties") == v.succinct_default);
    Json p = Flat(all[i]);
    CHECK(Get(p, v.Id("versionLabel")) == labels[i]);
    CHECK(Get(p, v.Id("versionSeriesId")) == series);
    CHECK(Get(p, v.Id("objectId")) == series + ";" + labels[i]);
    CHECK(Get(p, v.Id("isLatestVersion")) == (i + 1 == labels.size()));
    CHECK(Get(p, v.Id("isMajorVersion")) == labels[i].ends_with(".0"));
    CHECK(Get(p, v.Id("isLatestMajorVersion")) == (labels[i].ends_with(".0") && i == last_major));
    CHECK(Get(p, v.Id("isPrivateWorkingCopy")) == false);
    CHECK(Get(p, v.Id("isVersionSeriesCheckedOut")) == false);
    CHECK(Get(p, v.Id("versionSeriesCheckedOutId")).is_null());
    CHECK(Get(p, v.Id("versionSeriesCheckedOutBy")).is_null());
    CHECK(Get(p, v.Id("versionSeriesCheckedOutDate")).is_null());
    if (i == 0) {
      CHECK(Get(p, v.Id("checkinComment")).is_null());
    } else {
      CHECK(Get(p, v.Id("checkinComment")) == "c" + labels[i]);
    }
    // Each version keeps its own content.
    auto content = c.Get((v.Url() + "?cmisselector=content&objectId=" + series + ";" + labels[i]).c_str());
    REQUIRE(content);
    CHECK(content->body == "v" + labels[i]);
  }
  // The document's own file holds the latest version's content (docs/STORAGE.md).
  CHECK(ReadDiskFile(dir) == "v" + labels.back());
  CHECK(c.Get(doc.c_str())->body == "v" + labels.back());
}

TEST_CASE("Http versioning: history 1.0 -> 1.1 -> 2.0 -> 2.1 -> 3.0, exact properties, variants and encodings") {
  ServerFixture f;
  auto c = f.Client();
  const Step steps[] = {{false, "1.1", true}, {true, "2.0", false}, {false, "2.1", true}, {true, "3.0", true}};
  for (const Var& v : {kVarA, kVarB}) {
    for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
      CAPTURE(v.repo);
      CAPTURE(EncodingName(enc));
      const std::string name = std::string("h-") + EncodingName(enc) + ".txt";
      const std::string doc = v.Url() + "/docs/" + name;
      const std::string disk = f.dir() + "/demo/" + v.repo + "/docs/" + name;
      Json created = CreateDoc(c, v, name, "v1.0");
      const std::string series = Get(created, v.Id("versionSeriesId"));
      CHECK(Get(created, v.Id("versionLabel")) == "1.0");
      CHECK(Get(created, v.Id("isLatestMajorVersion")) == true);
      std::vector<std::string> labels = {"1.0"};
      CheckHistory(c, v, doc, series, labels, disk);
      int n = 0;
      for (const Step& s : steps) {
        CAPTURE(s.label);
        const bool by_path = n++ % 2 == 0;
        // checkOut by path: a working copy of the latest version.
        auto out = PostAs(c, doc, enc, {{"operation", "checkOut"}});
        REQUIRE(out);
        REQUIRE_MESSAGE(out->status == 201, out->body);
        Json out_body = BodyJson(out);
        CHECK(out_body.contains("succinctProperties") == v.succinct_default);
        Json pwc = Flat(out_body);
        const std::string pwc_id = Get(pwc, v.Id("objectId"));
        CHECK(pwc_id != series + ";" + labels.back());
        CHECK(Get(pwc, v.Id("isPrivateWorkingCopy")) == true);
        CHECK(Get(pwc, v.Id("isLatestVersion")) == false);
        CHECK(Get(pwc, v.Id("isMajorVersion")) == false);
        CHECK(Get(pwc, v.Id("isLatestMajorVersion")) == false);
        CHECK(Get(pwc, v.Id("versionSeriesId")) == series);
        CHECK(Get(pwc, v.Id("isVersionSeriesCheckedOut")) == true);
        CHECK(Get(pwc, v.Id("versionSeriesCheckedOutId")) == pwc_id);
        CHECK(Get(pwc, v.Id("versionSeriesCheckedOutBy")) == "anonymous");
        CHECK(Get(pwc, v.Id("versionSeriesCheckedOutDate")).is_number());
        CHECK(Get(pwc, v.Id("checkinComment")).is_null());
        CHECK(Get(pwc, v.Id("versionLabel")) == "pwc");
        // A path checks out the latest version: the working copy starts with its content.
        CHECK(c.Get((v.Url() + "?cmisselector=content&objectId=" + pwc_id).c_str())->body == "v" + labels.back());
        const Json co_date = Get(pwc, v.Id("versionSeriesCheckedOutDate"));
        // While checked out: every version shows the check-out; the working copy is last.
        Json all = BodyJson(c.Get((doc + "/versions?succinct=true").c_str()));
        REQUIRE(all.size() == labels.size() + 1);
        for (size_t i = 0; i < labels.size(); ++i) {
          const Json& p = all[i]["succinctProperties"];
          CHECK(p[v.Id("versionLabel")] == labels[i]);
          CHECK(p[v.Id("isVersionSeriesCheckedOut")] == true);
          CHECK(p[v.Id("versionSeriesCheckedOutId")] == pwc_id);
          CHECK(p[v.Id("versionSeriesCheckedOutBy")] == "anonymous");
          CHECK(p[v.Id("versionSeriesCheckedOutDate")] == co_date);
        }
        CHECK(all.back()["succinctProperties"][v.Id("objectId")] == pwc_id);
        CHECK(all.back()["succinctProperties"][v.Id("isPrivateWorkingCopy")] == true);
        // Rule 4: updates go to the working copy; the file still shows the latest version.
        auto upd = PostAs(c, v.Url(), enc, {{"operation", "update"}, {"objectId", pwc_id}},
                          Json{{v.Id("description"), std::string("d") + s.label}});
        REQUIRE(upd);
        CHECK_MESSAGE(upd->status == 200, upd->body);
        Upload up{std::string("v") + s.label, name, "text/plain"};
        if (enc != Encoding::kMultipart) {
          auto set = PostAs(c, v.Url(), Encoding::kMultipart,
                            {{"operation", "setContent"}, {"objectId", pwc_id}, {"overwriteFlag", "true"}},
                            Json::object(), &up);
          REQUIRE(set);
          CHECK_MESSAGE(set->status < 300, set->body);
        }
        CHECK(ReadDiskFile(disk) == "v" + labels.back());
        // checkIn, by path or by the working copy's id.
        std::vector<std::pair<std::string, std::string>> fields = {{"operation", "checkIn"},
                                                                   {"checkinComment", std::string("c") + s.label}};
        if (s.send_major) fields.emplace_back("major", s.major ? "true" : "false");
        if (!by_path) fields.emplace_back("objectId", pwc_id);
        auto in = PostAs(c, by_path ? doc : v.Url(), enc, fields,
                         Json{{v.Id("name"), name}, {v.Id("objectTypeId"), v.p + "document"}},
                         enc == Encoding::kMultipart ? &up : nullptr);
        REQUIRE(in);
        REQUIRE_MESSAGE(in->status == 201, in->body);
        Json in_body = BodyJson(in);
        CHECK(in_body.contains("succinctProperties") == v.succinct_default);
        Json ver = Flat(in_body);
        CHECK(Get(ver, v.Id("versionLabel")) == s.label);
        CHECK(Get(ver, v.Id("isLatestVersion")) == true);
        CHECK(Get(ver, v.Id("isMajorVersion")) == s.major);
        CHECK(Get(ver, v.Id("isLatestMajorVersion")) == s.major);
        CHECK(Get(ver, v.Id("isPrivateWorkingCopy")) == false);
        CHECK(Get(ver, v.Id("checkinComment")) == std::string("c") + s.label);
        CHECK(Get(ver, v.Id("description")) == std::string("d") + s.label);
        labels.push_back(s.label);
        // The working copy no longer exists.
        auto gone = c.Get((v.Url() + "?cmisselector=object&objectId=" + pwc_id).c_str());
        CHECK(gone->status == 404);
        CheckHistory(c, v, doc, series, labels, disk);
      }
      // Seed §3 rule 3 and the series id as a stable "latest" id.
      auto latest = BodyJson(c.Get((v.Url() + "?cmisselector=object&objectId=" + series).c_str()));
      CHECK(Get(Flat(latest), v.Id("versionLabel")) == "3.0");
      auto major = BodyJson(
          c.Get((v.Url() + "?cmisselector=object&returnVersion=latestmajor&objectId=" + series + ";1.1").c_str()));
      CHECK(Get(Flat(major), v.Id("versionLabel")) == "3.0");
    }
  }
}

TEST_CASE("Http versioning: a long history, its older labels archived, every version still served") {
  // series.json lists at most 3 labels (docs/STORAGE.md §4): most of this history is
  // in archive files.
  ServerConfig config;
  config.version_list_max = 3;
  ServerFixture f(config);
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/long.txt";
    const std::string disk = f.dir() + "/demo/" + v.repo + "/docs/long.txt";
    Json created = CreateDoc(c, v, "long.txt", "v1.0");
    const std::string series = Get(created, v.Id("versionSeriesId"));
    std::vector<std::string> labels = {"1.0"};
    // 1.1 ... 1.5, 2.0, 2.1 ... 2.4: the latest major version ends up archived too.
    for (int i = 0; i < 10; ++i) {
      const bool major = i == 5;
      auto out = PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}});
      REQUIRE(out);
      REQUIRE_MESSAGE(out->status == 201, out->body);
      const std::string label = major ? "2.0" : (i < 5 ? "1." + std::to_string(i + 1) : "2." + std::to_string(i - 5));
      Upload up{"v" + label, "long.txt", "text/plain"};
      auto in = PostAs(c, doc, Encoding::kMultipart,
                       {{"operation", "checkIn"}, {"checkinComment", "c" + label}, {"major", major ? "true" : "false"}},
                       Json::object(), &up);
      REQUIRE(in);
      REQUIRE_MESSAGE(in->status == 201, in->body);
      CHECK(Get(Flat(BodyJson(in)), v.Id("versionLabel")) == label);
      labels.push_back(label);
    }
    CheckHistory(c, v, doc, series, labels, disk);
    auto major = BodyJson(
        c.Get((v.Url() + "?cmisselector=object&returnVersion=latestmajor&objectId=" + series).c_str()));
    CHECK(Get(Flat(major), v.Id("versionLabel")) == "2.0");
    // An archived version alone deleted; the others unchanged.
    auto del = PostAs(c, v.Url(), Encoding::kUrlencoded,
                      {{"operation", "delete"}, {"objectId", series + ";1.2"}, {"allVersions", "false"}});
    REQUIRE(del);
    CHECK_MESSAGE(del->status == 200, del->body);
    labels.erase(std::find(labels.begin(), labels.end(), "1.2"));
    CheckHistory(c, v, doc, series, labels, disk);
    CHECK(c.Get((v.Url() + "?cmisselector=object&objectId=" + series + ";1.2").c_str())->status == 404);
    // A query over all versions finds the archived ones (the index reads them too).
    auto q = c.Get((v.Url() + "?cmisselector=query&searchAllVersions=true&succinct=true&q=" +
                    httplib::detail::encode_query_param("SELECT " + v.p + "versionLabel FROM " + v.p +
                                                        "document WHERE " + v.p + "name = 'long.txt'"))
                       .c_str());
    REQUIRE(q);
    REQUIRE_MESSAGE(q->status == 200, q->body);
    std::vector<std::string> found;
    const Json answer = BodyJson(q);
    for (const Json& r : answer["results"]) {
      found.push_back(r["succinctProperties"].value(v.Id("versionLabel"), std::string("<missing>")));
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> want = labels;
    std::sort(want.begin(), want.end());
    CHECK(found == want);
  }
}

TEST_CASE("Http versioning: created minor, checked out and unversioned; check-in from 0.1") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    // major (the default) -> 1.0 and minor -> 0.1 (docs/API.md §6.4); from 0.1 a minor
    // check-in gives 0.2, a major one 1.0.
    Json major = CreateDoc(c, v, "m.txt", "m");
    CHECK(Get(major, v.Id("versionLabel")) == "1.0");
    CHECK(Get(major, v.Id("isMajorVersion")) == true);
    Json m2 = CreateDoc(c, v, "m2.txt", "m", "minor");
    CHECK(Get(m2, v.Id("versionLabel")) == "0.1");
    CHECK(Get(m2, v.Id("isMajorVersion")) == false);
    CHECK(Get(m2, v.Id("isLatestVersion")) == true);
    CHECK(Get(m2, v.Id("isLatestMajorVersion")) == false);
    const std::string m2_id = Get(m2, v.Id("objectId"));
    auto no_major = c.Get((v.Url() + "?cmisselector=object&returnVersion=latestmajor&objectId=" + m2_id).c_str());
    CHECK(no_major->status == 404);
    auto pwc = Flat(BodyJson(PostAs(c, v.Url() + "/docs/m2.txt", Encoding::kJson, {{"operation", "checkOut"}})));
    auto v02 = PostAs(c, v.Url(), Encoding::kJson,
                      {{"operation", "checkIn"}, {"objectId", Get(pwc, v.Id("objectId"))}, {"major", "false"}});
    CHECK(Get(Flat(BodyJson(v02)), v.Id("versionLabel")) == "0.2");
    pwc = Flat(BodyJson(PostAs(c, v.Url() + "/docs/m2.txt", Encoding::kJson, {{"operation", "checkOut"}})));
    auto v10 =
        PostAs(c, v.Url(), Encoding::kJson, {{"operation", "checkIn"}, {"objectId", Get(pwc, v.Id("objectId"))}});
    Json p10 = Flat(BodyJson(v10));
    CHECK(Get(p10, v.Id("versionLabel")) == "1.0");
    CHECK(Get(p10, v.Id("isLatestMajorVersion")) == true);

    // checkedout -> the working copy is returned; checking it in makes the first version.
    Json co = CreateDoc(c, v, "co.txt", "draft", "checkedout");
    CHECK(Get(co, v.Id("isPrivateWorkingCopy")) == true);
    const std::string co_id = Get(co, v.Id("objectId"));
    auto listed = BodyJson(c.Get((v.Url() + "?cmisselector=checkedout&succinct=true").c_str()));
    REQUIRE(listed["objects"].size() == 1);
    CHECK(listed["objects"][0]["succinctProperties"][v.Id("objectId")] == co_id);
    CHECK(listed["numItems"] == 1);
    CHECK(listed["hasMoreItems"] == false);
    auto first = PostAs(c, v.Url(), Encoding::kJson, {{"operation", "checkIn"}, {"objectId", co_id}});
    REQUIRE(first);
    CHECK(first->status == 201);
    CHECK(Get(Flat(BodyJson(first)), v.Id("versionLabel")) == "1.0");
    CHECK(c.Get((v.Url() + "/docs/co.txt").c_str())->body == "draft");

    // none -> not versioned; checkOut is constraint.
    Json none = CreateDoc(c, v, "n.txt", "n", "none");
    CHECK(Get(none, v.Id("versionLabel")).is_null());
    auto refused = PostAs(c, v.Url() + "/docs/n.txt", Encoding::kJson, {{"operation", "checkOut"}});
    CHECK(refused->status == 409);
    CHECK(ErrorName(refused) == "constraint");
    CHECK(ErrorMessage(refused).find("n.txt") != std::string::npos);
  }
}

TEST_CASE("Http versioning: checking out an earlier version by objectId and checking it in restores it") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/r.txt";
    Json v1 = CreateDoc(c, v, "r.txt", "original");
    const std::string v1_id = Get(v1, v.Id("objectId"));
    REQUIRE(PostAs(c, v.Url(), Encoding::kJson, {{"operation", "update"}, {"objectId", v1_id}},
                   Json{{v.Id("description"), "first"}})
                ->status == 200);
    // 2.0 with other content and description.
    auto pwc = Flat(BodyJson(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})));
    Upload up{"changed", "r.txt", "text/plain"};
    auto v2 =
        PostAs(c, v.Url(), Encoding::kMultipart, {{"operation", "checkIn"}, {"objectId", Get(pwc, v.Id("objectId"))}},
               Json{{v.Id("description"), "second"}}, &up);
    REQUIRE(v2->status == 201);
    CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/r.txt") == "changed");
    Json before = Flat(BodyJson(c.Get((v.Url() + "?cmisselector=object&succinct=true&objectId=" + v1_id).c_str())));
    // checkOut by objectId: exactly 1.0, not the latest.
    auto old = PostAs(c, v.Url(), Encoding::kUrlencoded, {{"operation", "checkOut"}, {"objectId", v1_id}});
    REQUIRE(old->status == 201);
    Json old_pwc = Flat(BodyJson(old));
    CHECK(Get(old_pwc, v.Id("description")) == "first");
    CHECK(
        c.Get((v.Url() + "?cmisselector=content&objectId=" + Get(old_pwc, v.Id("objectId")).get<std::string>()).c_str())
            ->body == "original");
    // A series id as objectId is the latest version (docs/API.md §3.2–§3.3): the working copy of 2.0.
    auto by_series = PostAs(c, v.Url(), Encoding::kJson,
                            {{"operation", "cancelCheckOut"}, {"objectId", Get(old_pwc, v.Id("objectId"))}});
    REQUIRE(by_series->status == 200);
    auto latest_out = PostAs(c, v.Url(), Encoding::kJson,
                             {{"operation", "checkOut"}, {"objectId", Get(v1, v.Id("versionSeriesId"))}});
    REQUIRE(latest_out->status == 201);
    CHECK(latest_out->get_header_value("Location").find("objectId=") != std::string::npos);
    CHECK(Get(Flat(BodyJson(latest_out)), v.Id("description")) == "second");
    REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "cancelCheckOut"}})->status == 200);
    old = PostAs(c, v.Url(), Encoding::kMultipart, {{"operation", "checkOut"}, {"objectId", v1_id}});
    REQUIRE(old->status == 201);
    old_pwc = Flat(BodyJson(old));
    auto restored =
        PostAs(c, v.Url(), Encoding::kJson,
               {{"operation", "checkIn"}, {"objectId", Get(old_pwc, v.Id("objectId"))}, {"succinct", "true"}});
    REQUIRE(restored->status == 201);
    Json after = BodyJson(restored)["succinctProperties"];
    CHECK(after[v.Id("versionLabel")] == "3.0");
    for (const char* id : {"name", "description", "objectTypeId", "contentStreamLength", "contentStreamMimeType",
                           "contentStreamFileName", "versionSeriesId"}) {
      CAPTURE(id);
      CHECK(after[v.Id(id)] == before[v.Id(id)]);
    }
    CHECK(c.Get(doc.c_str())->body == "original");
    CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/r.txt") == "original");
  }
}

TEST_CASE("Http versioning: cancelCheckOut discards pending changes; updates of a version make no version") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    for (Encoding enc : {Encoding::kJson, Encoding::kMultipart, Encoding::kUrlencoded}) {
      CAPTURE(v.repo);
      CAPTURE(EncodingName(enc));
      const std::string name = std::string("k-") + EncodingName(enc) + ".txt";
      const std::string doc = v.Url() + "/docs/" + name;
      Json d = CreateDoc(c, v, name, "keep");
      const std::string id = Get(d, v.Id("objectId"));
      // Seed §3 last row and §9 rule 5: updates of a version never create one.
      REQUIRE(PostAs(c, v.Url(), enc, {{"operation", "update"}, {"objectId", id}}, Json{{v.Id("description"), "plain"}})
                  ->status == 200);
      Upload up{"new bytes", name, "text/plain"};
      REQUIRE(PostAs(c, v.Url(), Encoding::kMultipart,
                     {{"operation", "setContent"}, {"objectId", id}, {"overwriteFlag", "true"}}, Json::object(), &up)
                  ->status < 300);
      Json all = BodyJson(c.Get((doc + "/versions").c_str()));
      REQUIRE(all.size() == 1);
      CHECK(Get(Flat(all[0]), v.Id("versionLabel")) == "1.0");
      CHECK(Get(Flat(all[0]), v.Id("description")) == "plain");
      CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/" + name) == "new bytes");
      // Check out, change the working copy, cancel (by path on every other encoding).
      auto pwc = Flat(BodyJson(PostAs(c, doc, enc, {{"operation", "checkOut"}})));
      const std::string pwc_id = Get(pwc, v.Id("objectId"));
      Upload draft{"draft", name, "text/plain"};
      REQUIRE(PostAs(c, v.Url(), Encoding::kMultipart,
                     {{"operation", "setContent"}, {"objectId", pwc_id}, {"overwriteFlag", "true"}}, Json::object(),
                     &draft)
                  ->status < 300);
      REQUIRE(PostAs(c, v.Url(), enc, {{"operation", "update"}, {"objectId", pwc_id}},
                     Json{{v.Id("description"), "pending"}})
                  ->status == 200);
      auto cancel = enc == Encoding::kMultipart
                        ? PostAs(c, doc, enc, {{"operation", "cancelCheckOut"}})
                        : PostAs(c, v.Url(), enc, {{"operation", "cancelCheckOut"}, {"objectId", pwc_id}});
      REQUIRE(cancel);
      CHECK(cancel->status == 200);
      CHECK(cancel->body.empty());
      CHECK(c.Get((v.Url() + "?cmisselector=object&objectId=" + pwc_id).c_str())->status == 404);
      all = BodyJson(c.Get((doc + "/versions").c_str()));
      REQUIRE(all.size() == 1);
      Json p = Flat(all[0]);
      CHECK(Get(p, v.Id("description")) == "plain");
      CHECK(Get(p, v.Id("isVersionSeriesCheckedOut")) == false);
      CHECK(Get(p, v.Id("versionSeriesCheckedOutId")).is_null());
      CHECK(c.Get(doc.c_str())->body == "new bytes");
      CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/" + name) == "new bytes");
    }
  }
}

TEST_CASE("Http versioning: getAllVersions targets, order, filter and succinct") {
  for (const bool newest_first : {false, true}) {
    CAPTURE(newest_first);
    ServerConfig config;
    config.service.versions_newest_first = newest_first;
    ServerFixture f(config);
    auto c = f.Client();
    for (const Var& v : {kVarA, kVarB}) {
      CAPTURE(v.repo);
      const std::string doc = v.Url() + "/docs/readme.txt";
      auto pwc = Flat(BodyJson(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})));
      REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "checkIn"}, {"major", "false"}})->status == 201);
      pwc = Flat(BodyJson(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})));
      const std::string pwc_id = Get(pwc, v.Id("objectId"));
      const std::string series = Get(pwc, v.Id("versionSeriesId"));
      const std::vector<std::string> oldest_first = {"1.0", "1.1", "pwc"};
      const std::string q = "succinct=true&filter=" + v.Id("objectId") + "," + v.Id("isPrivateWorkingCopy");
      for (const std::string& url :
           {doc + "/versions?" + q, doc + "?operation=versions&" + q, doc + "?cmisselector=getAllVersions&" + q,
            v.Url() + "?operation=versions&objectId=" + series + ";1.0&" + q,
            v.Url() + "?cmisselector=versions&objectId=" + pwc_id + "&" + q,
            v.Url() + "?cmisselector=versions&versionSeriesId=" + series + "&" + q}) {
        CAPTURE(url);
        auto r = c.Get(url.c_str());
        REQUIRE(r);
        REQUIRE(r->status == 200);
        Json all = BodyJson(r);
        REQUIRE(all.is_array());
        REQUIRE(all.size() == 3);
        for (size_t i = 0; i < 3; ++i) {
          const std::string& label = oldest_first[newest_first ? 2 - i : i];
          const Json& p = all[i]["succinctProperties"];
          CHECK(p.size() == 2);  // the filter
          CHECK(p[v.Id("objectId")] == series + ";" + label);
          CHECK(p[v.Id("isPrivateWorkingCopy")] == (label == "pwc"));
        }
      }
      // succinct=false gives the detailed form in both variants.
      Json detailed = BodyJson(c.Get((doc + "/versions?succinct=false").c_str()));
      CHECK(detailed[0]["properties"][v.Id("versionLabel")]["value"].is_string());
      CHECK(detailed[0]["properties"][v.Id("versionLabel")]["id"] == v.Id("versionLabel"));
      REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "cancelCheckOut"}})->status == 200);
    }
  }
}

// getAllVersions gives the JSON of an earlier version again while its record, its
// series and its types are as they were (api/kept_versions.h): each answer must still be
// what getObject of each version says, whatever changed in between.
TEST_CASE("Http versioning: getAllVersions is what getObject of each version says, after every change") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    auto made = c.Post(("/demo/" + v.repo).c_str(),
                       Json{{"operation", "createType"},
                            {"type", {{"id", "acme:kept"}, {"parentId", v.p + "document"},
                                      {"propertyDefinitions", {{"acme:note", {{"propertyType", "string"}}}}}}}}
                           .dump(),
                       "application/json");
    REQUIRE(made);
    REQUIRE_MESSAGE(made->status == 201, made->body);
    Upload up{"one", "kept.txt", "text/plain"};
    auto d = PostAs(c, v.Url() + "/docs", Encoding::kMultipart, {{"operation", "createObject"}},
                    Json{{v.Id("name"), "kept.txt"}, {v.Id("objectTypeId"), "acme:kept"}, {"acme:note", "first"}}, &up);
    REQUIRE(d);
    REQUIRE_MESSAGE(d->status == 201, d->body);
    const std::string doc = v.Url() + "/docs/kept.txt";
    for (int i = 0; i < 2; ++i) {
      REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})->status == 201);
      REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "checkIn"}, {"major", "false"}})->status == 201);
    }
    // Every entry is getObject's answer for its id (the same form and options).
    const auto same_as_each = [&](const std::string& options) {
      auto r = c.Get((doc + "/versions?" + options).c_str());
      REQUIRE(r);
      REQUIRE_MESSAGE(r->status == 200, r->body);
      const Json all = BodyJson(r);
      REQUIRE(all.size() >= 3);
      for (const Json& entry : all) {
        const std::string id = Get(Flat(entry), v.Id("objectId"));
        CAPTURE(id);
        auto one = c.Get((v.Url() + "?cmisselector=object&objectId=" + id + "&" + options).c_str());
        REQUIRE(one);
        REQUIRE(one->status == 200);
        CHECK(BodyJson(one) == entry);
      }
      return all;
    };
    for (const std::string& options :
         std::vector<std::string>{"succinct=true", "succinct=false", "succinct=true&dateTimeFormat=extended",
                                  "succinct=true&filter=" + v.Id("objectId") + ",acme:note"}) {
      CAPTURE(options);
      const Json first = same_as_each(options);
      CHECK(same_as_each(options) == first);  // made of what the first kept
    }
    const std::string records = f.dir() + "/demo/" + v.repo + "/docs/.folio/docs/kept.txt/";
    // An earlier version's record edited by hand: its next answer says what it says.
    const std::string original = ReadDiskFile(records + "1.1.json");
    Json edited = Json::parse(original);
    edited["properties"]["acme:note"] = "by hand";
    { std::ofstream(records + "1.1.json", std::ios::trunc) << edited.dump(); }
    Json all = same_as_each("succinct=true");
    CHECK(Get(Flat(all[1]), "acme:note") == "by hand");
    CHECK(Get(Flat(all[0]), "acme:note") == "first");
    // Damaged: refused, not answered from what was kept; mended: answered again.
    { std::ofstream(records + "1.1.json", std::ios::trunc) << "{\"label\": "; }
    auto damaged = c.Get((doc + "/versions?succinct=true").c_str());
    REQUIRE(damaged);
    CHECK(damaged->status == 500);
    CHECK(ErrorName(damaged) == "storage");
    CHECK_MESSAGE(ErrorMessage(damaged).find("1.1.json") != std::string::npos, ErrorMessage(damaged));
    { std::ofstream(records + "1.1.json", std::ios::trunc) << original; }
    all = same_as_each("succinct=true");
    CHECK(Get(Flat(all[1]), "acme:note") == "first");
    // A check-out changes what every version says of its series.
    REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})->status == 201);
    all = same_as_each("succinct=true");
    REQUIRE(all.size() == 4);
    for (const Json& entry : all) CHECK(Get(Flat(entry), v.Id("isVersionSeriesCheckedOut")) == true);
    REQUIRE(PostAs(c, doc, Encoding::kJson, {{"operation", "cancelCheckOut"}})->status == 200);
    // The type's definition changed: the detailed form of every version shows it.
    auto type = c.Get((v.Url() + "?cmisselector=typeDefinition&typeId=acme:kept").c_str());
    REQUIRE(type);
    REQUIRE(type->status == 200);
    Json t = BodyJson(type);
    t["propertyDefinitions"]["acme:note"]["displayName"] = "Shown";
    auto updated = c.Post(("/demo/" + v.repo).c_str(), Json{{"operation", "updateType"}, {"type", t}}.dump(),
                          "application/json");
    REQUIRE(updated);
    REQUIRE_MESSAGE(updated->status == 200, updated->body);
    all = same_as_each("succinct=false");
    for (const Json& entry : all) CHECK(entry["properties"]["acme:note"]["displayName"] == "Shown");
  }
}

TEST_CASE("Http versioning: a getAllVersions answer of megabytes is whole and the same each time, its buffer used again") {
  ServerFixture f;
  auto c = f.Client();
  auto repo = f.store().GetRepository("demo", "alpha");
  REQUIRE(repo.ok());
  Repository& r = **repo;
  auto doc = r.GetObjectByPath("/docs/readme.txt");
  REQUIRE(doc.ok());
  constexpr int kCheckIns = 300;
  for (int i = 0; i < kCheckIns; ++i) {
    auto pwc = r.CheckOut(doc->id, "alice", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    CheckInRequest in;
    in.major = false;
    in.comment = "check-in " + std::to_string(i);
    REQUIRE(r.CheckIn(pwc->id, in, "alice", WriteCheck::Trusted()).ok());
  }
  const std::string url = "/demo/alpha/docs/readme.txt/versions?succinct=false";
  auto first = c.Get(url.c_str());
  REQUIRE(first);
  REQUIRE_MESSAGE(first->status == 200, first->body.substr(0, 300));
  // Large enough to be sent from a buffer given back afterwards (api/answer_buffers.h).
  REQUIRE(first->body.size() >= api::AnswerBuffers::kMinBytes);
  CHECK(first->get_header_value("Content-Length") == std::to_string(first->body.size()));
  CHECK(first->get_header_value("Content-Type").find("application/json") == 0);
  const Json all = BodyJson(first);
  REQUIRE(all.size() == kCheckIns + 1);
  CHECK(Get(Flat(all[0]), "versionLabel") == "1.0");
  CHECK(Get(Flat(all[kCheckIns]), "versionLabel") == "1." + std::to_string(kCheckIns));
  CHECK(Get(Flat(all[kCheckIns]), "checkinComment") == "check-in " + std::to_string(kCheckIns - 1));
  // The buffer it was sent from is kept, whole, for the next large answer.
  std::string kept = api::AnswerBuffers::Shared().Take();
  CHECK(kept.capacity() >= first->body.size());
  CHECK(kept.empty());
  api::AnswerBuffers::Shared().Give(std::move(kept));
  // Answered again (from a buffer written before, and from the versions' kept JSON):
  // byte for byte the same, alone and beside other requests; HEAD sends no body.
  for (int i = 0; i < 3; ++i) {
    auto again = c.Get(url.c_str());
    REQUIRE(again);
    REQUIRE(again->status == 200);
    CHECK(again->body == first->body);
    auto one = c.Get(("/demo/alpha?cmisselector=object&objectId=" + Get(Flat(all[1]), "objectId").get<std::string>())
                         .c_str());
    REQUIRE(one);
    CHECK(one->status == 200);
  }
  auto head = c.Head(url.c_str());
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  // A change shows in the next answer, which is whole again.
  auto pwc = r.CheckOut(doc->id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  auto changed = c.Get(url.c_str());
  REQUIRE(changed);
  REQUIRE(changed->status == 200);
  CHECK(changed->get_header_value("Content-Length") == std::to_string(changed->body.size()));
  const Json now = BodyJson(changed);
  REQUIRE(now.size() == kCheckIns + 2);
  for (const Json& entry : now) CHECK(Get(Flat(entry), "isVersionSeriesCheckedOut") == true);
}

TEST_CASE("Http versioning: checkedout at repository and folder level; returnVersion; CmisJS latest") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/readme.txt";
    const std::string series =
        Get(Flat(BodyJson(c.Get((doc + "?cmisselector=object").c_str()))), v.Id("versionSeriesId"));
    // Nothing checked out.
    Json none = BodyJson(c.Get((v.Url() + "?operation=checkedout").c_str()));
    CHECK(none["objects"].empty());
    CHECK(none["numItems"] == 0);
    CHECK(none["hasMoreItems"] == false);
    auto pwc = Flat(BodyJson(PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}})));
    const std::string pwc_id = Get(pwc, v.Id("objectId"));
    for (const std::string& url :
         {v.Url() + "?operation=checkedout", v.Url() + "?cmisselector=checkedOut",
          v.Url() + "/docs?operation=checkedout", v.Url() + "?cmisselector=getCheckedOutDocs"}) {
      CAPTURE(url);
      auto r = c.Get(url.c_str());
      REQUIRE(r);
      REQUIRE(r->status == 200);
      Json list = BodyJson(r);
      REQUIRE(list["objects"].size() == 1);
      CHECK(list["objects"][0].contains("succinctProperties") == v.succinct_default);
      CHECK(Get(Flat(list["objects"][0]), v.Id("objectId")) == pwc_id);
      CHECK(list["numItems"] == 1);
      CHECK(list["hasMoreItems"] == false);
    }
    // The root folder holds no checked-out document directly.
    const std::string root = BodyJson(c.Get(v.Url().c_str()))[v.repo]["rootFolderId"];
    Json at_root = BodyJson(c.Get((v.Url() + "?operation=checkedout&objectId=" + root).c_str()));
    CHECK(at_root["numItems"] == 0);
    // A minor check-in, then returnVersion and CmisJS's getObjectOfLatestVersion.
    REQUIRE(PostAs(c, v.Url(), Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}, {"major", "false"}})
                ->status == 201);
    auto label_of = [&](const std::string& url) {
      auto r = c.Get(url.c_str());
      REQUIRE(r);
      CHECK_MESSAGE(r->status == 200, r->body);
      return Get(Flat(BodyJson(r)), v.Id("versionLabel"));
    };
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series + ";1.0&returnVersion=latest") == "1.1");
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series + ";1.1&returnVersion=latestmajor") == "1.0");
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series + ";1.0") == "1.0");
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series) == "1.1");
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series + "&versionSeriesId=" + series) == "1.1");
    CHECK(label_of(v.Url() + "?cmisselector=object&objectId=" + series + "&versionSeriesId=" + series +
                   "&major=true") == "1.0");
    CHECK(label_of(v.Url() + "?cmisselector=object&versionSeriesId=" + series) == "1.1");
    CHECK(label_of(doc + "?cmisselector=object&returnVersion=latestmajor") == "1.0");
  }
}

TEST_CASE("Http versioning: checkIn ACEs are stored with the series and returned by getACL") {
  ServerFixture f;
  auto c = f.Client();
  auto has = [](const Json& acl, const std::string& principal, const std::string& permission) {
    for (const Json& ace : acl["aces"]) {
      if (ace["principal"]["principalId"] != principal) continue;
      for (const Json& p : ace["permissions"]) {
        if (p == permission) return true;
      }
    }
    return false;
  };
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/readme.txt";
    // JSON arrays.
    PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}});
    Json body = {{"operation", "checkIn"},
                 {"addACEs", Json::array({{{"principal", {{"principalId", "bob"}}}, {"permissions", {"cmis:read"}}}})}};
    auto in = c.Post(doc.c_str(), body.dump(), "application/json");
    REQUIRE(in);
    REQUIRE_MESSAGE(in->status == 201, in->body);
    const std::string v2 = Get(Flat(BodyJson(in)), v.Id("objectId"));
    auto acl = c.Get((v.Url() + "?cmisselector=acl&objectId=" + v2).c_str());
    REQUIRE(acl);
    REQUIRE(acl->status == 200);
    CHECK(has(BodyJson(acl), "bob", "cmis:read"));
    // The CMIS form convention, removing bob and adding carol.
    PostAs(c, doc, Encoding::kUrlencoded, {{"operation", "checkOut"}});
    auto in2 = PostAs(c, doc, Encoding::kMultipart,
                      {{"operation", "checkIn"},
                       {"addACEPrincipal[0]", "carol"},
                       {"addACEPermission[0][0]", "cmis:write"},
                       {"removeACEPrincipal[0]", "bob"},
                       {"removeACEPermission[0][0]", "cmis:read"}});
    REQUIRE(in2);
    REQUIRE_MESSAGE(in2->status == 201, in2->body);
    const std::string v3 = Get(Flat(BodyJson(in2)), v.Id("objectId"));
    Json acl3 = BodyJson(c.Get((v.Url() + "?cmisselector=acl&objectId=" + v3).c_str()));
    CHECK(has(acl3, "carol", "cmis:write"));
    CHECK_FALSE(has(acl3, "bob", "cmis:read"));
    // A version series shares its ACL (docs/API.md §11.3): the earlier version has the
    // entries the second check-in set.
    Json acl2 = BodyJson(c.Get((v.Url() + "?cmisselector=acl&objectId=" + v2).c_str()));
    CHECK(has(acl2, "carol", "cmis:write"));
    CHECK_FALSE(has(acl2, "bob", "cmis:read"));
  }
}

TEST_CASE("Http versioning: --strict variant B checkIn needs name and type id") {
  ServerConfig config;
  config.service.strict = true;
  ServerFixture f(config);
  auto c = f.Client();
  auto pwc = Flat(BodyJson(PostAs(c, "/demo/beta/docs/readme.txt", Encoding::kJson, {{"operation", "checkOut"}})));
  const std::string pwc_id = Get(pwc, "cmis:objectId");
  auto bare = PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}});
  CHECK(bare->status == 400);
  CHECK(ErrorName(bare) == "invalidArgument");
  CHECK(ErrorMessage(bare).find("cmis:name") != std::string::npos);
  auto half = PostAs(c, "/demo/beta", Encoding::kMultipart, {{"operation", "checkIn"}, {"objectId", pwc_id}},
                     Json{{"cmis:name", "readme.txt"}});
  CHECK(half->status == 400);
  CHECK(ErrorMessage(half).find("cmis:objectTypeId") != std::string::npos);
  auto full =
      PostAs(c, "/demo/beta", Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}},
             Json{{"cmis:name", "readme.txt"}, {"cmis:objectTypeId", "cmis:document"}, {"cmis:description", "x"}});
  CHECK_MESSAGE(full->status == 201, full->body);
  // Variant A: properties stay optional under --strict.
  auto a = Flat(BodyJson(PostAs(c, "/demo/alpha/docs/readme.txt", Encoding::kJson, {{"operation", "checkOut"}})));
  auto in_a = PostAs(c, "/demo/alpha", Encoding::kJson, {{"operation", "checkIn"}, {"objectId", Get(a, "objectId")}});
  CHECK(in_a->status == 201);
}

}  // namespace
}  // namespace folio::testing
