// fsck: data, domain and repository metadata, and leftovers of interrupted work
// (journal records, temp files, trash, uploads), and symlinks.
#include <doctest/doctest.h>

#include <fstream>
#include <sys/stat.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

TEST_CASE("Fsck: plants data-meta-missing and reports data-meta-missing") {
  FsckFixture f;
  SUBCASE("missing") { fs::remove(f.Abs(".folio/folio.json")); }
  SUBCASE("garbage") { WriteFile(f.Abs(".folio/folio.json"), "{\"format\": "); }
  ExpectRepaired(f.dir.path(), "data-meta-missing", ".folio/folio.json");
  CHECK(Json::parse(ReadFile(f.Abs(".folio/folio.json")))["format"] == 1);
}

TEST_CASE("Fsck: plants domain-meta-invalid and reports domain-meta-invalid") {
  FsckFixture f;
  SUBCASE("garbage") { WriteFile(f.Abs("demo/.folio/domain.json"), "not json"); }
  SUBCASE("another id") {
    EditJson(f.Abs("demo/.folio/domain.json"), [](Json& j) { j["domainId"] = "other"; });
  }
  SUBCASE("missing, with a repository below") { fs::remove(f.Abs("demo/.folio/domain.json")); }
  ExpectUnrepairable(f.dir.path(), "domain-meta-invalid", "demo/.folio/domain.json");
}

TEST_CASE("Fsck: plants repository-meta-invalid and reports repository-meta-invalid") {
  FsckFixture f;
  const std::string file = f.Abs(f.Data(".folio/repository.json"));
  SUBCASE("variant") {
    EditJson(file, [](Json& j) { j["variant"] = "C"; });
  }
  SUBCASE("no root id") {
    EditJson(file, [](Json& j) { j.erase("rootFolderId"); });
  }
  SUBCASE("root id of no folder") {
    EditJson(file, [](Json& j) { j["rootFolderId"] = "fnotthe0root00000"; });
  }
  SUBCASE("garbage") { WriteFile(file, "\x01\x02"); }
  // A repository Folio cannot open is left alone by a repair, leftovers included.
  WriteFile(f.RepoPath("reports/.folio-tmp-1-1-aaaaaa"), "x");
  ExpectUnrepairable(f.dir.path(), "repository-meta-invalid", f.Data(".folio/repository.json"));
  CHECK(fs::exists(f.RepoPath("reports/.folio-tmp-1-1-aaaaaa")));
}

TEST_CASE("Fsck: plants journal-pending and reports journal-pending") {
  FsckFixture f;
  SUBCASE("a committed change is completed") {
    // A record naming a staged temp file: the temp file is part of the change, not a leftover.
    const std::string temp = f.Data(".folio/.folio-tmp-1-1-abcdef");
    const std::string target = f.Data(".folio/renamed-by-journal");
    WriteFile(f.Abs(temp), "staged");
    fs::create_directories(f.RepoPath(".folio/journal"));
    const std::string record = f.Data(".folio/journal/000000000000001-1-000001.json");
    WriteFile(
        f.Abs(record),
        Json{{"format", 1},
             {"actions", {{{"op", "rename"}, {"from", temp}, {"to", target}}, {{"op", "remove"}, {"path", target}}}}}
            .dump());
    CHECK(Find(RunCheck(f.dir.path()), "leftover-temp-file", temp) == nullptr);
    CHECK(ExpectRepaired(f.dir.path(), "journal-pending", record) == "completed the change");
    CHECK_FALSE(fs::exists(f.Abs(temp)));
    CHECK_FALSE(fs::exists(f.Abs(target)));
  }
  SUBCASE("an unreadable record is set aside") {
    fs::create_directories(f.RepoPath(".folio/journal"));
    const std::string record = f.Data(".folio/journal/000000000000002-1-000001.json");
    WriteFile(f.Abs(record), "{\"actions\": [{\"op\": \"explode\"}]}");
    CHECK(Contains(ExpectRepaired(f.dir.path(), "journal-pending", record), "lost+found"));
    CHECK(InLostFound(f, ".folio/journal/000000000000002-1-000001.json") == "{\"actions\": [{\"op\": \"explode\"}]}");
    // The engine can change the repository again.
    CHECK(f.repo->CheckOut(f.q3.series_id, "carol", WriteCheck::Trusted()).ok());
  }
}

TEST_CASE("Fsck: plants leftover-temp-file and reports leftover-temp-file") {
  FsckFixture f;
  const std::string shard = f.IndexEntry(f.q3.series_id).substr(0, f.IndexEntry(f.q3.series_id).rfind('/'));
  const std::vector<std::string> temps = {
      f.Data("reports/.folio-tmp-1-2-abcdef"),                // a visible file being written
      f.Data("reports/.folio-tmp-5-6-bbbbbb"),                // a folder being created
      f.Data("reports/.folio/docs/q3.txt/.folio-tmp-3-4-c"),  // a version file
      shard + "/.folio-tmp-7-8-dddddd",                       // an index entry
      f.Data(".folio/journal/.folio-tmp-9-9-eeeeee"),         // a journal record being written
      "demo/.folio-tmp-1-1-ffffff",                           // a repository being created
      ".folio-tmp-2-2-gggggg",                                // a domain being created
  };
  fs::create_directories(f.Abs(temps[1] + "/.folio"));
  fs::create_directories(f.RepoPath(".folio/journal"));
  fs::create_directories(f.Abs(temps[5]));
  fs::create_directories(f.Abs(temps[6]));
  for (const std::string& t : temps) {
    if (!fs::exists(f.Abs(t))) WriteFile(f.Abs(t), "partial");
  }
  const FsckReport before = RunCheck(f.dir.path());
  for (const std::string& t : temps) CHECK_MESSAGE(Find(before, "leftover-temp-file", t), t << "\n" << Dump(before));
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK_MESSAGE(repaired.problems() == 0, Dump(repaired));
  for (const std::string& t : temps) CHECK_FALSE(fs::exists(f.Abs(t)));
  CHECK_MESSAGE(RunCheck(f.dir.path()).clean(), Dump(RunCheck(f.dir.path())));
  CHECK(f.Content(f.q3.series_id) == "version two");
}

