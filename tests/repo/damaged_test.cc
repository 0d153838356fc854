// Rule D1 (docs/STORAGE.md §10). One damaged record spoils only its own object: the
// folder lists the rest, the object addressed directly answers storage naming the file,
// the log names it, folio inspect shows it in place, fsck reports it and --repair leaves
// a clean store.
#include <doctest/doctest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>

#include "folio/fsck.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::ContentOf;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

namespace {

std::string Run(const std::string& cmd) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Damaged record: the folder lists the rest; direct access, log, inspect, fsck and repair name it") {
  RepoFixture f;
  f.Doc(f.root, "a.txt", "first");
  ObjectData b = f.Doc(f.root, "b.txt", "second");
  f.Doc(f.root, "c.txt", "third");
  REQUIRE(f.repo->Checkpoint().ok());
  const std::string damaged = "demo/main/.folio/docs/b.txt/1.0.json";
  WriteFile(f.dir / damaged, "{bad");

  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(16);
  spdlog::default_logger()->sinks().push_back(sink);
  const auto old_level = spdlog::get_level();
  spdlog::set_level(spdlog::level::warn);
  auto page = f.repo->GetChildren(f.root, 0, 10);
  spdlog::default_logger()->sinks().pop_back();
  spdlog::set_level(old_level);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  REQUIRE(page->objects.size() == 2);
  CHECK(page->objects[0].name == "a.txt");
  CHECK(page->objects[1].name == "c.txt");
  CHECK(page->total == 2);
  REQUIRE(page->damaged.size() == 1);
  CHECK(page->damaged[0].name == "b.txt");
  CHECK(page->damaged[0].base == BaseType::kDocument);
  CHECK_MESSAGE(Has(page->damaged[0].message, damaged), page->damaged[0].message);
  const auto logged = sink->last_formatted();
  REQUIRE(logged.size() == 1);
  CHECK_MESSAGE(Has(logged[0], "/b.txt"), logged[0]);
  CHECK_MESSAGE(Has(logged[0], damaged), logged[0]);
  CHECK_MESSAGE(Has(logged[0], "fsck"), logged[0]);
  // Date orders build every child: the same.
  auto by_date = f.repo->GetChildren(f.root, 0, 10, ChildOrder{ChildOrderKey::kCreationDate, false});
  REQUIRE(by_date.ok());
  CHECK(by_date->objects.size() == 2);
  CHECK(by_date->damaged.size() == 1);

  for (auto direct : {f.repo->GetObjectByPath("b.txt"), f.repo->GetObject(b.series_id)}) {
    REQUIRE(!direct.ok());
    CHECK(direct.status().kind() == ErrorKind::kStorage);
    CHECK_MESSAGE(Has(direct.status().message(), damaged), direct.status().message());
  }
  CHECK(ContentOf(*f.repo, f.repo->GetObjectByPath("a.txt")->id) == "first");

  const std::string inspect = Run(std::string(FOLIO_BINARY) + " inspect " + f.dir.path());
  CHECK_MESSAGE(Has(inspect, "b.txt  DAMAGED: "), inspect);
  CHECK_MESSAGE(Has(inspect, "a.txt  5 B"), inspect);
  CHECK_MESSAGE(Has(inspect, "c.txt  5 B"), inspect);
  const std::string inspect_json = Run(std::string(FOLIO_BINARY) + " inspect --json " + f.dir.path());
  CHECK_MESSAGE(Has(inspect_json, "\"damage\""), inspect_json);

