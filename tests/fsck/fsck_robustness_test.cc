// fsck never throws or stops at a bad file: garbage anywhere is a finding, a repair
// leaves what it cannot fix, and checking again gives the same answer.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

TEST_CASE("Fsck: garbage in every kind of file is reported, never thrown, and repaired where it can be") {
  FsckFixture f;
  const std::string docs = "reports/.folio/docs/";
  WriteFile(f.Abs(".folio/folio.json"), std::string("\xff\xfe\0", 3));
  WriteFile(f.Abs("demo/.folio/domain.json"), "{");
  WriteFile(f.RepoPath("archive/.folio/folder.json"), "");
  WriteFile(f.RepoPath("reports/.folio/folder.json"), "[1, 2, 3]");
  WriteFile(f.RepoPath(docs + "q3.txt/series.json"), "{\"seriesId\": 5}");
  // Wrongly typed optional fields make the engine's decoders throw.
  WriteFile(f.RepoPath(docs + "draft.md/series.json"), Json{{"seriesId", f.draft.series_id},
                                                            {"versions", {"1.0"}},
                                                            {"versionable", "yes"},
                                                            {"checkedOut", {{"by", "bob"}, {"since", 5}, {"from", 7}}},
                                                            {"file", {{"size", "big"}}}}
                                                           .dump());
  WriteFile(f.RepoPath(docs + "draft.md/1.0.json"), Json{{"label", "1.0"},
                                                         {"major", true},
                                                         {"properties", Json::object()},
                                                         {"content", {{"length", 5}, {"mimeType", 17}}}}
                                                        .dump());
  WriteFile(f.RepoPath("notes.txt"), std::string(100000, 'n'));  // a hand edit among the garbage
  WriteFile(f.Abs(f.IndexEntry(f.ticket.id)), "null");
  WriteFile(f.RepoPath(".folio/index/zz"), "a file where a shard belongs");
  WriteFile(f.RepoPath(".folio/relationships/" + f.cites.id + ".json"), "{\"id\": 7, \"properties\": []}");
  WriteFile(f.RepoPath(".folio/types/junk.json"), "\x89PNG\r\n");
  // A property definition that is not an object makes the engine's type loader throw;
  // the item uses that type.
  WriteFile(f.RepoPath(".folio/types/my:ticket.json"),
            Json{{"id", "my:ticket"}, {"parentId", "cmis:item"}, {"propertyDefinitions", {{"my:p", 5}}}}.dump());
  fs::create_directories(f.RepoPath(".folio/journal"));
  WriteFile(f.RepoPath(".folio/journal/000000000000009-9-000009.json"), "{\"actions\": 3}");
  WriteFile(f.RepoPath("reports/.folio/docs/stray"), "a file where a series belongs");
  fs::remove_all(f.RepoPath(".folio/checkedout"));
  WriteFile(f.RepoPath(".folio/checkedout"), "a file where a directory belongs");

  const FsckReport before = RunCheck(f.dir.path());
  INFO(Dump(before));
  for (const char* id : {"data-meta-missing", "domain-meta-invalid", "sidecar-unparseable", "journal-pending",
                         "type-unparseable", "index-entry-wrong", "index-entry-dangling", "latest-content-mismatch",
                         "checkedout-marker-mismatch", "object-type-unknown"}) {
    bool seen = false;
    for (const Finding& finding : before.findings) seen = seen || finding.id == id;
    CHECK_MESSAGE(seen, std::string(id));
  }
  for (const Finding& finding : before.findings) {
    CHECK(!finding.message.empty());
    CHECK(finding.message.back() != '.');
    CHECK(!std::isupper(static_cast<unsigned char>(finding.message[0])));
  }

  const FsckReport repaired = RunRepair(f.dir.path());
  INFO(Dump(repaired));
  // Left: the domain record, the item whose type went to lost+found, and the working
  // copy whose 'from' was garbage (fsck cannot know which version it was made from).
  const FsckReport after = RunCheck(f.dir.path());
  CHECK(after.problems() == repaired.problems());
  CHECK(RunRepair(f.dir.path()).problems() == after.problems());
  for (const Finding& finding : after.findings) {
    if (finding.severity != Severity::kNote) {
      CHECK_MESSAGE((finding.id == "domain-meta-invalid" ||
                     (finding.id == "object-type-unknown" && Contains(finding.path, "items/ticket")) ||
                     (finding.id == "pwc-inconsistent" && Contains(finding.path, "draft.md"))),
                    finding.id << " " << finding.path);
    }
  }
  // User content is still there, in place or in lost+found.
  CHECK(ReadFile(f.RepoPath("reports/q3.txt")) == "version two");
  CHECK(InLostFound(f, "docs/q3.txt/1.0.content") == "v1");
  CHECK(ReadFile(f.RepoPath("notes.txt")) == std::string(100000, 'n'));
  CHECK(ReadFile(f.RepoPath("reports/draft.md")) == "draft");
  CHECK(InLostFound(f, "reports/.folio/folder.json") == "[1, 2, 3]");
}

TEST_CASE("Fsck: a data directory that is not Folio's is reported, not crashed on") {
  TempDir d;
  fs::create_directories(d / "some/dir");
  WriteFile(d / "some/file.txt", "x");
  const FsckReport report = RunCheck(d.path());
  REQUIRE(report.findings.size() == 1);
  CHECK(report.findings[0].id == "data-meta-missing");
}
