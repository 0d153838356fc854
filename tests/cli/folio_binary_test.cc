// The folio executable run as a user runs it (FOLIO_BINARY): help, inspect, fsck,
// their output and exit codes. sample-data/ is copied first: nothing writes to it.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

#include "cli/inspect_fixture.h"
#include "cli/inspect_model.h"
#include "cli/inspect_render.h"

using namespace folio;
using folio::testing::Contains;
using folio::testing::InspectFixture;
using folio::testing::ReadFile;
using folio::testing::TempDir;

namespace {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `folio ARGS` (ARGS already quoted) and collects its exit code, stdout, stderr.
Run Folio(const std::string& args) {
  TempDir tmp;
  const std::string err_file = tmp / "stderr";
  const std::string cmd = Quote(FOLIO_BINARY) + " " + args + " 2>" + Quote(err_file);
  Run r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = ReadFile(err_file);
  return r;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string LastLine(const std::string& text) {
  const std::vector<std::string> lines = Lines(text);
  return lines.empty() ? "" : lines.back();
}

// A copy of sample-data/ in a temp dir.
struct SampleCopy {
  TempDir tmp;
  std::string dir = tmp / "sample-data";
  SampleCopy() {
    const std::string src = std::string(FOLIO_SOURCE_DIR) + "/sample-data";
    REQUIRE_MESSAGE(std::filesystem::is_directory(src), "run scripts/make-sample-data.sh first");
    std::filesystem::copy(src, dir, std::filesystem::copy_options::recursive);
  }
};

}  // namespace

TEST_CASE("folio: --help lists the sub-commands, --version the version; both exit 0") {
  Run help = Folio("--help");
  CHECK(help.code == 0);
  for (const char* sub : {"serve", "inspect", "fsck"}) CHECK(Contains(help.out, sub));
  Run version = Folio("--version");
  CHECK(version.code == 0);
  CHECK(Contains(version.out, "folio "));
}

TEST_CASE("folio inspect --help and folio fsck --help describe their arguments") {
  Run inspect = Folio("inspect --help");
  CHECK(inspect.code == 0);
  for (const char* word : {"DIR", "PATH", "--json", "Exit codes"}) CHECK(Contains(inspect.out, word));
  Run fsck = Folio("fsck --help");
  CHECK(fsck.code == 0);
  for (const char* word : {"DIR", "--repair"}) CHECK(Contains(fsck.out, word));
}

TEST_CASE("folio inspect: the fixture's tree, exactly as RenderInspectText prints it") {
  InspectFixture fx;
  const std::string dir = fx.f.dir.path();
  Run r = Folio("inspect " + Quote(dir));
  CHECK(r.code == 0);
  CHECK(r.err == "");
  auto store = fx.ReadOnlyStore();
  auto tree = cli::BuildInspectTree(*store, dir, "");
  REQUIRE(tree.ok());
  CHECK(r.out == cli::RenderInspectText(*tree));
  CHECK(Contains(r.out, "a.txt  4 B · text/plain · 2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0\n"));
  CHECK(Contains(r.out, "checked out by bob since 2024-03-01T10:00:00Z"));
}

TEST_CASE("folio inspect: sample-data shows both variants, a history, a check-out and a custom type") {
  SampleCopy sample;
  Run r = Folio("inspect " + Quote(sample.dir));
  CHECK(r.code == 0);
  CHECK(r.err == "");
  const std::vector<std::string> lines = Lines(r.out);
  REQUIRE(lines.size() > 20);
  CHECK(lines[0] == sample.dir);
  CHECK(lines[1].rfind("└── demo  domain", 0) == 0);
  for (const char* text :
       {"cmis  repository · variant B", "plain  repository · variant A", "Apollo/", "mission-plan.md",
        "2.1 (latest) · 2.0 (latest major) · 1.1 · 1.0", "checked out by bob since", "image/png", "application/pdf",
        "type acme:report", "acme:quarter: 2026-Q1", "contractor-acme-aerospace  item", "summary-cites-plan"}) {
    CAPTURE(text);
    CHECK(Contains(r.out, text));
  }
}

TEST_CASE("folio inspect --json: the same tree as JSON") {
  SampleCopy sample;
  Run r = Folio("inspect " + Quote(sample.dir) + " --json");
  CHECK(r.code == 0);
  Json j = Json::parse(r.out);
  CHECK(j["root"]["kind"] == "data");
  const Json& demo = j["root"]["children"][0];
  CHECK(demo["name"] == "demo");
  REQUIRE(demo["children"].size() == 2);
  CHECK(demo["children"][0]["name"] == "cmis");
  CHECK(demo["children"][0]["variant"] == "B");
  CHECK(demo["children"][1]["name"] == "plain");
  CHECK(demo["children"][1]["variant"] == "A");
}

TEST_CASE("folio inspect PATH: a subtree; a PATH or DIR that does not exist exits 1 with one line") {
  SampleCopy sample;
  Run apollo = Folio("inspect " + Quote(sample.dir) + " demo/plain/Projects/Apollo");
  CHECK(apollo.code == 0);
  const std::vector<std::string> lines = Lines(apollo.out);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "demo/plain/Projects/Apollo/  Lunar landing programme");
  CHECK(lines[1].rfind("├── budget.csv  ", 0) == 0);

