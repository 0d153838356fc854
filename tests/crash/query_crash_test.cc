// Crash safety of the query index: a child process writes (create, rename, new content,
// delete), each change recording its event in the repository's change log, and queries
// now and then (so its index follows the log); the parent kills it with SIGKILL at
// random moments, possibly inside a SQLite transaction or between a commit and the
// index. After each kill, the next process's index (a restart) answers exactly what the
// files hold, without a rebuild, and fsck then finds it in step.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <random>
#include <set>

#include "folio/fsck.h"
#include "folio/store.h"
#include "repo/query/binder.h"
#include "repo/query/parser.h"
#include "repo/query/query_indexes.h"
#include "support/child_process.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::TempDir;

namespace {

Result<query::QueryHits> RunQuery(query::QueryIndexes& indexes, Repository& repo, const std::string& statement) {
  FOLIO_ASSIGN_OR_RETURN(query::ParsedQuery parsed, query::Parse(statement));
  FOLIO_ASSIGN_OR_RETURN(query::BoundQuery bound, query::Bind(parsed, repo));
  query::QueryPage page;
  page.max = 10000;
  return (*indexes.Get("demo", "main"))->Run(repo, bound, page);
}

[[noreturn]] void Workload(const std::string& dir, int run, int fd) {
  auto store = Store::Open(dir, StoreOptions{.durable = false});
  if (!store.ok()) _exit(2);
  auto repo = (*store)->GetRepository("demo", "main");
  if (!repo.ok()) _exit(2);
  Repository& r = **repo;
  query::QueryIndexes indexes(**store);
  if (!RunQuery(indexes, r, "SELECT * FROM cmis:document").ok()) _exit(3);
  if (::write(fd, "ready\n", 6) < 0) _exit(3);
  for (int j = 0;; ++j) {
    NewObject o;
    o.name = "k" + std::to_string(run) + "-" + std::to_string(j) + ".txt";
    auto d = r.CreateDocument(r.info().root_folder_id, o, ContentSource::FromBytes("alpha beta"),
                              VersioningState::kMajor, "w", WriteCheck::Trusted());
    if (!d.ok()) _exit(4);
    if (j % 3 == 0) {
      if (!r.UpdateProperties(d->id, Json{{"cmis:name", o.name + ".renamed"}}, "w",
                              WriteCheck::Trusted()).ok()) _exit(5);
      }
    if (j % 3 == 1) {
      if (!r.SetContent(d->id, ContentSource::FromBytes("gamma delta"), true, "w",
                        WriteCheck::Trusted()).ok()) _exit(6);
      }
    if (j % 4 == 2) {
      if (!r.Delete(d->id, true, WriteCheck::Trusted()).ok()) _exit(7);
      }
    if (j % 5 == 0 && !RunQuery(indexes, r, "SELECT * FROM cmis:document WHERE CONTAINS('alpha')").ok()) _exit(8);
  }
}

}  // namespace

TEST_CASE("Crash: SIGKILL while writing and indexing; after a restart the index answers what the files hold") {
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  int kills = 0;
  for (int d = 0; d < 3; ++d) {
    TempDir dir;
    folio::testing::MakeDemoMain(dir.path());  // closed again at once
    for (int k = 0; k < 10; ++k, ++kills) {
      folio::testing::Child child = folio::testing::ForkWithPipe([&](int fd) { Workload(dir.path(), kills, fd); });
      char line[64];
      REQUIRE(std::fgets(line, sizeof line, child.out) != nullptr);
      ::usleep(std::uniform_int_distribution<int>(0, 30000)(rng));
      const int exit_code = folio::testing::KillAndReap(child.pid);
      REQUIRE_MESSAGE(exit_code == 0, "the child failed on its own: exit " << exit_code);
      ::fclose(child.out);

      CAPTURE(kills);
      auto store = Store::Open(dir.path(), StoreOptions{.durable = false});
      REQUIRE(store.ok());
      auto repo = (*store)->GetRepository("demo", "main");
      REQUIRE(repo.ok());
      // What the files hold.
      std::set<std::string> names, alpha;
      auto page = (*repo)->GetChildren((*repo)->info().root_folder_id, 0, 100000);
      REQUIRE(page.ok());
      for (const ObjectData& o : page->objects) {
        names.insert(o.name);
        if (folio::testing::ContentOf(**repo, o.id) == "alpha beta") alpha.insert(o.name);
      }
      // What a restarted server's index says.
      int builds = 0;
      query::QueryIndexes restarted(**store, [&](const std::string& line) {
        if (line.ends_with(": building")) ++builds;
      });
      auto all = RunQuery(restarted, **repo, "SELECT * FROM cmis:document");
      REQUIRE_MESSAGE(all.ok(), all.status().ToString());
      std::set<std::string> indexed;
      for (const auto& h : all->hits) indexed.insert((*repo)->GetObject(h.object_id)->name);
      CHECK(indexed == names);
      auto text = RunQuery(restarted, **repo, "SELECT * FROM cmis:document WHERE CONTAINS('alpha')");
      REQUIRE(text.ok());
      std::set<std::string> found;
      for (const auto& h : text->hits) found.insert((*repo)->GetObject(h.object_id)->name);
      CHECK(found == alpha);
      CHECK(builds == 0);  // brought in step from the log, not rebuilt
      // fsck finds the index in step. (What the kill leaves of the engine's own work,
      // such as trash a later writer removes, is tests/crash/crash_test.cc's business.)
      auto check = RunFsck(dir.path(), FsckOptions{});
      REQUIRE(check.ok());
      for (const Finding& f : check->findings) {
        if (f.id.rfind("query-index", 0) == 0) FAIL_CHECK(f.id << " " << f.path << ": " << f.message);
      }
    }
  }
  CHECK(kills == 30);
}
