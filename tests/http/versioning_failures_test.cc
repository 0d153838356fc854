// Versioning failures over HTTP (docs/API.md §6, §8) and concurrency (issue 4 §4):
// exception names, statuses and messages; 50 simultaneous checkOuts; checkIn racing
// cancelCheckOut; concurrent check-ins of different series.
#include <atomic>
#include <thread>
#include <vector>

#include "http/versioning_support.h"

namespace folio::testing {
namespace {

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The exception name of a response body, "" for a body that is not an error object.
std::string ExceptionOf(const std::string& body) {
  Json j = Json::parse(body, nullptr, false);
  return j.is_object() ? j.value("exception", "") : "";
}

TEST_CASE("Http versioning failures: exceptions, statuses and messages naming the document") {
  ServerFixture f;
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/readme.txt";
    const std::string series =
        Get(Flat(BodyJson(c.Get((doc + "?cmisselector=object").c_str()))), v.Id("versionSeriesId"));
    const std::string v1 = series + ";1.0";

    // checkIn / cancelCheckOut of something that is not a working copy: versioning.
    for (const char* op : {"checkIn", "cancelCheckOut"}) {
      CAPTURE(op);
      auto by_id = PostAs(c, v.Url(), Encoding::kJson, {{"operation", op}, {"objectId", v1}});
      CHECK(by_id->status == 409);
      CHECK(ErrorName(by_id) == "versioning");
      CHECK(Has(ErrorMessage(by_id), v1));
      auto by_path = PostAs(c, doc, Encoding::kUrlencoded, {{"operation", op}});
      CHECK(by_path->status == 409);
      CHECK(ErrorName(by_path) == "versioning");
      CHECK(Has(ErrorMessage(by_path), "readme.txt"));
      auto folder = PostAs(c, v.Url() + "/docs", Encoding::kJson, {{"operation", op}});
      CHECK(folder->status == 409);
      CHECK(ErrorName(folder) == "versioning");
    }

    // A second checkOut of a checked-out series: versioning, naming the document and the holder.
    auto first = PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}});
    REQUIRE(first->status == 201);
    const std::string pwc_id = Get(Flat(BodyJson(first)), v.Id("objectId"));
    for (const std::string& target : {doc, v.Url() + "?objectId=" + v1, v.Url() + "?objectId=" + pwc_id}) {
      CAPTURE(target);
      auto again = PostAs(c, target, Encoding::kMultipart, {{"operation", "checkOut"}});
      CHECK(again->status == 409);
      CHECK(ErrorName(again) == "versioning");
      CHECK(Has(ErrorMessage(again), "readme.txt"));
      CHECK(Has(ErrorMessage(again), "anonymous"));
    }

    // Updating a versioning property directly: constraint naming it (docs/API.md §6.4).
    for (const char* prop : {"versionLabel", "isLatestVersion", "versionSeriesCheckedOutBy", "isPrivateWorkingCopy"}) {
      CAPTURE(prop);
      for (const std::string& id : {v1, pwc_id}) {
        auto upd = PostAs(
            c, v.Url(), Encoding::kJson, {{"operation", "update"}, {"objectId", id}},
            Json{{v.Id(prop), prop == std::string("versionLabel") || prop == std::string("versionSeriesCheckedOutBy")
                                  ? Json("9.9")
                                  : Json(true)}});
        CHECK(upd->status == 409);
        CHECK(ErrorName(upd) == "constraint");
        CHECK(Has(ErrorMessage(upd), prop));
      }
    }

    // A second checkIn of the same working copy: objectNotFound (it no longer exists).
    REQUIRE(PostAs(c, v.Url(), Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}})->status == 201);
    auto second = PostAs(c, v.Url(), Encoding::kJson, {{"operation", "checkIn"}, {"objectId", pwc_id}});
    CHECK(second->status == 404);
    CHECK(ErrorName(second) == "objectNotFound");
    CHECK(Has(ErrorMessage(second), pwc_id));
    auto cancel = PostAs(c, v.Url(), Encoding::kJson, {{"operation", "cancelCheckOut"}, {"objectId", pwc_id}});
    CHECK(cancel->status == 404);
    CHECK(ErrorName(cancel) == "objectNotFound");
    CHECK(BodyJson(c.Get((doc + "/versions").c_str())).size() == 2);

    // checkOut of a folder, an item, a relationship, an unversioned document: constraint.
    auto item = PostAs(c, v.Url() + "/docs", Encoding::kJson, {{"operation", "createObject"}},
                       Json{{v.Id("name"), "it"}, {v.Id("objectTypeId"), v.p + "item"}});
    REQUIRE_MESSAGE(item->status == 201, item->body);
    const std::string item_id = Get(Flat(BodyJson(item)), v.Id("objectId"));
    auto rel = PostAs(c, v.Url(), Encoding::kJson, {{"operation", "createRelationship"}},
                      Json{{v.Id("name"), "rel"},
                           {v.Id("objectTypeId"), v.p + "relationship"},
                           {v.Id("sourceId"), v1},
                           {v.Id("targetId"), item_id}});
    REQUIRE_MESSAGE(rel->status == 201, rel->body);
    const std::string rel_id = Get(Flat(BodyJson(rel)), v.Id("objectId"));
    CreateDoc(c, v, "plain.txt", "p", "none");
    const std::string docs_id =
        Get(Flat(BodyJson(c.Get((v.Url() + "/docs?cmisselector=object").c_str()))), v.Id("objectId"));
    struct Case {
      std::string target, named;
    };
    for (const Case& k :
         {Case{v.Url() + "?objectId=" + docs_id, docs_id}, Case{v.Url() + "/docs/it", item_id},
          Case{v.Url() + "?objectId=" + rel_id, rel_id}, Case{v.Url() + "/docs/plain.txt", "plain.txt"}}) {
      CAPTURE(k.target);
      auto r = PostAs(c, k.target, Encoding::kJson, {{"operation", "checkOut"}});
      CHECK(r->status == 409);
      CHECK(ErrorName(r) == "constraint");
      CHECK(Has(ErrorMessage(r), k.named));
    }
    // getAllVersions of a folder: invalidArgument (docs/API.md §7.10).
    auto folder_versions = c.Get((v.Url() + "/docs?operation=versions").c_str());
    CHECK(folder_versions->status == 400);
    CHECK(ErrorName(folder_versions) == "invalidArgument");
    // checkIn and checkOut are writes: GET is refused.
    CHECK(c.Get((doc + "?operation=checkOut").c_str())->status == 405);
  }
}

