// fsck over repositories that are fine, and over directories it must not choke on.
#include <doctest/doctest.h>

#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;

TEST_CASE("Fsck: a repository built through the engine is clean") {
  FsckFixture f;
  const FsckReport report = RunCheck(f.dir.path());
  CHECK_MESSAGE(report.findings.empty(), Dump(report));
  CHECK(report.clean());
  // Repairing a clean repository changes nothing and reports nothing.
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK_MESSAGE(repaired.findings.empty(), Dump(repaired));
  CHECK_FALSE(std::filesystem::exists(f.RepoPath(".folio/lost+found")));
  CHECK(f.Content(f.q3.series_id) == "version two");
}

TEST_CASE("Fsck: a missing data directory is objectNotFound") {
  TempDir d;
  auto r = RunFsck(d / "nowhere", FsckOptions{});
  CHECK(r.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(Contains(r.status().message(), "nowhere"));
}

TEST_CASE("Fsck: severity names and problems() count errors and warnings left unrepaired") {
  CHECK(SeverityName(Severity::kError) == "error");
  CHECK(SeverityName(Severity::kWarning) == "warning");
  CHECK(SeverityName(Severity::kNote) == "note");
  FsckReport r;
  r.findings.push_back({"a", Severity::kError, "p", "m", ""});
  r.findings.push_back({"b", Severity::kWarning, "p", "m", ""});
  r.findings.push_back({"c", Severity::kNote, "p", "m", ""});
  r.findings.push_back({"d", Severity::kError, "p", "m", "moved"});
  CHECK(r.problems() == 2);
  CHECK_FALSE(r.clean());
}
