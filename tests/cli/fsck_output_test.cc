// The lines folio fsck prints (src/cli/fsck_output.cc).
#include "cli/fsck_output.h"

#include <doctest/doctest.h>

using namespace folio;
using namespace folio::cli;

TEST_CASE("FsckOutput: one line per finding, with the repair when one was made") {
  Finding f;
  f.id = "leftover-temp-file";
  f.severity = Severity::kWarning;
  f.path = "demo/main/docs/.folio-tmp-1-2-abc";
  f.message = "temporary file of an interrupted write";
  CHECK(FormatFinding(f) ==
        "warning leftover-temp-file demo/main/docs/.folio-tmp-1-2-abc: temporary file of an interrupted write");
  f.repair = "removed";
  CHECK(FormatFinding(f) ==
        "warning leftover-temp-file demo/main/docs/.folio-tmp-1-2-abc: temporary file of an interrupted write "
        "-> removed");
  f.severity = Severity::kError;
  f.repair.clear();
  CHECK(FormatFinding(f).rfind("error leftover-temp-file ", 0) == 0);
}

TEST_CASE("FsckOutput: the summary counts errors and warnings, not notes") {
  FsckReport report;
  CHECK(FormatSummary(report) == "clean");
  Finding note;
  note.id = "document-record-missing";
  note.severity = Severity::kNote;
  report.findings.push_back(note);
  CHECK(FormatSummary(report) == "clean");
  Finding error;
  error.id = "index-entry-missing";
  error.severity = Severity::kError;
  report.findings.push_back(error);
  CHECK(FormatSummary(report) == "1 problem");
  report.findings.push_back(error);
  CHECK(FormatSummary(report) == "2 problems");
}
