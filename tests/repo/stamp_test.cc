// Repository::StampNow and Unchanged: the cheap revalidation of a kept document (the
// HTTP server's kept answers) says "unchanged" only while no process committed a
// change, this process applied none, the document's file is as it was, and for at most
// a second.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::DemoMain;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;
namespace fs = std::filesystem;

namespace {

// The commit log untouched for longer than the 100 ms a stamp needs (no idle
// checkpoint left to come).
void Quiet(Repository& repo) {
  REQUIRE(repo.Checkpoint().ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
}

}  // namespace

TEST_CASE("Repository stamps: unchanged until a change by any process, an edit of the file, or a second") {
  RepoFixture f;
  f.Doc(f.root, "s.txt", "hello");
  const ObjectData other = f.Doc(f.root, "o.txt", "other");
  // Right after a commit the log's time stamp may not yet tell a further change: none.
  CHECK_FALSE(f.repo->StampNow("s.txt").has_value());
  Quiet(*f.repo);
  CHECK_FALSE(f.repo->StampNow("missing.txt").has_value());
  const auto s = f.repo->StampNow("s.txt");
  REQUIRE(s.has_value());
  CHECK(f.repo->Unchanged(*s, "s.txt"));
  CHECK(f.repo->GetObjectByPath("s.txt").ok());  // reads change nothing
  CHECK(f.repo->Unchanged(*s, "s.txt"));

  SUBCASE("a change through this process, of another document") {
    REQUIRE(f.repo->UpdateProperties(other.id, Json{{"cmis:description", "x"}}, "alice", WriteCheck::Trusted()).ok());
    CHECK_FALSE(f.repo->Unchanged(*s, "s.txt"));
  }
  SUBCASE("a change by another process") {
    DemoMain second = f.SecondProcess();
    CHECK(f.repo->Unchanged(*s, "s.txt"));  // opening writes nothing
    REQUIRE(second.repo->UpdateProperties(other.id, Json{{"cmis:description", "x"}}, "bob",
                                          WriteCheck::Trusted()).ok());
    CHECK_FALSE(f.repo->Unchanged(*s, "s.txt"));
  }
  SUBCASE("an edit by hand of the document's file, in place") {
    WriteFile(f.RepoPath("s.txt"), "hello, edited");
    CHECK_FALSE(f.repo->Unchanged(*s, "s.txt"));
  }
  SUBCASE("the document's file removed by hand") {
    fs::remove(f.RepoPath("s.txt"));
    CHECK_FALSE(f.repo->Unchanged(*s, "s.txt"));
  }
  SUBCASE("a second") {
    std::this_thread::sleep_for(std::chrono::milliseconds(1050));
    CHECK_FALSE(f.repo->Unchanged(*s, "s.txt"));
    // A new stamp serves again.
    const auto again = f.repo->StampNow("s.txt");
    REQUIRE(again.has_value());
    CHECK(f.repo->Unchanged(*again, "s.txt"));
  }
}

TEST_CASE("Repository stamps: a change a read-only repository keeps in memory is a change") {
  RepoFixture f;
  f.Doc(f.root, "s.txt", "hello");
  DemoMain read_only = f.ReopenReadOnly();
  const std::shared_ptr<Repository>& repo = read_only.repo;
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const auto s = repo->StampNow("s.txt");
  REQUIRE(s.has_value());
  CHECK(repo->Unchanged(*s, "s.txt"));
  // A file added by hand, adopted by a listing: in this process's memory only (nothing
  // on disk, the commit log untouched).
  WriteFile(f.RepoPath("new.txt"), "by hand");
  auto page = repo->GetChildren(repo->info().root_folder_id, 0, 10);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  REQUIRE(page->total == 2);
  CHECK_FALSE(fs::exists(f.RepoPath(".folio/adopted")));
  CHECK_FALSE(repo->Unchanged(*s, "s.txt"));
}
