// getAllVersions builds every version in bulk (ObjectBuilder::BuildAllVersions: the series
// directory opened once, parent id and type worked out once); each object must be the
// very object getObject gives for that version id, so the two paths cannot drift.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::MemRepoFixture;
using folio::testing::RepoFixture;

using folio::testing::WriteFile;

namespace {

ObjectData CheckIn(RepoFixture& f, const std::string& pwc, bool major, std::optional<std::string> bytes,
                   const std::string& comment, Json properties = Json::object()) {
  CheckInRequest req;
  req.major = major;
  req.comment = comment;
  req.properties = std::move(properties);
  if (bytes) req.content = ContentSource::FromBytes(*bytes, "text/plain", "notes-" + comment + ".txt");
  auto r = f.repo->CheckIn(pwc, req, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

std::string CheckOut(RepoFixture& f, const std::string& id) {
  auto pwc = f.repo->CheckOut(id, "bob", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  return pwc->id;
}

// Every field, and the properties in their order (dump), as getObject gives them.
void CheckSameAsGetObject(RepoFixture& f, const std::vector<ObjectData>& all) {
  for (const ObjectData& v : all) {
    CAPTURE(v.id);
    auto one = f.repo->GetObject(v.id);
    REQUIRE_MESSAGE(one.ok(), one.status().ToString());
    CHECK(v.properties.dump() == one->properties.dump());
    CHECK(v.id == one->id);
    CHECK(v.base == one->base);
    CHECK(v.type_id == one->type_id);
    CHECK(v.name == one->name);
    CHECK(v.path == one->path);
    CHECK(v.parent_id == one->parent_id);
    CHECK(v.series_id == one->series_id);
    CHECK(v.version_label == one->version_label);
    CHECK(v.is_pwc == one->is_pwc);
    CHECK(v.is_latest == one->is_latest);
    REQUIRE(v.content.has_value() == one->content.has_value());
    if (v.content) {
      CHECK(v.content->length == one->content->length);
      CHECK(v.content->mime_type == one->content->mime_type);
      CHECK(v.content->file_name == one->content->file_name);
    }
    REQUIRE(v.acl.size() == one->acl.size());
    for (size_t i = 0; i < v.acl.size(); ++i) {
      CHECK(v.acl[i].principal == one->acl[i].principal);
      CHECK(v.acl[i].permissions == one->acl[i].permissions);
    }
  }
}

// A document of a custom type in a subfolder with the history 1.0, 1.1, 2.0, 2.1, 3.0
// (custom properties, comments, content changed and removed, a rename, an ACL change)
// and a working copy.
std::string MixedHistory(RepoFixture& f) {
  auto prop = [](const char* type, const char* cardinality) {
    return Json{{"propertyType", type}, {"cardinality", cardinality}, {"updatability", "readwrite"}};
  };
  Json def = {{"id", "acme:contract"}, {"parentId", "cmis:document"}, {"displayName", "Contract"},
              {"propertyDefinitions",
               {{"acme:amount", prop("decimal", "single")},
                {"acme:signed", prop("datetime", "single")},
                {"acme:dates", prop("datetime", "multi")},
                {"acme:tags", prop("string", "multi")}}}};
  auto t = f.repo->CreateType(def, WriteCheck::Trusted());
  REQUIRE_MESSAGE(t.ok(), t.status().ToString());
  ObjectData folder = f.Folder(f.root, "contracts");
  NewObject o;
  o.name = "c.txt";
  o.type_id = "acme:contract";
  o.properties = Json{{"acme:amount", "12.5"}, {"acme:signed", "2024-03-01T10:00:00Z"}, {"acme:tags", "red"},
                      {"cmis:description", "first draft"}};
  o.acl = {Ace{"alice", {"cmis:all"}}};
  auto doc = f.repo->CreateDocument(folder.id, o, ContentSource::FromBytes("v1.0", "text/plain"),
                                    VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  const std::string id = doc->series_id;
  CheckIn(f, CheckOut(f, id), false, "v1.1", "typo", Json{{"acme:amount", "13"}});
  CheckIn(f, CheckOut(f, id), true, std::nullopt, "",
          Json{{"acme:dates", Json::array({"2024-01-01T00:00:00Z", "2025-01-01T00:00:00.500Z"})},
               {"cmis:description", nullptr}});
  {
    const std::string pwc = CheckOut(f, id);
    auto gone = f.repo->DeleteContent(pwc, "bob", WriteCheck::Trusted());
    REQUIRE_MESSAGE(gone.ok(), gone.status().ToString());
    CheckInRequest req;
    req.major = false;
    req.add_aces = {Ace{"carol", {"cmis:read"}}};
    auto r = f.repo->CheckIn(pwc, req, "carol", WriteCheck::Trusted());
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  }
  CheckIn(f, CheckOut(f, id), true, "v3.0 is longer", "final", Json{{"cmis:name", "contract.txt"}});
  CheckOut(f, id);
  return id;
}

}  // namespace

TEST_CASE_TEMPLATE("getAllVersions: every version equals getObject of its id (mixed history, working copy)", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  const std::string id = MixedHistory(f);
  auto all = f.repo->GetAllVersions(id);
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  REQUIRE(all->size() == 6);
  const char* labels[] = {"1.0", "1.1", "2.0", "2.1", "3.0", "pwc"};
  for (size_t i = 0; i < 6; ++i) CHECK((*all)[i].version_label == labels[i]);
  // The history is what it claims to be, so the comparison below compares something.
  CHECK((*all)[0].properties["cmis:description"] == "first draft");
  CHECK((*all)[1].properties["acme:amount"] == 13);
  CHECK((*all)[1].properties["cmis:checkinComment"] == "typo");
  CHECK((*all)[2].properties["acme:dates"] == Json::array({1704067200000, 1735689600500}));
  CHECK((*all)[3].properties["cmis:contentStreamLength"].is_null());
  CHECK((*all)[3].acl.size() == 2);
  CHECK((*all)[4].name == "contract.txt");
  CHECK((*all)[4].properties["cmis:isLatestMajorVersion"] == true);
  CHECK((*all)[2].properties["cmis:isLatestMajorVersion"] == false);
  CHECK((*all)[0].properties["cmis:isVersionSeriesCheckedOut"] == true);
  CheckSameAsGetObject(f, *all);

  // Checked in again: no working copy, 3.1 the latest.
  auto pwc = (*all)[5].id;
  CheckIn(f, pwc, false, "v3.1", "after");
  all = f.repo->GetAllVersions(id);
  REQUIRE(all.ok());
  REQUIRE(all->size() == 6);
  CHECK(all->back().version_label == "3.1");
  CheckSameAsGetObject(f, *all);
}

TEST_CASE_TEMPLATE("VisitAllVersions: the same objects one at a time, in either order; an error of the visitor stops it", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  const std::string id = MixedHistory(f);
  auto all = f.repo->GetAllVersions(id);
  REQUIRE(all.ok());
  for (const bool newest_first : {false, true}) {
    CAPTURE(newest_first);
    int restarts = 0;
    std::vector<std::string> seen;
    auto n = f.repo->VisitAllVersions(
        id, newest_first,
        [&](size_t count) {
          ++restarts;
          CHECK(count == all->size());
        },
        [&](const ObjectData& o) {
          seen.push_back(o.properties.dump());
          return OkStatus();
        });
    REQUIRE_MESSAGE(n.ok(), n.status().ToString());
    CHECK(*n == all->size());
    CHECK(restarts == 1);
    std::vector<std::string> expected;
    for (const ObjectData& o : *all) expected.push_back(o.properties.dump());
    if (newest_first) std::reverse(expected.begin(), expected.end());  // working copy first
    CHECK(seen == expected);
  }
  int calls = 0;
  auto stopped = f.repo->VisitAllVersions(
      id, false, [](size_t) {}, [&](const ObjectData&) { return ++calls == 2 ? Constraint("enough") : OkStatus(); });
  CHECK(stopped.status().kind() == ErrorKind::kConstraint);
  CHECK(calls == 2);
  CHECK(f.repo->VisitAllVersions(f.root, false, [](size_t) {}, [](const ObjectData&) { return OkStatus(); })
            .status()
            .kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("getAllVersions: a hand edit of the document's file is the latest version's content, as for getObject") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "h.txt", "v1.0");
  CheckIn(f, CheckOut(f, doc.series_id), false, "v1.1", "one");
  CheckIn(f, CheckOut(f, doc.series_id), false, "v1.2", "two");
  WriteFile(f.RepoPath("h.txt"), "edited by hand, longer");
  auto all = f.repo->GetAllVersions(doc.id);
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  REQUIRE(all->size() == 3);
  CHECK(all->back().properties["cmis:contentStreamLength"] == 22);
  CHECK((*all)[1].properties["cmis:contentStreamLength"] == 4);
  CheckSameAsGetObject(f, *all);
}

TEST_CASE("getAllVersions: a version record that is missing, unreadable or a symlink fails the call") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "h.txt", "v1.0");
  CheckIn(f, CheckOut(f, doc.series_id), false, "v1.1", "one");
  CheckIn(f, CheckOut(f, doc.series_id), false, "v1.2", "two");
  const std::string series_dir = f.RepoPath(".folio/docs/h.txt");
  const std::string v11 = series_dir + "/1.1.json";
  const std::string saved = folio::testing::ReadFile(v11);

  std::filesystem::remove(v11);
  auto missing = f.repo->GetAllVersions(doc.id);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(missing.status().message(), ".folio/docs/h.txt/1.1.json"));

  WriteFile(v11, "{not json");
  auto garbled = f.repo->GetAllVersions(doc.id);
  REQUIRE_FALSE(garbled.ok());
  CHECK(garbled.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(garbled.status().message(), "cannot parse"));
  CHECK(Contains(garbled.status().message(), ".folio/docs/h.txt/1.1.json"));

  // A symlink to a record outside the data directory (here: a copy of the real one)
  // is never followed.
  folio::testing::TempDir outside;
  WriteFile(outside / "1.1.json", saved);
  std::filesystem::remove(v11);
  std::filesystem::create_symlink(outside / "1.1.json", v11);
  auto linked = f.repo->GetAllVersions(doc.id);
  REQUIRE_FALSE(linked.ok());
  CHECK(linked.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(linked.status().message(), ".folio/docs/h.txt/1.1.json"));

  std::filesystem::remove(v11);
  WriteFile(v11, saved);
  auto fine = f.repo->GetAllVersions(doc.id);
  REQUIRE_MESSAGE(fine.ok(), fine.status().ToString());
  CHECK(fine->size() == 3);
  CheckSameAsGetObject(f, *fine);
}
