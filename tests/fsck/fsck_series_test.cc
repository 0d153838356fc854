// fsck: documents, their versions, working copies, markers and the visible file.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

namespace {
std::string Q3(const std::string& file) { return FsckFixture::Data("reports/.folio/docs/q3.txt/" + file); }
std::string Draft(const std::string& file) { return FsckFixture::Data("reports/.folio/docs/draft.md/" + file); }
}  // namespace

TEST_CASE("Fsck: plants content-file-missing and reports content-file-missing") {
  FsckFixture f;
  fs::remove(f.RepoPath("reports/q3.txt"));
  CHECK(Contains(ExpectRepaired(f.dir.path(), "content-file-missing", f.Data("reports/q3.txt")), "lost+found"));
  CHECK(InLostFound(f, "docs/q3.txt/2.0.content") == "version two");
  CHECK(InLostFound(f, "docs/q3.txt/1.1.content") == "v1.1");
  CHECK_FALSE(fs::exists(f.Abs(f.IndexEntry(f.q3.series_id))));  // its index entry dropped
}

TEST_CASE("Fsck: plants version-labels-invalid and reports version-labels-invalid") {
  FsckFixture f;
  std::string path;
  SUBCASE("a major flag that does not match the label") {
    path = Q3("2.0.json");
    EditJson(f.Abs(path), [](Json& j) { j["major"] = false; });
  }
  SUBCASE("a record holding another label") {
    path = Q3("1.1.json");
    EditJson(f.Abs(path), [](Json& j) { j["label"] = "1.2"; });
  }
  SUBCASE("labels out of order") {
    path = Q3("series.json");
    EditJson(f.Abs(path), [](Json& j) { j["versions"] = Json::array({"1.1", "1.0", "2.0"}); });
  }
  SUBCASE("a label that is not one") {
    path = Q3("series.json");
    EditJson(f.Abs(path), [](Json& j) { j["versions"] = Json::array({"1.0", "1.1", "02.0"}); });
  }
  ExpectUnrepairable(f.dir.path(), "version-labels-invalid", path);
}

TEST_CASE("Fsck: plants version-file-missing and reports version-file-missing") {
  FsckFixture f;
  SUBCASE("content: nothing can bring it back") {
    fs::remove(f.Abs(Q3("1.1.content")));
    ExpectUnrepairable(f.dir.path(), "version-file-missing", Q3("1.1.content"));
  }
  SUBCASE("record: rebuilt from the series, its content and the other records") {
    fs::remove(f.Abs(Q3("1.0.json")));
    const std::string said = ExpectRepaired(f.dir.path(), "version-file-missing", Q3("1.0.json"));
    CHECK(Contains(said, "rebuilt"));
    auto v10 = f.repo->GetObject(f.q3.series_id + ";1.0");
    REQUIRE_MESSAGE(v10.ok(), v10.status().ToString());
    CHECK(v10->properties["cmis:versionLabel"] == "1.0");
    CHECK(v10->properties["cmis:isMajorVersion"] == true);
    CHECK(v10->properties["cmis:name"] == "q3.txt");
    CHECK(Contains(v10->properties["cmis:checkinComment"].get<std::string>(), "fsck --repair"));
    CHECK(f.Content(v10->id) == "v1");
  }
  CHECK(f.Content(f.q3.series_id) == "version two");
}

TEST_CASE("Fsck: plants version-file-unlisted and reports version-file-unlisted") {
  FsckFixture f;
  fs::copy_file(f.Abs(Q3("2.0.json")), f.Abs(Q3("7.0.json")));
  WriteFile(f.Abs(Q3("7.0.content")), "from the future");
  ExpectRepaired(f.dir.path(), "version-file-unlisted", Q3("7.0.content"));
  CHECK_FALSE(fs::exists(f.Abs(Q3("7.0.json"))));
  CHECK(InLostFound(f, "q3.txt/7.0.content") == "from the future");
  CHECK_FALSE(InLostFound(f, "q3.txt/7.0.json").empty());
}

