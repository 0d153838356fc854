// Behaviours fixed after fsck's robustness work: damaged or hand-edited metadata gives
// clear errors (never an exception, never a wedged repository).
#include <doctest/doctest.h>

#include <filesystem>

#include "folio/fsck.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

TEST_CASE("Robustness: a series directory without series.json is a storage error, and writes go on") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "d.txt", "d");
  std::filesystem::remove(f.RepoPath(".folio/docs/d.txt/series.json"));
  auto r = f.repo->GetObjectByPath("d.txt");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(r.status().message(), "fsck --repair"));
  // The repository is not wedged: other changes still work.
  f.Doc(f.root, "other.txt", "o");
  CHECK(f.repo->GetObjectByPath("other.txt").ok());
}

TEST_CASE("Robustness: wrongly typed fields in a record are a storage error or a default, never a throw") {
  RepoFixture f;
  ObjectData doc = f.Doc(f.root, "t.txt", "t");
  WriteFile(f.RepoPath(".folio/docs/t.txt/1.0.json"),
            R"({"label":"1.0","major":true,"properties":{"cmis:name":5,"cmis:objectTypeId":"cmis:document"},
                "content":{"length":1,"mimeType":17},"acl":"none"})");
  auto r = f.repo->GetObject(doc.id);
  if (r.ok()) {
    CHECK(r->properties["cmis:contentStreamMimeType"] == "application/octet-stream");
  } else {
    CHECK(r.status().kind() == ErrorKind::kStorage);
  }
  WriteFile(f.RepoPath(".folio/docs/t.txt/series.json"),
            R"({"seriesId":")" + doc.series_id + R"(","versions":["1.0"],"versionable":"yes","file":{"size":"big"}})");
  auto s = f.repo->GetObject(doc.series_id);
  CHECK((s.ok() || s.status().kind() == ErrorKind::kStorage));
}

TEST_CASE("Robustness: renaming a relationship keeps its index entry right") {
  RepoFixture f;
  ObjectData a = f.Doc(f.root, "a.txt", "a");
  ObjectData b = f.Doc(f.root, "b.txt", "b");
  NewObject rel;
  rel.name = "links";
  rel.properties = Json{{"cmis:sourceId", a.id}, {"cmis:targetId", b.id}};
  auto r = f.repo->CreateRelationship(rel, "u", WriteCheck::Trusted());
  REQUIRE(r.ok());
  auto renamed = f.repo->UpdateProperties(r->id, Json{{"cmis:name", "refers-to"}}, "u", WriteCheck::Trusted());
  REQUIRE_MESSAGE(renamed.ok(), renamed.status().ToString());
  CHECK(renamed->name == "refers-to");
  auto report = RunFsck(f.dir.path(), FsckOptions{});
  REQUIRE(report.ok());
  for (const Finding& finding : report->findings) CHECK_MESSAGE(finding.severity == Severity::kNote, finding.id);
}

TEST_CASE("Robustness: the version a working copy was made from cannot be deleted on its own") {
  RepoFixture f;
  ObjectData v1 = f.Doc(f.root, "w.txt", "1");
  auto pwc = f.repo->CheckOut(v1.id, "bob", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CheckInRequest req;
  REQUIRE(f.repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted()).ok());
  auto again = f.repo->CheckOut(v1.id, "bob", WriteCheck::Trusted());  // from 1.0 again, while 2.0 is the latest
  REQUIRE(again.ok());
  Status s = f.repo->Delete(v1.id, false, WriteCheck::Trusted());
  CHECK(s.kind() == ErrorKind::kVersioning);
  CHECK(Contains(s.message(), "bob"));
}
