// fsck: records (sidecars), hand-added objects, ids, the id index and types.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

TEST_CASE("Fsck: plants sidecar-unparseable and reports sidecar-unparseable") {
  FsckFixture f;
  SUBCASE("a folder record: set aside, the folder adopted afresh") {
    WriteFile(f.RepoPath("reports/.folio/folder.json"), "{\"id\": ");
    CHECK(Contains(ExpectRepaired(f.dir.path(), "sidecar-unparseable", f.Data("reports/.folio/folder.json")),
                   "lost+found"));
    CHECK(InLostFound(f, "reports/.folio/folder.json") == "{\"id\": ");
    auto reports = f.repo->GetObjectByPath("reports");
    REQUIRE(reports.ok());
    CHECK(reports->id != f.reports.id);
    CHECK(f.Content(f.q3.series_id) == "version two");
    CHECK(f.repo->GetObject(f.ticket.id).ok());
  }
  SUBCASE("an item record") {
    WriteFile(f.RepoPath("reports/.folio/items/ticket/item.json"), "[]");
    ExpectRepaired(f.dir.path(), "sidecar-unparseable", f.Data("reports/.folio/items/ticket/item.json"));
    CHECK(InLostFound(f, "reports/.folio/items/ticket/item.json") == "[]");
    CHECK(f.repo->GetObject(f.ticket.id).status().kind() == ErrorKind::kObjectNotFound);
  }
  SUBCASE("a relationship without a target") {
    const std::string rel = ".folio/relationships/" + f.cites.id + ".json";
    EditJson(f.RepoPath(rel), [](Json& j) { j["properties"].erase("cmis:targetId"); });
    ExpectRepaired(f.dir.path(), "sidecar-unparseable", f.Data(rel));
    CHECK_FALSE(InLostFound(f, rel).empty());
  }
  SUBCASE("a series record: the series set aside, the file adopted as a new document") {
    WriteFile(f.RepoPath("reports/.folio/docs/q3.txt/series.json"), "{\"seriesId\": 5}");
    ExpectRepaired(f.dir.path(), "sidecar-unparseable", f.Data("reports/.folio/docs/q3.txt/series.json"));
    CHECK(InLostFound(f, "docs/q3.txt/1.0.content") == "v1");
    CHECK(InLostFound(f, "docs/q3.txt/2.0.content") == "version two");
    auto q3 = f.repo->GetObjectByPath("reports/q3.txt");
    REQUIRE(q3.ok());
    CHECK(q3->series_id != f.q3.series_id);
    CHECK(f.Content(q3->id) == "version two");
  }
  SUBCASE("a version record: set aside, then rebuilt; the store is clean") {
    const std::string v10 = f.Data("reports/.folio/docs/q3.txt/1.0.json");
    WriteFile(f.Abs(v10), "{\"label\": 1}");
    const FsckReport before = RunCheck(f.dir.path());
    CHECK_MESSAGE(Find(before, "sidecar-unparseable", v10), Dump(before));
    const FsckReport repaired = RunRepair(f.dir.path());
    const Finding* moved = Find(repaired, "sidecar-unparseable", v10);
    REQUIRE_MESSAGE(moved != nullptr, Dump(repaired));
    CHECK(Contains(moved->repair, "lost+found"));
    CHECK(InLostFound(f, "docs/q3.txt/1.0.json") == "{\"label\": 1}");
    const Finding* rebuilt = Find(repaired, "version-file-missing", v10);
    REQUIRE_MESSAGE(rebuilt != nullptr, Dump(repaired));
    CHECK(Contains(rebuilt->repair, "rebuilt"));
    const FsckReport after = RunCheck(f.dir.path());
    CHECK_MESSAGE(after.clean(), Dump(after));
    CHECK(f.Content(f.q3.series_id) == "version two");
    CHECK(f.Content(f.q3.series_id + ";1.0") == "v1");
  }
}