TEST_CASE("Http versioning: 50 simultaneous checkOuts of one document, exactly one wins") {
  ServerConfig config;
  config.http.threads = 8;
  ServerFixture f(config);
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    std::atomic<int> created{0}, versioning{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 50; ++i) {
      threads.emplace_back([&, i] {
        auto c = f.Client();
        auto r = PostAs(c, v.Url() + "/docs/readme.txt", static_cast<Encoding>(i % 3), {{"operation", "checkOut"}});
        if (!r) {
          ++other;
        } else if (r->status == 201) {
          ++created;
        } else if (r->status == 409 && ExceptionOf(r->body) == "versioning") {
          ++versioning;
        } else {
          ++other;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    CHECK(created == 1);
    CHECK(versioning == 49);
    CHECK(other == 0);
    auto c = f.Client();
    CHECK(BodyJson(c.Get((v.Url() + "?operation=checkedout").c_str()))["numItems"] == 1);
    CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/readme.txt") == "hello");
  }
}

TEST_CASE("Http versioning: checkIn racing cancelCheckOut, exactly one wins and the series stays consistent") {
  ServerConfig config;
  config.http.threads = 4;
  ServerFixture f(config);
  auto c = f.Client();
  for (const Var& v : {kVarA, kVarB}) {
    CAPTURE(v.repo);
    const std::string doc = v.Url() + "/docs/readme.txt";
    size_t versions = 1;
    std::string latest_content = "hello";
    for (int round = 0; round < 10; ++round) {
      CAPTURE(round);
      auto out = PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}});
      REQUIRE(out->status == 201);
      const std::string pwc_id = Get(Flat(BodyJson(out)), v.Id("objectId"));
      const std::string bytes = "round " + std::to_string(round);
      int in_status = 0, cancel_status = 0;
      std::string in_exception, cancel_exception;
      std::thread in([&] {
        auto cc = f.Client();
        Upload up{bytes, "readme.txt", "text/plain"};
        auto r = PostAs(cc, v.Url(), Encoding::kMultipart, {{"operation", "checkIn"}, {"objectId", pwc_id}},
                        Json::object(), &up);
        if (r) {
          in_status = r->status;
          in_exception = ExceptionOf(r->body);
        }
      });
      std::thread cancel([&] {
        auto cc = f.Client();
        auto r = PostAs(cc, v.Url(), Encoding::kUrlencoded, {{"operation", "cancelCheckOut"}, {"objectId", pwc_id}});
        if (r) {
          cancel_status = r->status;
          cancel_exception = ExceptionOf(r->body);
        }
      });
      in.join();
      cancel.join();
      const bool in_won = in_status == 201;
      const bool cancel_won = cancel_status == 200;
      CHECK(in_won != cancel_won);
      if (in_won) {
        CHECK(cancel_status == 404);
        CHECK(cancel_exception == "objectNotFound");
        ++versions;
        latest_content = bytes;
      } else {
        CHECK(in_status == 404);
        CHECK(in_exception == "objectNotFound");
      }
      Json all = BodyJson(c.Get((doc + "/versions?succinct=true").c_str()));
      REQUIRE(all.size() == versions);
      for (const Json& x : all) {
        CHECK(x["succinctProperties"][v.Id("isVersionSeriesCheckedOut")] == false);
        CHECK(x["succinctProperties"][v.Id("isPrivateWorkingCopy")] == false);
      }
      CHECK(BodyJson(c.Get((v.Url() + "?operation=checkedout").c_str()))["numItems"] == 0);
      CHECK(c.Get(doc.c_str())->body == latest_content);
      CHECK(ReadDiskFile(f.dir() + "/demo/" + v.repo + "/docs/readme.txt") == latest_content);
    }
  }
}