  Run missing = Folio("inspect " + Quote(sample.dir) + " demo/nope");
  CHECK(missing.code == 1);
  CHECK(missing.out == "");
  CHECK(missing.err == "folio inspect: no repository 'nope' in domain 'demo'\n");
  Run no_path = Folio("inspect " + Quote(sample.dir) + " demo/cmis/Projects/Mercury");
  CHECK(no_path.code == 1);
  CHECK(Contains(no_path.err, "/Projects/Mercury"));

  Run no_dir = Folio("inspect " + Quote(sample.dir + "-missing"));
  CHECK(no_dir.code == 1);
  CHECK(no_dir.out == "");
  CHECK(Lines(no_dir.err).size() == 1);
  CHECK(Contains(no_dir.err, sample.dir + "-missing"));
  Run not_dir = Folio("inspect " + Quote(sample.dir + "/demo/cmis/README.md"));
  CHECK(not_dir.code == 1);
  CHECK(Lines(not_dir.err).size() == 1);
}

TEST_CASE("folio inspect: a directory that is not a data directory exits 1 saying what it is and what to type") {
  SampleCopy sample;
  Run repo = Folio("inspect " + Quote(sample.dir + "/demo/plain"));
  CHECK(repo.code == 1);
  CHECK(repo.out == "");
  CHECK(repo.err == "folio inspect: '" + sample.dir + "/demo/plain' is a repository directory, not a data directory: " +
                        "try folio inspect " + sample.dir + " demo/plain\n");
  Run domain = Folio("inspect " + Quote(sample.dir + "/demo"));
  CHECK(domain.code == 1);
  CHECK(domain.err == "folio inspect: '" + sample.dir + "/demo' is a domain directory, not a data directory: " +
                          "try folio inspect " + sample.dir + " demo\n");
  TempDir foreign;
  folio::testing::WriteFile(foreign / "notes.txt", "mine");
  Run other = Folio("inspect " + Quote(foreign.path()));
  CHECK(other.code == 1);
  CHECK(other.out == "");
  CHECK(Contains(other.err, "'" + foreign.path() + "' is not a Folio data directory: it has no .folio/folio.json"));
  TempDir empty;
  Run nothing = Folio("inspect " + Quote(empty.path()));
  CHECK(nothing.code == 1);
  CHECK(Contains(nothing.err, "is not a Folio data directory"));
}

TEST_CASE("folio inspect: usage errors exit non-zero") {
  CHECK(Folio("inspect").code != 0);
  CHECK(Folio("inspect --no-such-flag x").code != 0);
}

TEST_CASE("folio fsck: a clean data directory exits 0 and says clean") {
  InspectFixture fx;
  Run r = Folio("fsck " + Quote(fx.f.dir.path()));
  CHECK(r.code == 0);
  CHECK(LastLine(r.out) == "clean");
  SampleCopy sample;
  Run s = Folio("fsck " + Quote(sample.dir));
  CHECK_MESSAGE(s.code == 0, s.out);
  CHECK(LastLine(s.out) == "clean");
}

TEST_CASE("folio fsck: problems are listed with id and path, exit 1; a missing DIR exits 2") {
  InspectFixture fx;
  // Planted: a leftover temp file of an interrupted write.
  folio::testing::WriteFile(fx.f.RepoPath("docs/.folio-tmp-1-1-abc"), "half");
  Run r = Folio("fsck " + Quote(fx.f.dir.path()));
  CHECK(r.code == 1);
  CHECK(Contains(r.out, "warning leftover-temp-file demo/main/docs/.folio-tmp-1-1-abc: "));
  CHECK(LastLine(r.out) == "1 problem");

  Run repaired = Folio("fsck " + Quote(fx.f.dir.path()) + " --repair");
  CHECK(repaired.code == 0);
  CHECK(Contains(repaired.out, "leftover-temp-file demo/main/docs/.folio-tmp-1-1-abc: "));
  CHECK(Contains(repaired.out, " -> "));
  CHECK(Folio("fsck " + Quote(fx.f.dir.path())).code == 0);

  Run missing = Folio("fsck " + Quote(fx.f.dir.path() + "-missing"));
  CHECK(missing.code == 2);
  CHECK(missing.out == "");
  CHECK(Contains(missing.err, "-missing"));
}