TEST_CASE("Fsck: plants folder-record-missing and reports folder-record-missing") {
  FsckFixture f;
  SUBCASE("a folder made by hand is adopted") {
    fs::create_directories(f.RepoPath("manual/deeper"));
    WriteFile(f.RepoPath("manual/deeper/x.txt"), "by hand");
    const FsckReport before = RunCheck(f.dir.path());
    CHECK_MESSAGE(before.clean(), Dump(before));  // notes: Folio adopts these by itself
    CHECK(Find(before, "folder-record-missing", f.Data("manual/deeper")) != nullptr);
    CHECK(Contains(ExpectRepaired(f.dir.path(), "folder-record-missing", f.Data("manual")), "adopted as folder"));
    CHECK(fs::exists(f.RepoPath("manual/deeper/.folio/folder.json")));
    auto x = f.repo->GetObjectByPath("manual/deeper/x.txt");
    REQUIRE(x.ok());
    CHECK(f.Content(x->id) == "by hand");
  }
  SUBCASE("the root folder gets the repository's root id") {
    fs::remove(f.RepoPath(".folio/folder.json"));
    ExpectRepaired(f.dir.path(), "folder-record-missing", f.Data());
    auto root = f.repo->GetObjectByPath("");
    REQUIRE_MESSAGE(root.ok(), root.status().ToString());
    CHECK(root->id == f.root);
  }
}

TEST_CASE("Fsck: plants document-record-missing and reports document-record-missing") {
  FsckFixture f;
  WriteFile(f.RepoPath("reports/hand.txt"), "added by hand");
  CHECK(RunCheck(f.dir.path()).clean());
  const std::string repair = ExpectRepaired(f.dir.path(), "document-record-missing", f.Data("reports/hand.txt"));
  // An entry of an adoption table of its folder (docs/STORAGE.md §4.1), not a series.
  CHECK_FALSE(fs::exists(f.RepoPath("reports/.folio/docs/hand.txt")));
  const Json table = Json::parse(ReadFile(f.RepoPath(".folio/adopted/" + f.reports.id + "/1.json")));
  const std::string id = table["documents"]["hand.txt"]["seriesId"].get<std::string>();
  CHECK_MESSAGE(Contains(repair, "adopted as document '" + id + "' (version 1.0)"), repair);
  auto hand = f.repo->GetObjectByPath("reports/hand.txt");
  REQUIRE(hand.ok());
  CHECK(hand->series_id == id);
  CHECK(hand->version_label == "1.0");
  CHECK(f.Content(hand->id) == "added by hand");
}

TEST_CASE("Fsck: plants id-duplicate and reports id-duplicate") {
  FsckFixture f;
  fs::create_directories(f.RepoPath("copy/.folio"));
  fs::copy_file(f.RepoPath("reports/.folio/folder.json"), f.RepoPath("copy/.folio/folder.json"));
  WriteFile(f.RepoPath("copy/kept.txt"), "kept");
  ExpectRepaired(f.dir.path(), "id-duplicate", f.Data("copy/.folio/folder.json"));
  CHECK(f.repo->GetObject(f.reports.id)->path == "reports");
  auto copy = f.repo->GetObjectByPath("copy");
  REQUIRE(copy.ok());
  CHECK(copy->id != f.reports.id);
  CHECK(ReadFile(f.RepoPath("copy/kept.txt")) == "kept");
}

TEST_CASE("Fsck: plants index-entry-missing and reports index-entry-missing") {
  FsckFixture f;
  fs::remove(f.Abs(f.IndexEntry(f.q3.series_id)));
  {
    // A process that has not cached the entry finds nothing by id (this one may still
    // know where the entry pointed, and finds the object: harmless, fsck tells).
    auto fresh = Store::Open(f.dir.path());
    REQUIRE(fresh.ok());
    auto repo = (*fresh)->GetRepository("demo", "main");
    REQUIRE(repo.ok());
    CHECK((*repo)->GetObject(f.q3.series_id).status().kind() == ErrorKind::kObjectNotFound);
  }
  CHECK(ExpectRepaired(f.dir.path(), "index-entry-missing", f.IndexEntry(f.q3.series_id)) == "wrote the entry");
  CHECK(f.Content(f.q3.series_id) == "version two");
}

