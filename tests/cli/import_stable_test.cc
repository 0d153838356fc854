// Rule I1 (docs/STORAGE.md §10): `folio import` brings each file in as it was at one
// instant. A file changed while it is copied (the copy's hook changes it between the
// read of its bytes and the check that follows, deterministically) is copied again; one
// that keeps changing is left out (exit code 3), never stored torn or cut.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

#include "cli/importer.h"
#include "folio/fsck.h"
#include "folio/store.h"
#include "support/repo_fixture.h"
#include "support/temp_dir.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

cli::ImportOptions Options(const TempDir& tmp) {
  cli::ImportOptions o;
  o.source = tmp / "src";
  o.data_dir = tmp / "data";
  o.domain = "acme";
  o.repository = "docs";
  o.progress.style = cli::ProgressOptions::Style::kNone;
  return o;
}

// The content of the document at `path`, or the error's kind name.
std::string StoredAt(const std::string& data, const std::string& path) {
  auto store = Store::Open(data, {.read_only = true, .create = false});
  REQUIRE(store.ok());
  auto repo = (*store)->GetRepository("acme", "docs");
  REQUIRE(repo.ok());
  auto o = (*repo)->GetObjectByPath(path);
  if (!o.ok()) return std::string(ErrorKindName(o.status().kind()));
  return ContentOf(**repo, o->id);
}

void CheckFsckClean(const std::string& data) {
  auto report = RunFsck(data, FsckOptions{});
  REQUIRE(report.ok());
  std::string findings;
  for (const Finding& f : report->findings) findings += f.id + " " + f.path + ": " + f.message + "\n";
  CHECK_MESSAGE(report->clean(), findings);
}

TEST_CASE("Import: a file rewritten while it is copied is copied again, whole and new") {
  TempDir tmp;
  fs::create_directories(tmp / "src");
  WriteFile(tmp / "src/log.txt", "old old old\n");
  WriteFile(tmp / "src/other.txt", "still\n");
  cli::ImportOptions o = Options(tmp);
  int calls = 0;
  o.copy_hook = [&](const std::string& source, int attempt) {
    ++calls;
    // The first copy of log.txt read the old bytes; the file is then rewritten
    // in place, same size (a torn copy would keep the old bytes under the new name).
    if (source.ends_with("/log.txt") && attempt == 1) WriteFile(tmp / "src/log.txt", "NEW NEW NEW\n");
  };
  auto report = cli::RunImport(o);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(report->left_out.empty());
  CHECK(report->copied == 2);
  CHECK(calls == 3);  // log.txt twice, other.txt once
  CHECK(StoredAt(o.data_dir, "log.txt") == "NEW NEW NEW\n");
  CHECK(StoredAt(o.data_dir, "other.txt") == "still\n");
  // Dated by the content it holds: a second run finds it there and adds nothing.
  struct stat src, dst;
  REQUIRE(::stat((tmp / "src/log.txt").c_str(), &src) == 0);
  REQUIRE(::stat((tmp / "data/acme/docs/log.txt").c_str(), &dst) == 0);
  CHECK(src.st_mtim.tv_sec == dst.st_mtim.tv_sec);
  CHECK(src.st_mtim.tv_nsec == dst.st_mtim.tv_nsec);
  o.copy_hook = {};
  auto again = cli::RunImport(o);
  REQUIRE(again.ok());
  CHECK(again->copied == 0);
  CHECK(again->already_there == 2);
  CheckFsckClean(o.data_dir);
}

TEST_CASE("Import: a file replaced under its name while it is copied is copied as it is now") {
  TempDir tmp;
  fs::create_directories(tmp / "src");
  WriteFile(tmp / "src/doc.txt", "first draft\n");
  cli::ImportOptions o = Options(tmp);
  o.copy_hook = [&](const std::string&, int attempt) {
    if (attempt > 1) return;
    // An editor's save: a new file renamed over the name.
    WriteFile(tmp / "src/.doc.txt.swp", "second draft, longer\n");
    fs::rename(tmp / "src/.doc.txt.swp", tmp / "src/doc.txt");
  };
  auto report = cli::RunImport(o);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(report->left_out.empty());
  CHECK(StoredAt(o.data_dir, "doc.txt") == "second draft, longer\n");
}

TEST_CASE("Import: a file that keeps growing while it is copied is left out, never cut") {
  TempDir tmp;
  fs::create_directories(tmp / "src");
  WriteFile(tmp / "src/growing.log", "line 1\n");
  WriteFile(tmp / "src/quiet.txt", "quiet\n");
  cli::ImportOptions o = Options(tmp);
  int appended = 0;
  o.copy_hook = [&](const std::string& source, int) {
    if (!source.ends_with("/growing.log")) return;
    std::FILE* f = std::fopen(source.c_str(), "a");
    REQUIRE(f != nullptr);
    std::fprintf(f, "line %d\n", ++appended + 1);
    std::fclose(f);
  };
  auto report = cli::RunImport(o);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(appended == 3);  // three tries
  REQUIRE(report->left_out.size() == 1);
  CHECK(report->left_out[0].path == "growing.log");
  CHECK(report->left_out[0].reason.find("changed while it was copied") != std::string::npos);
  CHECK(report->copied == 1);
  CHECK(StoredAt(o.data_dir, "growing.log") == "objectNotFound");
  CHECK(StoredAt(o.data_dir, "quiet.txt") == "quiet\n");
  CHECK(!fs::exists(tmp / "data/acme/docs/growing.log"));
  CheckFsckClean(o.data_dir);
  // Once it is still, a new run brings it in whole.
  o.copy_hook = {};
  auto again = cli::RunImport(o);
  REQUIRE(again.ok());
  CHECK(again->left_out.empty());
  CHECK(StoredAt(o.data_dir, "growing.log") == "line 1\nline 2\nline 3\nline 4\n");
}

}  // namespace
}  // namespace folio::testing