  auto report = RunFsck(f.dir.path(), {});
  REQUIRE(report.ok());
  bool found = false;
  for (const Finding& x : report->findings) found |= x.id == "sidecar-unparseable" && x.path == damaged;
  CHECK(found);
  auto repaired = RunFsck(f.dir.path(), {.repair = true});
  REQUIRE(repaired.ok());
  auto after = RunFsck(f.dir.path(), {});
  REQUIRE(after.ok());
  for (const Finding& x : after->findings) CHECK_MESSAGE(x.severity == Severity::kNote, x.message);
  CHECK(after->clean());
  // The damaged bytes are kept in lost+found; the version is served again, content intact.
  bool kept = false;
  for (const auto& e : std::filesystem::recursive_directory_iterator(f.dir / "demo/main/.folio/lost+found")) {
    kept |= e.path().filename() == "1.0.json";
  }
  CHECK(kept);
  auto store = Store::Open(f.dir.path());
  REQUIRE(store.ok());
  auto repo = (*store)->GetRepository("demo", "main");
  REQUIRE(repo.ok());
  auto back = (*repo)->GetObjectByPath("b.txt");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->properties["cmis:versionLabel"] == "1.0");
  CHECK(back->properties["cmis:contentStreamLength"] == 6);
  CHECK(ContentOf(**repo, back->id) == "second");
  CHECK((*repo)->GetChildren((*repo)->info().root_folder_id, 0, 10)->objects.size() == 3);
}

TEST_CASE("Damaged record: a series damaged below a renamed folder is damage, never a deletion") {
  RepoFixture f;
  const ObjectData a = f.Folder(f.root, "a");
  const ObjectData x = f.Folder(a.id, "x");
  const ObjectData doc = f.Doc(x.id, "c.txt", "kept");
  // A rename of the folder above: the document's index entry still holds its old path.
  REQUIRE(f.repo->UpdateProperties(a.id, Json{{"cmis:name", "z"}}, "alice", WriteCheck::Trusted()).ok());
  REQUIRE(f.repo->Checkpoint().ok());
  const uint64_t mark = *f.repo->LatestChangeToken();
  const auto series = f.dir / "demo/main/z/x/.folio/docs/c.txt/series.json";
  const std::string saved = folio::testing::ReadFile(series);
  WriteFile(series, "{ damaged");
  for (const std::string& id : {doc.id, doc.series_id}) {
    CAPTURE(id);
    auto o = f.repo->GetObject(id);
    REQUIRE_FALSE(o.ok());
    CHECK_MESSAGE(Repository::IsDamage(o.status()), o.status().ToString());
  }
  CHECK(f.repo->GetChildren(x.id, 0, 10).ok());
  auto changes = f.repo->ReadChanges(mark + 1, 100);
  REQUIRE(changes.ok());
  CHECK(changes->events.empty());  // nothing was taken for removed
  WriteFile(series, saved);
  auto back = f.repo->GetObject(doc.id);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->path == "z/x/c.txt");
  CHECK(ContentOf(*f.repo, doc.id) == "kept");
}

TEST_CASE("Damaged record: another document's damaged record at a stale path spoils only that document") {
  // A folder renamed by hand: the index entry of the document in it still holds the old
  // path, where a new folder of the old name now holds a document of the same name whose
  // record is damaged. The first document is found where its folder now is.
  RepoFixture f;
  const ObjectData b = f.Folder(f.root, "b");
  const ObjectData first = f.Doc(b.id, "d.txt", "first");
  std::filesystem::rename(f.dir / "demo/main/b", f.dir / "demo/main/z");
  REQUIRE(f.repo->GetChildren(f.root, 0, 10).ok());  // the rename is taken in
  const ObjectData b2 = f.Folder(f.root, "b");
  const ObjectData second = f.Doc(b2.id, "d.txt", "second");
  WriteFile(f.dir / "demo/main/b/.folio/docs/d.txt/series.json", "{ damaged");
  for (const std::string& id : {first.id, first.series_id}) {
    CAPTURE(id);
    auto o = f.repo->GetObject(id);
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK(o->path == "z/d.txt");
  }
  CHECK(ContentOf(*f.repo, first.id) == "first");
  auto all = f.repo->GetAllVersions(first.series_id);
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  CHECK(all->size() == 1);
  auto damaged = f.repo->GetObject(second.series_id);
  REQUIRE_FALSE(damaged.ok());
  CHECK_MESSAGE(Repository::IsDamage(damaged.status()), damaged.status().ToString());
}