TEST_CASE("Fsck: plants index-entry-wrong and reports index-entry-wrong") {
  FsckFixture f;
  const std::string entry = f.Abs(f.IndexEntry(f.ticket.id));
  SUBCASE("kind") {
    EditJson(entry, [](Json& j) { j["kind"] = "document"; });
  }
  SUBCASE("parent") {
    EditJson(entry, [&](Json& j) { j["parent"] = f.archive.id; });
  }
  SUBCASE("name") {
    EditJson(entry, [](Json& j) { j["name"] = "other"; });
  }
  SUBCASE("unreadable") { WriteFile(entry, "null"); }
  ExpectRepaired(f.dir.path(), "index-entry-wrong", f.IndexEntry(f.ticket.id));
  CHECK(f.repo->GetObject(f.ticket.id)->name == "ticket");
}

TEST_CASE("Fsck: an index entry's path is only a hint, not a finding") {
  FsckFixture f;
  EditJson(f.Abs(f.IndexEntry(f.q3.series_id)), [](Json& j) { j["path"] = "somewhere/else.txt"; });
  const FsckReport report = RunCheck(f.dir.path());
  CHECK_MESSAGE(report.findings.empty(), Dump(report));
}

TEST_CASE("Fsck: plants index-entry-dangling and reports index-entry-dangling") {
  FsckFixture f;
  const std::string gone = "d0000000000000gone";
  fs::create_directories(f.Abs(f.IndexEntry(gone)).substr(0, f.Abs(f.IndexEntry(gone)).rfind('/')));
  WriteFile(f.Abs(f.IndexEntry(gone)),
            Json{{"kind", "document"}, {"parent", f.root}, {"name", "gone.txt"}, {"path", "gone.txt"}}.dump());
  // An entry with no object is an object gone: its deletion goes to the change log.
  CHECK(ExpectRepaired(f.dir.path(), "index-entry-dangling", f.IndexEntry(gone)) ==
        "recorded the deletion of '" + gone + "' in the change log and removed the entry");
  CHECK_FALSE(fs::exists(f.Abs(f.IndexEntry(gone))));
}

TEST_CASE("Fsck: plants object-type-unknown and reports object-type-unknown") {
  FsckFixture f;
  std::string record;
  SUBCASE("a folder") {
    record = f.Data("reports/.folio/folder.json");
    EditJson(f.Abs(record), [](Json& j) { j["properties"]["cmis:objectTypeId"] = "my:missing"; });
  }
  SUBCASE("a version") {
    record = f.Data("reports/.folio/docs/q3.txt/1.1.json");
    EditJson(f.Abs(record), [](Json& j) { j["properties"]["cmis:objectTypeId"] = 42; });
  }
  ExpectUnrepairable(f.dir.path(), "object-type-unknown", record);
}

TEST_CASE("Fsck: plants type-unparseable and reports type-unparseable") {
  FsckFixture f;
  std::string file;
  std::string bytes;
  SUBCASE("garbage") {
    file = f.Data(".folio/types/bad.json");
    bytes = "\x89PNG";
  }
  SUBCASE("an unknown parent") {
    file = f.Data(".folio/types/x:orphan.json");
    bytes = Json{{"id", "x:orphan"}, {"parentId", "x:nobody"}}.dump();
  }
  SUBCASE("a name that is not its id") {
    file = f.Data(".folio/types/renamed.json");
    bytes = Json{{"id", "x:real"}, {"parentId", "cmis:document"}}.dump();
  }
  WriteFile(f.Abs(file), bytes);
  CHECK(Contains(ExpectRepaired(f.dir.path(), "type-unparseable", file), "lost+found"));
  CHECK(InLostFound(f, file.substr(file.rfind('/'))) == bytes);
  CHECK(f.repo->GetTypeDefinition("acme:contract").ok());
}