TEST_CASE("Fsck: plants content-length-mismatch and reports content-length-mismatch") {
  FsckFixture f;
  std::string path;
  SUBCASE("a version") { path = Q3("1.1.json"); }
  SUBCASE("a working copy") { path = Draft("pwc.json"); }
  EditJson(f.Abs(path), [](Json& j) { j["content"]["length"] = 999; });
  CHECK(Contains(ExpectRepaired(f.dir.path(), "content-length-mismatch", path), "content length"));
  CHECK(Json::parse(ReadFile(f.Abs(path)))["content"]["length"] ==
        fs::file_size(f.Abs(path.substr(0, path.size() - 5) + ".content")));
}

TEST_CASE("Fsck: plants version-content-changed and reports version-content-changed") {
  // Rule V5 (docs/STORAGE.md §4.2): the bytes of an earlier version changed, its length
  // not; --repair never takes them in.
  FsckFixture f;
  WriteFile(f.Abs(Q3("1.1.content")), "V1.1");
  const std::string record = ReadFile(f.Abs(Q3("1.1.json")));
  ExpectUnrepairable(f.dir.path(), "version-content-changed", Q3("1.1.content"));
  CHECK(ReadFile(f.Abs(Q3("1.1.json"))) == record);
  CHECK(ReadFile(f.Abs(Q3("1.1.content"))) == "V1.1");
}

TEST_CASE("Fsck: content-length-mismatch of changed content is not repaired") {
  FsckFixture f;
  WriteFile(f.Abs(Q3("1.0.content")), "v1 and more");
  const std::string record = ReadFile(f.Abs(Q3("1.0.json")));
  ExpectUnrepairable(f.dir.path(), "content-length-mismatch", Q3("1.0.json"));
  CHECK(ReadFile(f.Abs(Q3("1.0.json"))) == record);
}

TEST_CASE("Fsck: plants pwc-inconsistent and reports pwc-inconsistent") {
  FsckFixture f;
  SUBCASE("a check-out whose working copy is gone is cleared") {
    fs::remove(f.Abs(Draft("pwc.json")));
    ExpectRepaired(f.dir.path(), "pwc-inconsistent", Draft("series.json"));
    CHECK(InLostFound(f, "draft.md/pwc.content") == "draft wip");
    auto draft = f.repo->GetObject(f.draft.series_id);
    REQUIRE(draft.ok());
    CHECK(draft->properties["cmis:isVersionSeriesCheckedOut"] == false);
    CHECK_FALSE(fs::exists(f.Abs(f.Marker(f.draft.series_id))));
    CHECK(f.repo->CheckOut(f.draft.series_id, "carol", WriteCheck::Trusted()).ok());
  }
  SUBCASE("a stray working copy is set aside") {
    fs::copy_file(f.Abs(Draft("pwc.json")), f.Abs(Q3("pwc.json")));
    fs::copy_file(f.Abs(Draft("pwc.content")), f.Abs(Q3("pwc.content")));
    ExpectRepaired(f.dir.path(), "pwc-inconsistent", Q3("pwc.json"));
    CHECK(InLostFound(f, "q3.txt/pwc.content") == "draft wip");
    CHECK(f.repo->CheckOut(f.q3.series_id, "carol", WriteCheck::Trusted()).ok());
  }
  SUBCASE("a document created checked out without its working copy is set aside whole") {
    const std::string series = FsckFixture::Data("reports/.folio/docs/new.txt/series.json");
    fs::remove(f.RepoPath("reports/.folio/docs/new.txt/pwc.json"));
    ExpectRepaired(f.dir.path(), "pwc-inconsistent", series);
    CHECK(InLostFound(f, "new.txt/pwc.content") == "fresh");
    CHECK(f.repo->GetObjectByPath("reports/new.txt").ok());  // its empty file, adopted
  }
  SUBCASE("a check-out from a version that is not listed") {
    EditJson(f.Abs(Draft("series.json")), [](Json& j) { j["checkedOut"]["from"] = "9.0"; });
    ExpectUnrepairable(f.dir.path(), "pwc-inconsistent", Draft("series.json"));
  }
}