TEST_CASE("Http versioning: concurrent check-ins of different series lose nothing") {
  ServerConfig config;
  config.http.threads = 4;
  ServerFixture f(config);
  const Var& v = kVarB;
  constexpr int kDocs = 6, kRounds = 4;
  {
    auto c = f.Client();
    for (int d = 0; d < kDocs; ++d) CreateDoc(c, v, "s" + std::to_string(d) + ".txt", "v0");
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int d = 0; d < kDocs; ++d) {
    threads.emplace_back([&, d] {
      auto c = f.Client();
      const std::string doc = v.Url() + "/docs/s" + std::to_string(d) + ".txt";
      for (int r = 1; r <= kRounds; ++r) {
        auto out = PostAs(c, doc, Encoding::kJson, {{"operation", "checkOut"}});
        if (!out || out->status != 201) {
          ++failures;
          return;
        }
        Upload up{"v" + std::to_string(r), "x.txt", "text/plain"};
        auto in =
            PostAs(c, doc, Encoding::kMultipart, {{"operation", "checkIn"}, {"major", "false"}}, Json::object(), &up);
        if (!in || in->status != 201) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(failures == 0);
  auto c = f.Client();
  for (int d = 0; d < kDocs; ++d) {
    const std::string name = "s" + std::to_string(d) + ".txt";
    Json all = BodyJson(c.Get((v.Url() + "/docs/" + name + "/versions?succinct=true").c_str()));
    REQUIRE(all.size() == kRounds + 1);
    CHECK(all.back()["succinctProperties"]["cmis:versionLabel"] == "1." + std::to_string(kRounds));
    CHECK(ReadDiskFile(f.dir() + "/demo/beta/docs/" + name) == "v" + std::to_string(kRounds));
  }
}

}  // namespace
}  // namespace folio::testing
