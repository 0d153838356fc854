// The version-series primitives: check-out, check-in, cancel, all versions (docs/API.md §6.4).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "folio/fsck.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::MemRepoFixture;
using folio::testing::RepoFixture;

namespace {

ObjectData CheckInNew(RepoFixture& f, const std::string& pwc, bool major, const std::string& bytes,
                      const std::string& comment = "") {
  CheckInRequest req;
  req.major = major;
  req.comment = comment;
  req.content = ContentSource::FromBytes(bytes, "text/plain");
  auto r = f.repo->CheckIn(pwc, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

ObjectData Cycle(RepoFixture& f, const std::string& id, bool major, const std::string& bytes) {
  auto pwc = f.repo->CheckOut(id, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(pwc.ok(), pwc.status().ToString());
  return CheckInNew(f, pwc->id, major, bytes);
}

// fsck of the fixture's disk reports nothing but notes.
void CheckFsckFindsNothing(RepoFixture& f) {
  auto report = RunFsck(f.fs(), FsckOptions{});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  for (const Finding& finding : report->findings) {
    if (finding.severity != Severity::kNote) FAIL_CHECK(finding.id << " " << finding.path << ": " << finding.message);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("Versioning: history 1.0 -> 1.1 -> 2.0 -> 2.1 -> 3.0 with exact flags on every version", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "h.txt", "v1.0");
  Cycle(f, doc.series_id, false, "v1.1");
  Cycle(f, doc.series_id, true, "v2.0");
  Cycle(f, doc.series_id, false, "v2.1");
  ObjectData last = Cycle(f, doc.series_id, true, "v3.0");
  CHECK(last.properties["cmis:versionLabel"] == "3.0");
  auto all = f.repo->GetAllVersions(doc.id);
  REQUIRE(all.ok());
  REQUIRE(all->size() == 5);
  const char* labels[] = {"1.0", "1.1", "2.0", "2.1", "3.0"};
  for (size_t i = 0; i < 5; ++i) {
    const Json& p = (*all)[i].properties;
    CAPTURE(labels[i]);
    CHECK(p["cmis:versionLabel"] == labels[i]);
    CHECK(p["cmis:versionSeriesId"] == doc.series_id);
    CHECK(p["cmis:objectId"] == doc.series_id + ";" + labels[i]);
    CHECK(p["cmis:isLatestVersion"] == (i == 4));
    CHECK(p["cmis:isMajorVersion"] == (i == 0 || i == 2 || i == 4));
    CHECK(p["cmis:isLatestMajorVersion"] == (i == 4));
    CHECK(p["cmis:isPrivateWorkingCopy"] == false);
    CHECK(p["cmis:isVersionSeriesCheckedOut"] == false);
    CHECK(p["cmis:versionSeriesCheckedOutId"].is_null());
    CHECK(f.Content((*all)[i].id) == std::string("v") + labels[i]);
  }
  CHECK(f.Visible("h.txt") == "v3.0");
  auto latest_major = f.repo->GetLatestVersion(doc.id, true);
  REQUIRE(latest_major.ok());
  CHECK(latest_major->properties["cmis:versionLabel"] == "3.0");
}

TEST_CASE_TEMPLATE("Versioning: a checked-out series shows its working copy everywhere", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "w.txt", "base");
  auto pwc = f.repo->CheckOut(doc.id, "bob", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CHECK(pwc->id == doc.series_id + ";pwc");
  CHECK(pwc->id != doc.id);
  const Json& p = pwc->properties;
  CHECK(p["cmis:isPrivateWorkingCopy"] == true);
  CHECK(p["cmis:isLatestVersion"] == false);
  CHECK(p["cmis:isMajorVersion"] == false);
  CHECK(p["cmis:isLatestMajorVersion"] == false);
  CHECK(p["cmis:versionSeriesCheckedOutBy"] == "bob");
  CHECK(p["cmis:versionSeriesCheckedOutId"] == pwc->id);
  CHECK(p["cmis:versionSeriesCheckedOutDate"].is_number());
  CHECK(f.Content(pwc->id) == "base");
  auto v = f.repo->GetObject(doc.id);
  REQUIRE(v.ok());
  CHECK(v->properties["cmis:isVersionSeriesCheckedOut"] == true);
  CHECK(v->properties["cmis:versionSeriesCheckedOutBy"] == "bob");

  auto second = f.repo->CheckOut(doc.id, "carol", WriteCheck::Trusted());
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().kind() == ErrorKind::kVersioning);
  CHECK(Contains(second.status().message(), "bob"));

  // Updates go to the working copy, and the file on disk still shows the latest version.
  REQUIRE(f.repo->SetContent(pwc->id, ContentSource::FromBytes("draft"), true, "bob", WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->UpdateProperties(pwc->id, Json{{"cmis:description", "edited"}}, "bob", WriteCheck::Trusted()).ok());
  CHECK(f.Visible("w.txt") == "base");
  auto all = f.repo->GetAllVersions(doc.id);
  REQUIRE(all.ok());
  REQUIRE(all->size() == 2);
  CHECK(all->back().is_pwc);
  auto out = f.repo->GetCheckedOut("");
  REQUIRE(out.ok());
  REQUIRE(out->size() == 1);
  CHECK((*out)[0].id == pwc->id);

  CheckInRequest req;
  req.major = false;
  req.comment = "edited draft";
  auto v11 = f.repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted());
  REQUIRE(v11.ok());
  CHECK(v11->properties["cmis:versionLabel"] == "1.1");
  CHECK(v11->properties["cmis:description"] == "edited");
  CHECK(v11->properties["cmis:checkinComment"] == "edited draft");
  CHECK(f.Content(v11->id) == "draft");
  CHECK(f.Visible("w.txt") == "draft");
  auto again = f.repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted());
  CHECK(again.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(f.repo->GetCheckedOut("")->empty());
}

TEST_CASE_TEMPLATE("Versioning: cancel discards the working copy; not-a-pwc is versioning", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "c.txt", "keep");
  CHECK(f.repo->CancelCheckOut(doc.id, WriteCheck::Trusted()).kind() == ErrorKind::kVersioning);
  CheckInRequest req;
  CHECK(f.repo->CheckIn(doc.id, req, "a", WriteCheck::Trusted()).status().kind() == ErrorKind::kVersioning);
  auto pwc = f.repo->CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  REQUIRE(f.repo->SetContent(pwc->id, ContentSource::FromBytes("lost"), true, "alice", WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->CancelCheckOut(pwc->id, WriteCheck::Trusted()).ok());
  CHECK(f.repo->CancelCheckOut(pwc->id, WriteCheck::Trusted()).kind() == ErrorKind::kObjectNotFound);
  auto all = f.repo->GetAllVersions(doc.id);
  REQUIRE(all.ok());
  REQUIRE(all->size() == 1);
  CHECK(f.Content(doc.id) == "keep");
  CHECK(f.repo->GetObject(pwc->id).status().kind() == ErrorKind::kObjectNotFound);
}

namespace {

// The stat of the series file `file` of the root folder's document `doc`.
FileStat SeriesFileStat(RepoFixture& f, const std::string& doc, const std::string& file) {
  auto st = f.fs().Stat("demo/main/.folio/docs/" + doc + "/" + file);
  REQUIRE_MESSAGE(st.ok(), st.status().ToString());
  return *st;
}

// The temp files left in the root folder and in the series directory of `doc`.
std::vector<std::string> TempsLeft(RepoFixture& f, const std::string& doc) {
  std::vector<std::string> temps;
  for (const std::string& dir : {std::string("demo/main"), "demo/main/.folio/docs/" + doc}) {
    auto entries = f.fs().List(dir);
    REQUIRE(entries.ok());
    for (const DirEntry& e : *entries) {
      if (e.name.rfind(".folio-tmp-", 0) == 0) temps.push_back(dir + "/" + e.name);
    }
  }
  return temps;
}

}  // namespace

TEST_CASE_TEMPLATE("Versioning: a check-out copies the version's content into a file of its own; the copy is edited apart",
                   F, RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "l.txt", "base");
  auto pwc = f.repo->CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  // Rule V3 (docs/STORAGE.md §4.2): the working copy's content is its own inode, so no
  // edit of it or of the visible file reaches the version.
  CHECK_FALSE(SameInode(SeriesFileStat(f, "l.txt", "pwc.content"), SeriesFileStat(f, "l.txt", "1.0.content")));
  CHECK(f.Content(pwc->id) == "base");

  SUBCASE("new content in the working copy leaves the version's bytes as they were") {
    REQUIRE(f.repo->SetContent(pwc->id, ContentSource::FromBytes("edited"), true, "alice", WriteCheck::Trusted()).ok());
    CHECK_FALSE(SameInode(SeriesFileStat(f, "l.txt", "pwc.content"), SeriesFileStat(f, "l.txt", "1.0.content")));
    CHECK(f.Content(doc.id) == "base");
    CHECK(f.Visible("l.txt") == "base");
    CHECK(f.Content(pwc->id) == "edited");
    CheckInRequest req;
    auto in = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(in.ok(), in.status().ToString());
    CHECK(f.Content(doc.series_id + ";1.0") == "base");
    CHECK(f.Content(in->id) == "edited");
    CHECK(f.Visible("l.txt") == "edited");
  }
  SUBCASE("checked in unchanged, the new version takes the copy's file; no temp file is left") {
    CheckInRequest req;
    req.major = false;
    auto in = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
    REQUIRE_MESSAGE(in.ok(), in.status().ToString());
    CHECK(in->properties["cmis:versionLabel"] == "1.1");
    CHECK_FALSE(SameInode(SeriesFileStat(f, "l.txt", "1.1.content"), SeriesFileStat(f, "l.txt", "1.0.content")));
    CHECK_FALSE(f.Has(".folio/docs/l.txt/pwc.content"));
    CHECK(f.Content(in->id) == "base");
    CHECK(f.Content(doc.series_id + ";1.0") == "base");
    CHECK(f.Visible("l.txt") == "base");
    CHECK(TempsLeft(f, "l.txt").empty());
    // Rules V1 and V4: the visible file is the latest version's content, and only that.
    auto shown = f.fs().Stat("demo/main/l.txt");
    REQUIRE(shown.ok());
    CHECK(SameInode(*shown, SeriesFileStat(f, "l.txt", "1.1.content")));
    CHECK(shown->links == 2);  // l.txt, 1.1.content
    CHECK(SeriesFileStat(f, "l.txt", "1.0.content").links == 1);
    // And again, then new content: only the new version gets new bytes.
    auto again = f.repo->CheckOut(doc.id, "alice", WriteCheck::Trusted());
    REQUIRE(again.ok());
    CheckInNew(f, again->id, true, "two");
    CHECK(f.Content(doc.series_id + ";1.1") == "base");
    CHECK(f.Content(doc.series_id + ";2.0") == "two");
    CHECK(f.Visible("l.txt") == "two");
    CHECK(TempsLeft(f, "l.txt").empty());
  }
  SUBCASE("cancelled, the version keeps its file") {
    REQUIRE(f.repo->CancelCheckOut(pwc->id, WriteCheck::Trusted()).ok());
    CHECK_FALSE(f.Has(".folio/docs/l.txt/pwc.content"));
    CHECK(f.Content(doc.id) == "base");
    CHECK(f.Visible("l.txt") == "base");
  }
  CheckFsckFindsNothing(f);
}

TEST_CASE_TEMPLATE("Versioning: checking out an earlier version and checking it in restores it", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData v1 = f.Doc(f.root, "r.txt", "original");
  REQUIRE(f.repo->UpdateProperties(v1.id, Json{{"cmis:description", "first"}}, "alice", WriteCheck::Trusted()).ok());
  ObjectData v2 = Cycle(f, v1.series_id, true, "rewritten");
  REQUIRE(f.repo->UpdateProperties(v2.id, Json{{"cmis:description", "second"}}, "alice", WriteCheck::Trusted()).ok());
  auto pwc = f.repo->CheckOut(v1.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CHECK(f.Content(pwc->id) == "original");
  CheckInRequest req;
  auto v3 = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE(v3.ok());
  CHECK(v3->properties["cmis:versionLabel"] == "3.0");
  CHECK(v3->properties["cmis:description"] == "first");
  CHECK(f.Content(v3->id) == "original");
  CHECK(f.Visible("r.txt") == "original");
}

TEST_CASE_TEMPLATE("Versioning: created minor, created checked out, and not versionable", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData minor = f.Doc(f.root, "m.txt", "m", VersioningState::kMinor);
  CHECK(minor.properties["cmis:versionLabel"] == "0.1");
  CHECK(minor.properties["cmis:isMajorVersion"] == false);
  CHECK(f.repo->GetLatestVersion(minor.id, true).status().kind() == ErrorKind::kObjectNotFound);

  ObjectData co = f.Doc(f.root, "co.txt", "draft", VersioningState::kCheckedOut);
  CHECK(co.is_pwc);
  CHECK(f.Visible("co.txt").empty());
  auto by_path = f.repo->GetObjectByPath("co.txt");
  REQUIRE(by_path.ok());
  CHECK(by_path->is_pwc);
  CheckInRequest req;
  auto first = f.repo->CheckIn(co.id, req, "alice", WriteCheck::Trusted());
  REQUIRE(first.ok());
  CHECK(first->properties["cmis:versionLabel"] == "1.0");
  CHECK(f.Visible("co.txt") == "draft");

  ObjectData plain = f.Doc(f.root, "p.txt", "p", VersioningState::kNone);
  auto r = f.repo->CheckOut(plain.id, "alice", WriteCheck::Trusted());
  CHECK(r.status().kind() == ErrorKind::kConstraint);
  ObjectData folder = f.Folder(f.root, "dir");
  CHECK(f.repo->CheckOut(folder.id, "alice", WriteCheck::Trusted()).status().kind() == ErrorKind::kConstraint);
  CHECK(f.repo->GetAllVersions(folder.id).status().kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE_TEMPLATE("Versioning: check-in with a new name renames the file; deleting the latest version", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData doc = f.Doc(f.root, "a.txt", "one");
  auto pwc = f.repo->CheckOut(doc.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CheckInRequest req;
  req.properties = Json{{"cmis:name", "b.txt"}};
  req.content = ContentSource::FromBytes("two");
  auto v2 = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(v2.ok(), v2.status().ToString());
  CHECK(v2->name == "b.txt");
  CHECK(f.Visible("b.txt") == "two");
  CHECK_FALSE(f.Has("a.txt"));
  auto v1 = f.repo->GetObject(doc.id);
  REQUIRE(v1.ok());
  CHECK(v1->properties["cmis:name"] == "a.txt");  // each version keeps its own name
  REQUIRE(f.repo->Delete(v2->id, false, WriteCheck::Trusted()).ok());
  auto latest = f.repo->GetObject(doc.series_id);
  REQUIRE(latest.ok());
  CHECK(latest->properties["cmis:versionLabel"] == "1.0");
  // The version before is the latest: its name is the document's, its file's too.
  CHECK(latest->name == "a.txt");
  CHECK(f.Visible("a.txt") == "one");
  CHECK_FALSE(f.Has("b.txt"));
}

// The document's name is its latest version's: deleting that version gives it the name
// of the version before, and its file follows (the model test found a document listed
// under one name with the path of another).
TEST_CASE_TEMPLATE("Versioning: deleting a latest version that renamed the document gives the name back", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData v1 = f.Doc(f.root, "a.txt", "one");
  auto pwc = f.repo->CheckOut(v1.id, "alice", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CheckInRequest req;
  req.properties = Json{{"cmis:name", "b.txt"}};
  req.content = ContentSource::FromBytes("two", "text/plain");
  auto v2 = f.repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(v2.ok(), v2.status().ToString());
  REQUIRE(f.Visible("b.txt") == "two");
  const uint64_t mark = *f.repo->LatestChangeToken();

  SUBCASE("the name is free: the document and its file take it") {
    Status s = f.repo->Delete(v2->id, false, WriteCheck::Trusted());
    REQUIRE_MESSAGE(s.ok(), s.ToString());
    auto now = f.repo->GetObject(v1.series_id);
    REQUIRE_MESSAGE(now.ok(), now.status().ToString());
    CHECK(now->name == "a.txt");
    CHECK(now->path == "a.txt");
    CHECK(now->id == v1.id);
    CHECK(f.Visible("a.txt") == "one");
    CHECK_FALSE(f.Has("b.txt"));
    CHECK_FALSE(f.Has(".folio/docs/b.txt"));
    CHECK(f.repo->GetObjectByPath("a.txt")->id == v1.id);
    CHECK(f.repo->GetObjectByPath("b.txt").status().kind() == ErrorKind::kObjectNotFound);
    auto page = f.repo->GetChildren(f.root, 0, 10);
    REQUIRE(page.ok());
    REQUIRE(page->objects.size() == 1);
    CHECK(page->objects[0].name == "a.txt");
    CHECK(page->objects[0].path == "a.txt");
    auto changes = f.repo->ReadChanges(mark + 1, 10);
    REQUIRE(changes.ok());
    REQUIRE(changes->events.size() == 1);
    CHECK(changes->events[0].type == "deleted");
    CHECK(changes->events[0].object_id == v2->id);
  }
  SUBCASE("the name is taken: the deletion is refused and changes nothing") {
    f.Doc(f.root, "a.txt", "another");
    Status s = f.repo->Delete(v2->id, false, WriteCheck::Trusted());
    CHECK_FALSE(s.ok());
    CHECK_MESSAGE(s.kind() == ErrorKind::kNameConstraintViolation, s.ToString());
    CHECK(f.Visible("b.txt") == "two");
    CHECK(f.repo->GetObject(v2->id).ok());
    CHECK(f.repo->ReadChanges(mark + 1, 10)->events.size() == 1);  // the other document's creation
  }
  CheckFsckFindsNothing(f);
}

// A document created checked out has no version: its working copy alone names it, so a
// rename of the working copy renames the document's file at once.
TEST_CASE_TEMPLATE("Versioning: renaming the working copy of a document created checked out renames its file", F,
                   RepoFixture, MemRepoFixture) {
  F f;
  ObjectData draft = f.Doc(f.root, "d.txt", "draft", VersioningState::kCheckedOut);
  auto renamed = f.repo->UpdateProperties(draft.id, Json{{"cmis:name", "e.txt"}}, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(renamed.ok(), renamed.status().ToString());
  CHECK(renamed->name == "e.txt");
  CHECK(renamed->path == "e.txt");
  CHECK(f.Has("e.txt"));
  CHECK_FALSE(f.Has("d.txt"));
  auto page = f.repo->GetChildren(f.root, 0, 10);
  REQUIRE(page.ok());
  REQUIRE(page->objects.size() == 1);
  CHECK(page->objects[0].name == "e.txt");
  CHECK(page->objects[0].path == "e.txt");
  CHECK(f.Content(draft.id) == "draft");
  CheckInRequest req;
  auto v1 = f.repo->CheckIn(draft.id, req, "alice", WriteCheck::Trusted());
  REQUIRE_MESSAGE(v1.ok(), v1.status().ToString());
  CHECK(v1->name == "e.txt");
  CHECK(f.Visible("e.txt") == "draft");
  CheckFsckFindsNothing(f);
}
