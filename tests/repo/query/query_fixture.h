// A repository with known content for query tests, its query indexes, and helpers that
// run a statement and give the names of the results.
//
//   /                      root folder
//   A/        folder "alpha folder"
//     a1.txt  "the quick brown fox"                      text/plain      by alice
//     a2.md   "# Heading\nThe lazy dog jumps over"       text/markdown   by bob
//     it1     item
//     B/      folder
//       b1.json  {"word": "zebra"}                       application/json
//       b2.bin   "zebra\0\1" (not text)                  application/octet-stream
//   C/        folder
//     c1.txt  acme:contract  amount 10.5, count 3, signed, due 2024-03-01T10:00Z,
//                            tags [red, blue], heading "Alpha deal"
//     c2.txt  acme:contract  amount 200, count 7, not signed, due 2024-06-01T00:00Z,
//                            tags [green]
//     c3.txt  acme:nda (a subtype of acme:contract), nothing set
//   r.txt     "Résumé café ÜBER straße", description "root doc"
//   v.txt     1.0 "version one", 1.1 "version two", checked out again (a working copy)
//   draft.txt created checked out: only a working copy
//   O'Neil's plan.txt, 100%_done.txt   "misc"
//   link      relationship a1 -> a2
//
// Objects are created one minute apart from 2024-01-01T00:00:00Z, in the order above.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "repo/query/binder.h"
#include "repo/query/parser.h"
#include "repo/query/query_indexes.h"
#include "repo/types/types.h"
#include "storage/datetime.h"
#include "support/repo_fixture.h"

namespace folio::testing {

inline constexpr int64_t kQueryT0 = 1704067200000;  // 2024-01-01T00:00:00Z

// Variant spellings as the api layer passes them: a built-in id without its prefix.
inline query::IdSpelling TestSpelling() {
  query::IdSpelling s;
  s.property = [](std::string_view id) {
    const std::string prefixed = "cmis:" + std::string(id);
    for (const std::string& t : repo::types::BuiltInTypeIds()) {
      if (repo::types::BuiltInType(t)->properties.count(prefixed)) return prefixed;
    }
    return std::string(id);
  };
  s.type = [](std::string_view id) {
    const std::string prefixed = "cmis:" + std::string(id);
    return repo::types::BuiltInType(prefixed) ? prefixed : std::string(id);
  };
  return s;
}

struct QueryFixture : RepoFixture {
  ObjectData fA, fB, fC, a1, a2, it1, b1, b2, c1, c2, c3, r, v, v1, draft, quote, percent, link;
  std::unique_ptr<query::QueryIndexes> indexes;
  int64_t now = kQueryT0;

  explicit QueryFixture(std::string variant = "B") : RepoFixture(std::move(variant)) {
    Tick();
    CreateTypes();
    fA = Make([&] { return FolderWith(root, "A", "alpha folder"); });
    a1 = Make([&] { return Text(fA.id, "a1.txt", "the quick brown fox", "text/plain", "alice"); });
    a2 = Make([&] { return Text(fA.id, "a2.md", "# Heading\nThe lazy dog jumps over", "text/markdown", "bob"); });
    it1 = Make([&] {
      NewObject o;
      o.name = "it1";
      auto i = repo->CreateItem(fA.id, o, "alice", WriteCheck::Trusted());
      REQUIRE_MESSAGE(i.ok(), i.status().ToString());
      return *i;
    });
    fB = Make([&] { return Folder(fA.id, "B"); });
    b1 = Make([&] { return Text(fB.id, "b1.json", "{\"word\": \"zebra\"}", "application/json", "alice"); });
    b2 = Make([&] { return Text(fB.id, "b2.bin", std::string("zebra\0\1", 7), "application/octet-stream", "alice"); });
    fC = Make([&] { return Folder(root, "C"); });
    c1 = Make([&] {
      return Contract("acme:contract", "c1.txt",
                      Json{{"acme:amount", 10.5},
                           {"acme:count", 3},
                           {"acme:signed", true},
                           {"acme:due", "2024-03-01T10:00:00Z"},
                           {"acme:tags", Json::array({"red", "blue"})},
                           {"acme:ref", "X-1"},
                           {"acme:title", "Alpha deal"}},
                      "contract one");
    });
    c2 = Make([&] {
      return Contract("acme:contract", "c2.txt",
                      Json{{"acme:amount", 200},
                           {"acme:count", 7},
                           {"acme:signed", false},
                           {"acme:due", "2024-06-01T00:00:00Z"},
                           {"acme:tags", Json::array({"green"})},
                           {"acme:ref", "X-2"}},
                      "contract two");
    });
    c3 = Make([&] { return Contract("acme:nda", "c3.txt", Json::object(), "nda"); });
    r = Make([&] {
      NewObject o;
      o.name = "r.txt";
      o.properties = Json{{"cmis:description", "root doc"}};
      auto d = repo->CreateDocument(root, o, ContentSource::FromBytes("Résumé café ÜBER straße", "text/plain"),
                                    VersioningState::kMajor, "carol", WriteCheck::Trusted());
      REQUIRE_MESSAGE(d.ok(), d.status().ToString());
      return *d;
    });
    v1 = Make([&] { return Text(root, "v.txt", "version one", "text/plain", "alice"); });
    v = Make([&] {
      auto pwc = repo->CheckOut(v1.id, "bob", WriteCheck::Trusted());
      REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
      CheckInRequest in;
      in.major = false;
      in.content = ContentSource::FromBytes("version two", "text/plain");
      auto next = repo->CheckIn(pwc->id, in, "bob", WriteCheck::Trusted());
      REQUIRE_MESSAGE(next.ok(), next.status().ToString());
      return *next;
    });
    Make([&] {
      auto pwc = repo->CheckOut(v.id, "bob", WriteCheck::Trusted());
      REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
      return *pwc;
    });
    v = *repo->GetObject(v.id);
    v1 = *repo->GetObject(v1.id);
    draft = Make([&] {
      NewObject o;
      o.name = "draft.txt";
      auto d = repo->CreateDocument(root, o, ContentSource::FromBytes("draft words", "text/plain"),
                                    VersioningState::kCheckedOut, "alice", WriteCheck::Trusted());
      REQUIRE_MESSAGE(d.ok(), d.status().ToString());
      return *d;
    });
    quote = Make([&] { return Text(root, "O'Neil's plan.txt", "misc", "text/plain", "alice"); });
    percent = Make([&] { return Text(root, "100%_done.txt", "misc", "text/plain", "alice"); });
    link = Make([&] {
      NewObject o;
      o.name = "link";
      o.properties = Json{{"cmis:sourceId", a1.id}, {"cmis:targetId", a2.id}};
      auto l = repo->CreateRelationship(o, "alice", WriteCheck::Trusted());
      REQUIRE_MESSAGE(l.ok(), l.status().ToString());
      return *l;
    });
    storage::SetClockForTest(std::nullopt);
    indexes = std::make_unique<query::QueryIndexes>(*store);
  }
  ~QueryFixture() { storage::SetClockForTest(std::nullopt); }