TEST_CASE("Fsck: plants checkedout-marker-mismatch and reports checkedout-marker-mismatch") {
  FsckFixture f;
  SUBCASE("missing") {
    fs::remove(f.Abs(f.Marker(f.draft.series_id)));
    ExpectRepaired(f.dir.path(), "checkedout-marker-mismatch", f.Marker(f.draft.series_id));
    CHECK(fs::exists(f.Abs(f.Marker(f.draft.series_id))));
    auto out = f.repo->GetCheckedOut("");
    REQUIRE(out.ok());
    CHECK(out->size() == 2);
  }
  SUBCASE("stale") {
    WriteFile(f.Abs(f.Marker(f.q3.series_id)), f.q3.series_id + "\n");
    ExpectRepaired(f.dir.path(), "checkedout-marker-mismatch", f.Marker(f.q3.series_id));
    CHECK_FALSE(fs::exists(f.Abs(f.Marker(f.q3.series_id))));
  }
}

TEST_CASE("Fsck: plants latest-content-mismatch and reports latest-content-mismatch") {
  FsckFixture f;
  SUBCASE("the visible file edited by hand becomes the latest content") {
    fs::remove(f.RepoPath("reports/q3.txt"));
    WriteFile(f.RepoPath("reports/q3.txt"), "edited by hand");
    ExpectRepaired(f.dir.path(), "latest-content-mismatch", f.Data("reports/q3.txt"));
    CHECK(f.Content(f.q3.series_id) == "edited by hand");
    CHECK(f.repo->GetAllVersions(f.q3.series_id)->size() == 3);  // no new version
  }
  SUBCASE("content replaced behind the visible file's back (same size and mtime)") {
    // The visible file is the latest content file itself (a link): a new file put in the
    // content's place, as an editor saves, is what can differ from it.
    const auto mtime = fs::last_write_time(f.RepoPath("reports/q3.txt"));
    fs::remove(f.Abs(Q3("2.0.content")));
    WriteFile(f.Abs(Q3("2.0.content")), "VERSION TWO");
    fs::last_write_time(f.RepoPath("reports/q3.txt"), mtime);
    const std::string said = ExpectRepaired(f.dir.path(), "latest-content-mismatch", f.Data("reports/q3.txt"));
    CHECK(Contains(said, "lost+found"));
    CHECK(ReadFile(f.Abs(Q3("2.0.content"))) == "version two");
    CHECK(InLostFound(f, "q3.txt/2.0.content") == "VERSION TWO");
    // One change of the commit log, as the engine takes in an edit: the content is the
    // visible file itself (linked), and the change log says the version was updated.
    CHECK(fs::equivalent(f.Abs(Q3("2.0.content")), f.RepoPath("reports/q3.txt")));
    auto latest = f.repo->LatestChangeToken();
    REQUIRE(latest.ok());
    auto page = f.repo->ReadChanges(*latest, 1);
    REQUIRE(page.ok());
    REQUIRE(page->events.size() == 1);
    CHECK(page->events[0].type == "updated");
    CHECK(page->events[0].object_id == f.q3.series_id + ";2.0");
    CHECK_FALSE(fs::exists(f.RepoPath(".folio/journal")));
  }
  SUBCASE("a document without content has an empty file") {
    WriteFile(f.RepoPath("contract.pdf"), "%PDF-1.4");
    ExpectRepaired(f.dir.path(), "latest-content-mismatch", f.Data("contract.pdf"));
    CHECK(f.Content(f.contract.series_id) == "%PDF-1.4");
  }
}