TEST_CASE("Fsck: plants trash-leftover and reports trash-leftover") {
  FsckFixture f;
  SUBCASE("a repository's trash") {
    fs::create_directories(f.RepoPath(".folio/trash/xdeadtree/sub"));
    WriteFile(f.RepoPath(".folio/trash/xdeadtree/sub/file"), "deleted");
    ExpectRepaired(f.dir.path(), "trash-leftover", f.Data(".folio/trash/xdeadtree"));
    CHECK_FALSE(fs::exists(f.RepoPath(".folio/trash/xdeadtree")));
  }
  SUBCASE("a deleted domain") {
    fs::create_directories(f.Abs(".folio/trash-xolddomain/.folio"));
    ExpectRepaired(f.dir.path(), "trash-leftover", ".folio/trash-xolddomain");
  }
}

TEST_CASE("Fsck: plants upload-leftover and reports upload-leftover") {
  FsckFixture f;
  auto fresh = f.repo->NewUpload();  // in use: kept while fsck runs
  REQUIRE(fresh.ok());
  // One a killed process left behind (an Upload removes its file when destroyed).
  const std::string old = "demo/main/.folio/uploads/uabandoned0000000000";
  {
    std::ofstream out(f.Abs(old));
    out << "abandoned";
  }
  SetMtimeAgo(f.Abs(old), std::chrono::hours(2));
  CHECK(Find(RunCheck(f.dir.path()), "upload-leftover", (*fresh)->path()) == nullptr);
  ExpectRepaired(f.dir.path(), "upload-leftover", old);
  CHECK_FALSE(fs::exists(f.Abs(old)));
  CHECK(fs::exists(f.Abs((*fresh)->path())));  // may still be in use
}

TEST_CASE("Fsck: plants symlink-not-served and reports symlink-not-served") {
  // Where a domain, a repository or a repository's .folio is looked for, a symlink or a
  // special file is data the operator meant to be served and is not: a warning (exit 1),
  // which no repair changes (the link is the operator's).
  FsckFixture f;
  TempDir elsewhere;
  fs::copy(f.Abs("demo"), elsewhere / "demo", fs::copy_options::recursive);
  fs::create_directory_symlink(elsewhere / "demo", f.Abs("linkdom"));
  fs::create_directory_symlink(elsewhere / "demo/main", f.Abs("demo/linkrepo"));
  fs::create_directories(f.Abs("demo/halfrepo"));
  fs::create_directory_symlink(elsewhere / "demo/main/.folio", f.Abs("demo/halfrepo/.folio"));
  REQUIRE(::mkfifo(f.Abs("demo/piperepo").c_str(), 0644) == 0);
  const struct {
    const char* path;
    const char* says;
  } cases[] = {{"linkdom", "symbolic link 'linkdom' in place of a domain"},
               {"demo/linkrepo", "symbolic link 'demo/linkrepo' in place of a repository"},
               {"demo/halfrepo/.folio", "symbolic link 'demo/halfrepo/.folio' in place of a repository's metadata"},
               {"demo/piperepo", "special file 'demo/piperepo' in place of a repository"}};
  const FsckReport before = RunCheck(f.dir.path());
  for (const auto& c : cases) {
    CAPTURE(c.path);
    const Finding* w = Find(before, "symlink-not-served", c.path);
    REQUIRE_MESSAGE(w != nullptr, Dump(before));
    CHECK(w->severity == Severity::kWarning);
    CHECK(w->message.find(c.says) != std::string::npos);
    CHECK(w->message.find("objectNotFound") != std::string::npos);
    CHECK(Find(before, "symlink-ignored", c.path) == nullptr);
    ExpectUnrepairable(f.dir.path(), "symlink-not-served", c.path);
  }
  CHECK(fs::is_symlink(f.Abs("linkdom")));
  CHECK(fs::is_symlink(f.Abs("demo/halfrepo/.folio")));
}

TEST_CASE("Fsck: plants symlink-ignored and reports symlink-ignored") {
  FsckFixture f;
  fs::create_symlink("q3.txt", f.RepoPath("reports/link.txt"));
  fs::create_directory_symlink("/", f.RepoPath("escape"));
  REQUIRE(::mkfifo(f.RepoPath("reports/pipe").c_str(), 0644) == 0);
  const FsckReport before = RunCheck(f.dir.path());
  CHECK_MESSAGE(before.clean(), Dump(before));  // notes only
  for (const char* p : {"reports/link.txt", "escape", "reports/pipe"}) {
    const Finding* note = Find(before, "symlink-ignored", f.Data(p));
    REQUIRE_MESSAGE(note != nullptr, p << "\n" << Dump(before));
    CHECK(note->severity == Severity::kNote);
  }
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK(repaired.problems() == 0);
  CHECK(fs::is_symlink(f.RepoPath("reports/link.txt")));
  CHECK(Find(RunCheck(f.dir.path()), "symlink-ignored", f.Data("escape")) != nullptr);
}