  void Tick() { storage::SetClockForTest(now += 60000); }

  template <typename F>
  ObjectData Make(F f) {
    Tick();
    return f();
  }

  ObjectData FolderWith(const std::string& parent, const std::string& name, const std::string& description) {
    NewObject o;
    o.name = name;
    o.properties = Json{{"cmis:description", description}};
    auto r = repo->CreateFolder(parent, o, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  ObjectData Text(const std::string& parent, const std::string& name, const std::string& bytes, const std::string& mime,
                  const std::string& user) {
    NewObject o;
    o.name = name;
    auto r = repo->CreateDocument(parent, o, ContentSource::FromBytes(bytes, mime), VersioningState::kMajor, user,
                                  WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  ObjectData Contract(const std::string& type, const std::string& name, Json props, const std::string& bytes) {
    NewObject o;
    o.name = name;
    o.type_id = type;
    o.properties = std::move(props);
    auto r =
        repo->CreateDocument(fC.id, o, ContentSource::FromBytes(bytes, "text/plain"), VersioningState::kMajor, "alice",
                             WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  }

  void CreateTypes() {
    auto prop = [](const char* type, const char* card) {
      return Json{{"propertyType", type}, {"cardinality", card}, {"updatability", "readwrite"}};
    };
    Json heading = prop("string", "single");
    heading["queryName"] = "acme:heading";
    Json contract = {{"id", "acme:contract"},
                     {"baseId", "cmis:document"},
                     {"parentId", "cmis:document"},
                     {"displayName", "Contract"},
                     {"propertyDefinitions",
                      {{"acme:amount", prop("decimal", "single")},
                       {"acme:count", prop("integer", "single")},
                       {"acme:signed", prop("boolean", "single")},
                       {"acme:due", prop("datetime", "single")},
                       {"acme:tags", prop("string", "multi")},
                       {"acme:ref", prop("id", "single")},
                       {"acme:title", heading}}}};
    auto t = repo->CreateType(contract, WriteCheck::Trusted());
    REQUIRE_MESSAGE(t.ok(), t.status().ToString());
    Json nda = {{"id", "acme:nda"}, {"baseId", "cmis:document"}, {"parentId", "acme:contract"}};
    auto n = repo->CreateType(nda, WriteCheck::Trusted());
    REQUIRE_MESSAGE(n.ok(), n.status().ToString());
  }

  // Runs `statement` against the index of "demo/main".
  Result<query::QueryHits> Run(const std::string& statement, query::QueryPage page = {}) {
    FOLIO_ASSIGN_OR_RETURN(query::ParsedQuery parsed, query::Parse(statement));
    FOLIO_ASSIGN_OR_RETURN(query::BoundQuery bound, query::Bind(parsed, *repo, TestSpelling()));
    return (*indexes->Get("demo", "main"))->Run(*repo, bound, page);
  }

  // The ids of the results, in order (searchAllVersions as asked); every match is on
  // the page.
  std::vector<std::string> Ids(const std::string& statement, bool all_versions = false) {
    query::QueryPage page;
    page.max = 10000;
    page.all_versions = all_versions;
    auto hits = Run(statement, page);
    REQUIRE_MESSAGE(hits.ok(), statement << " -> " << hits.status().ToString());
    std::vector<std::string> out;
    for (const query::QueryHit& h : hits->hits) out.push_back(h.object_id);
    CHECK(hits->total == out.size());
    return out;
  }

  // The names of the results, in order; a result that cannot be read shows as "<gone>".
  std::vector<std::string> Names(const std::string& statement, bool all_versions = false) {
    std::vector<std::string> out;
    for (const std::string& id : Ids(statement, all_versions)) {
      auto o = repo->GetObject(id);
      out.push_back(o.ok() ? o->name : "<gone>");
    }
    return out;
  }

  std::set<std::string> Set(const std::string& statement, bool all_versions = false) {
    auto names = Names(statement, all_versions);
    return std::set<std::string>(names.begin(), names.end());
  }

  Status Error(const std::string& statement) {
    auto hits = Run(statement);
    return hits.ok() ? OkStatus() : hits.status();
  }
};

using Names = std::set<std::string>;

}  // namespace folio::testing
