// folio import and folio export run as a user runs them (FOLIO_BINARY): a tree
// in and out again, MIME types by extension and by content, re-runs that add
// nothing, a kill in the middle then a re-run that ends with the same tree, and
// the refusal to work on a data directory that a real `folio serve` holds.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>

#include "cli/folio_run.h"
#include "folio/fsck.h"
#include "folio/store.h"
#include "storage/datetime.h"
#include "support/child_process.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

void Write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  WriteFile(path.string(), bytes);
}

// Every regular file below `root` by relative path, with its bytes.
std::map<std::string, std::string> TreeOf(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && !e.is_symlink())
      out[fs::relative(e.path(), root).string()] = ReadFile(e.path().string());
  }
  return out;
}

std::unique_ptr<Store> OpenStore(const std::string& dir) {
  auto s = Store::Open(dir, {.read_only = true, .create = false});
  REQUIRE_MESSAGE(s.ok(), s.status().ToString());
  return std::move(*s);
}

std::shared_ptr<Repository> OpenRepo(Store& store, const std::string& domain, const std::string& repo) {
  auto r = store.GetRepository(domain, repo);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

void CheckFsckClean(const std::string& dir) {
  auto report = RunFsck(dir, FsckOptions{});
  REQUIRE(report.ok());
  std::string findings;
  for (const Finding& f : report->findings) findings += f.id + " " + f.path + ": " + f.message + "\n";
  CHECK_MESSAGE(report->clean(), findings);
}

// A small tree with what import must get right.
struct SourceTree {
  TempDir tmp;
  fs::path src = fs::path(tmp.path()) / "src";
  SourceTree() {
    Write(src / "notes.txt", "plain notes\n");
    Write(src / "reports" / "q3.csv", "a,b\n1,2\n");
    Write(src / "reports" / "2024" / "summary.md", "# Summary\n");
    // No extension: libmagic reads the bytes.
    Write(src / "reports" / "scan", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n");
    Write(src / "README", "This is plain text, a README without an extension.\n");
    Write(src / "empty.dat", "");
    Write(src / "Ünïcode näme.txt", "ü\n");
    fs::create_directories(src / "empty folder");
  }
};

TEST_CASE(
    "folio import: a tree becomes folders and documents; domain and "
    "repository made with the variant") {
  SourceTree t;
  const std::string data = t.tmp / "data";
  Run r = Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --variant A --progress none");
  INFO(r.out, r.err);
  REQUIRE(r.code == 0);
  CHECK(Contains(r.out, "created domain acme"));
  CHECK(Contains(r.out, "created repository acme/docs"));
  CHECK(Contains(r.out, "imported 7 files"));
  CHECK(Contains(r.out,
                 "3 folders into acme/docs"));  // reports, reports/2024, empty folder
  CHECK(Contains(r.out, "7 copied, 0 already there, 0 left out"));

  auto store = OpenStore(data);
  auto repo = OpenRepo(*store, "acme", "docs");
  CHECK(repo->info().variant == "A");
  auto mime = [&](const std::string& path) {
    auto o = repo->GetObjectByPath(path);
    REQUIRE_MESSAGE(o.ok(), (path + ": " + o.status().ToString()));
    REQUIRE(o->content.has_value());
    return o->content->mime_type;
  };
  CHECK(mime("notes.txt") == "text/plain");
  CHECK(mime("reports/q3.csv") == "text/csv");
  CHECK(mime("reports/2024/summary.md") == "text/markdown");
  CHECK(mime("reports/scan") == "application/pdf");
  CHECK(mime("README") == "text/plain");
  CHECK(mime("empty.dat") == "application/octet-stream");
  auto doc = repo->GetObjectByPath("reports/q3.csv");
  REQUIRE(doc.ok());
  CHECK(doc->version_label == "1.0");
  CHECK(ContentOf(*repo, doc->id) == "a,b\n1,2\n");
  CHECK(doc->properties["cmis:createdBy"] == "system");
  // Dated by the file's modification time.
  const auto mtime = fs::last_write_time(t.src / "reports" / "q3.csv");
  const int64_t mtime_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::file_clock::to_sys(mtime).time_since_epoch())
          .count();
  CHECK(doc->properties["cmis:creationDate"] == mtime_ms);
  // Copied once: version 1.0 is the visible file itself, one entry of its folder's
  // adoption table (docs/STORAGE.md §4.1), with no series directory or second name.
  struct stat visible;
  REQUIRE(::stat((data + "/acme/docs/reports/q3.csv").c_str(), &visible) == 0);
  CHECK(visible.st_nlink == 1);
  CHECK_FALSE(fs::exists(data + "/acme/docs/reports/.folio/docs/q3.csv"));
  auto reports = repo->GetObjectByPath("reports");
  REQUIRE(reports.ok());
  CHECK(fs::exists(data + "/acme/docs/.folio/adopted/" + reports->id + "/1.json"));
  auto folder = repo->GetObjectByPath("empty folder");
  REQUIRE(folder.ok());
  CHECK(folder->base == BaseType::kFolder);
  CHECK(repo->GetObjectByPath("Ünïcode näme.txt").ok());
  CheckFsckClean(data);
}

TEST_CASE(
    "folio import: run again, nothing is copied or duplicated; new files "
    "are added") {
  SourceTree t;
  const std::string data = t.tmp / "data";
  const std::string cmd = "import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --progress none";
  REQUIRE(Folio(cmd).code == 0);
  Run again = Folio(cmd);
  INFO(again.out, again.err);
  REQUIRE(again.code == 0);
  CHECK(Contains(again.out, "0 copied, 7 already there"));
  CHECK(!Contains(again.out, "created"));
  Write(t.src / "reports" / "new.txt", "new");
  Run third = Folio(cmd);
  CHECK(Contains(third.out, "1 copied, 7 already there"));
  auto store = OpenStore(data);
  auto repo = OpenRepo(*store, "acme", "docs");
  auto reports = repo->GetObjectByPath("reports");
  REQUIRE(reports.ok());
  auto children = repo->GetChildren(reports->id, 0, 100);
  REQUIRE(children.ok());
  CHECK(children->total == 4);  // 2024/, new.txt, q3.csv, scan
  CheckFsckClean(data);
}

TEST_CASE(
    "folio import: links, reserved names and clashes are left out by "
    "name, exit 3; the rest is imported") {
  SourceTree t;
  fs::create_symlink("notes.txt", t.src / "link.txt");
  Write(t.src / ".folio-mine", "reserved");
  const std::string data = t.tmp / "data";
  const std::string cmd = "import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --progress none";
  Run r = Folio(cmd);
  INFO(r.out, r.err);
  CHECK(r.code == 3);
  CHECK(Contains(r.err, "left out 'link.txt': a symbolic link"));
  CHECK(Contains(r.err, "left out '.folio-mine'"));
  CHECK(Contains(r.out, "7 copied, 0 already there, 2 left out"));

  // The repository's notes.txt changed since: kept, and the source's is left
  // out.
  {
    auto store = Store::Open(data);
    REQUIRE(store.ok());
    auto repo = OpenRepo(**store, "acme", "docs");
    auto doc = repo->GetObjectByPath("notes.txt");
    REQUIRE(doc.ok());
    auto pwc = repo->CheckOut(doc->id, "alice", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    CheckInRequest req;
    req.content = ContentSource::FromBytes("edited in Folio");
    REQUIRE(repo->CheckIn(pwc->id, req, "alice", WriteCheck::Trusted()).ok());
  }
  Run again = Folio(cmd);
  CHECK(again.code == 3);
  CHECK(Contains(again.err,
                 "left out 'notes.txt': a different document with "
                 "that name is in the repository (kept)"));
  auto store = OpenStore(data);
  auto repo = OpenRepo(*store, "acme", "docs");
  auto doc = repo->GetObjectByPath("notes.txt");
  REQUIRE(doc.ok());
  CHECK(ContentOf(*repo, doc->id) == "edited in Folio");
}

TEST_CASE("folio import: bad arguments name the culprit") {
  SourceTree t;
  const std::string data = t.tmp / "data";
  Run r = Folio("import " + Quote((t.src / "missing").string()) + " " + Quote(data) + " acme/docs");
  CHECK(r.code == 1);
  CHECK(Contains(r.err, "missing' does not exist"));
  CHECK(!fs::exists(data));  // nothing made for a command that cannot run
  r = Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme");
  CHECK(r.code == 2);
  CHECK(Contains(r.err, "'acme' is not DOMAIN/REPO"));
  r = Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " a/docs");
  CHECK(r.code == 1);
  CHECK(Contains(r.err, "'a'"));
  // A repository directory given as DATA: say what to give instead.
  REQUIRE(Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --progress none").code == 0);
  r = Folio("import " + Quote(t.src.string()) + " " + Quote(data + "/acme/docs") + " acme/docs");
  CHECK(r.code == 1);
  CHECK(Contains(r.err, "is a repository directory, not a data directory"));
  r = Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --variant B --progress none");
  CHECK(r.code == 0);  // made with the default, B: no clash
  r = Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --variant A --progress none");
  CHECK(r.code == 1);
  CHECK(Contains(r.err, "repository 'acme/docs' exists with variant B, not A"));
}

// `folio ARGS` in the background, its standard error on a pipe (the progress
// lines).
struct Background {
  pid_t pid = -1;
  FILE* err = nullptr;
  explicit Background(const std::vector<std::string>& args) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(fds[1], 2);
      ::close(fds[0]);
      ::close(fds[1]);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    err = ::fdopen(fds[0], "r");
  }
  ~Background() {
    if (err) std::fclose(err);
  }
  // Reads progress lines until one reports at least `files` done; false at the
  // end of the output (the command finished first).
  bool WaitForFiles(uint64_t files) {
    char line[1024];
    while (std::fgets(line, sizeof line, err) != nullptr) {
      const char* p = std::strstr(line, ": ");
      if (p == nullptr) continue;
      std::string digits;
      for (const char* c = p + 2; *c && *c != '/'; ++c) {
        if (*c != ',') digits += *c;
      }
      if (!digits.empty() && std::stoull(digits) >= files) return true;
    }
    return false;
  }
};

TEST_CASE(
    "folio import: killed in the middle, run again: the same tree, no "
    "duplicate, nothing lost") {
  TempDir tmp;
  const fs::path src = fs::path(tmp.path()) / "src";
  for (int d = 0; d < 20; ++d) {
    for (int f = 0; f < 150; ++f) {
      Write(src / ("dir" + std::to_string(d)) / ("file" + std::to_string(f) + ".txt"),
            "content of " + std::to_string(d) + "/" + std::to_string(f) + std::string(f * 7, 'x'));
    }
  }
  const std::string data = tmp / "data";
  {
    // Small batches and frequent lines: the kill lands between batches or
    // inside one.
    Background import(
        {FOLIO_BINARY, "import", src.string(), data, "acme/docs", "--progress", "lines", "--progress-interval", "0.1"});
    const bool midway = import.WaitForFiles(1);
    ::kill(import.pid, SIGKILL);
    const int code = WaitExit(import.pid);
    // Either the kill landed (the usual case), or the import had already
    // finished.
    CHECK((code == 128 + SIGKILL || (!midway && code == 0)));
  }
  Run again = Folio("import " + Quote(src.string()) + " " + Quote(data) + " acme/docs --progress none");
  INFO(again.out, again.err);
  REQUIRE(again.code == 0);
  CHECK(Contains(again.out, "imported 3,000 files"));
  CheckFsckClean(data);
  const std::string out = tmp / "out";
  Run exported = Folio("export " + Quote(data) + " acme/docs " + Quote(out) + " --progress none");
  INFO(exported.out, exported.err);
  REQUIRE(exported.code == 0);
  CHECK(Contains(exported.out, "exported 3,000 documents in 20 folders"));
  CHECK(TreeOf(out) == TreeOf(src));
}

TEST_CASE(
    "folio import: SIGINT stops it at the next file and says how to "
    "finish; the re-run finishes") {
  TempDir tmp;
  const fs::path src = fs::path(tmp.path()) / "src";
  for (int f = 0; f < 3000; ++f) Write(src / "many" / ("f" + std::to_string(f)), "bytes " + std::to_string(f));
  const std::string data = tmp / "data";
  Background import(
      {FOLIO_BINARY, "import", src.string(), data, "acme/docs", "--progress", "lines", "--progress-interval", "0.1"});
  const bool midway = import.WaitForFiles(1);
  ::kill(import.pid, SIGINT);
  const int code = WaitExit(import.pid);
  CHECK((code == 130 || (!midway && code == 0)));
  Run again = Folio("import " + Quote(src.string()) + " " + Quote(data) + " acme/docs --progress none");
  REQUIRE(again.code == 0);
  const std::string out = tmp / "out";
  REQUIRE(Folio("export " + Quote(data) + " acme/docs " + Quote(out) + " --progress none").code == 0);
  CHECK(TreeOf(out) == TreeOf(src));
}

TEST_CASE(
    "folio import and export: refused while a folio serve holds DATA, "
    "unless --while-serving") {
  SourceTree t;
  const std::string data = t.tmp / "data";
  const std::string out = t.tmp / "out";
  const std::string import = "import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --progress none";
  const std::string export_ = "export " + Quote(data) + " acme/docs " + Quote(out) + " --progress none";
  REQUIRE(Folio(import).code == 0);
  Write(t.src / "later.txt", "later");
  {
    Child server = Spawn({FOLIO_BINARY, "serve", "--port", "0", "--data", data, "--log-level", "off"});
    REQUIRE(PortOfReadyLine(server.ReadLine()) > 0);
    Run r = Folio(import);
    CHECK(r.code == 1);
    CHECK(Contains(r.err,
                   "is served by a folio serve now: stop it first, or "
                   "pass --while-serving"));
    r = Folio(export_);
    CHECK(r.code == 1);
    CHECK(Contains(r.err, "is served by a folio serve now"));
    r = Folio(import + " --while-serving");
    INFO(r.out, r.err);
    CHECK(r.code == 0);
    CHECK(Contains(r.out, "1 copied, 7 already there"));
    CHECK(Folio(export_ + " --while-serving").code == 0);
    ::kill(server.pid, SIGTERM);
    CHECK(WaitExit(server.pid) == 0);
    std::fclose(server.out);
  }
  {
    // A read-only server changes nothing: export may read beside it; import may
    // not write.
    Child server = Spawn({FOLIO_BINARY, "serve", "--port", "0", "--data", data, "--read-only", "--log-level", "off"});
    REQUIRE(PortOfReadyLine(server.ReadLine()) > 0);
    Run r = Folio(import);
    CHECK(r.code == 1);
    CHECK(Contains(r.err, "is served by a folio serve --read-only now"));
    CHECK(Folio(export_).code == 0);
    ::kill(server.pid, SIGKILL);  // a killed server leaves no stale mark
    WaitExit(server.pid);
    std::fclose(server.out);
  }
  Run r = Folio(import);
  CHECK(r.code == 0);
  CHECK(Contains(r.out, "0 copied, 8 already there"));
}

TEST_CASE(
    "folio export: latest versions as files with their dates; "
    "--all-versions beside them, named for people") {
  TempDir tmp;
  const std::string data = tmp / "data";
  std::string a_series;
  int64_t v11_ms = 0;
  {
    auto store = Store::Open(data);
    REQUIRE(store.ok());
    REQUIRE((*store)->CreateDomain("acme", "").ok());
    RepositoryInfo info;
    info.repository_id = "docs";
    REQUIRE((*store)->CreateRepository("acme", info).ok());
    auto repo = OpenRepo(**store, "acme", "docs");
    const std::string root = repo->info().root_folder_id;
    NewObject folder;
    folder.name = "reports";
    auto f = repo->CreateFolder(root, folder, "alice", WriteCheck::Trusted());
    REQUIRE(f.ok());
    NewObject doc;
    doc.name = "q3.txt";
    auto d = repo->CreateDocument(f->id, doc, ContentSource::FromBytes("v1.0"), VersioningState::kMajor, "alice",
                                  WriteCheck::Trusted());
    REQUIRE(d.ok());
    a_series = d->series_id;
    for (const auto& [bytes, major] : {std::pair<std::string, bool>{"v1.1", false}, {"v2.0", true}}) {
      auto pwc = repo->CheckOut(d->id, "bob", WriteCheck::Trusted());
      REQUIRE(pwc.ok());
      CheckInRequest req;
      req.major = major;
      req.content = ContentSource::FromBytes(bytes);
      auto v = repo->CheckIn(pwc->id, req, "bob", WriteCheck::Trusted());
      REQUIRE(v.ok());
      if (bytes == "v1.1") v11_ms = v->properties["cmis:lastModificationDate"].get<int64_t>();
    }
    NewObject readme;
    readme.name = "README";
    REQUIRE(
        repo->CreateDocument(root, readme, ContentSource::FromBytes("read me"), VersioningState::kMinor, "alice",
                             WriteCheck::Trusted()).ok());
    NewObject item;
    item.name = "contact";
    REQUIRE(repo->CreateItem(root, item, "alice", WriteCheck::Trusted()).ok());
  }
  const std::string out = tmp / "out";
  const std::string cmd = "export " + Quote(data) + " acme/docs " + Quote(out) + " --progress none";
  Run r = Folio(cmd);
  INFO(r.out, r.err);
  REQUIRE(r.code == 0);
  CHECK(TreeOf(out) == std::map<std::string, std::string>{{"README", "read me"}, {"reports/q3.txt", "v2.0"}});
  CHECK(Contains(r.out, "1 items and relationships have no file form"));

  Run all = Folio(cmd + " --all-versions");
  INFO(all.out, all.err);
  REQUIRE(all.code == 0);
  CHECK(Contains(all.out, "6 files (30 B), 4 written, 2 already there, 0 left out"));
  CHECK(TreeOf(out) == std::map<std::string, std::string>{{"README", "read me"},
                                                          {"README.versions/README v0.1", "read me"},
                                                          {"reports/q3.txt", "v2.0"},
                                                          {"reports/q3.txt.versions/q3 v1.0.txt", "v1.0"},
                                                          {"reports/q3.txt.versions/q3 v1.1.txt", "v1.1"},
                                                          {"reports/q3.txt.versions/q3 v2.0.txt", "v2.0"}});
  const auto mtime = fs::last_write_time(fs::path(out) / "reports/q3.txt.versions/q3 v1.1.txt");
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::file_clock::to_sys(mtime).time_since_epoch())
            .count() == v11_ms);

  // Interrupted exports are finished by a re-run: a missing file is written
  // again, a temp file a killed export left is removed, and what is there is
  // not rewritten.
  fs::remove(fs::path(out) / "reports/q3.txt.versions/q3 v1.1.txt");
  Write(fs::path(out) / "reports" / ".folio-export-tmp-999999999-0", "half");
  Run again = Folio(cmd + " --all-versions");
  CHECK(Contains(again.out, "6 files (30 B), 1 written, 5 already there, 0 left out"));
  CHECK(TreeOf(out).size() == 6);
  CHECK(!fs::exists(fs::path(out) / "reports" / ".folio-export-tmp-999999999-0"));

  Run missing = Folio("export " + Quote(data) + " acme/nope " + Quote(out));
  CHECK(missing.code == 1);
  CHECK(Contains(missing.err, "no repository 'acme/nope'"));
}

TEST_CASE("folio import then export: what goes in comes out, byte for byte") {
  SourceTree t;
  const std::string data = t.tmp / "data";
  REQUIRE(Folio("import " + Quote(t.src.string()) + " " + Quote(data) + " acme/docs --progress none").code == 0);
  const std::string out = t.tmp / "out";
  REQUIRE(Folio("export " + Quote(data) + " acme/docs " + Quote(out) + " --progress none").code == 0);
  CHECK(TreeOf(out) == TreeOf(t.src));
  CHECK(fs::is_directory(fs::path(out) / "empty folder"));
  // Modification times come back as they were (to the millisecond: Folio's
  // dates).
  auto ms = [](const fs::path& p) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::file_clock::to_sys(fs::last_write_time(p)).time_since_epoch())
        .count();
  };
  CHECK(ms(fs::path(out) / "reports/q3.csv") == ms(t.src / "reports/q3.csv"));
}

}  // namespace
}  // namespace folio::testing
