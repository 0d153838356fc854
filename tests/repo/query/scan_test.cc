// The scan a build reads the repository with: every object once, versions but no
// working copies, relationships, text; many workers or one; stopping.
#include "repo/query/scan.h"

#include <doctest/doctest.h>

#include <map>

#include "repo/query/query_fixture.h"
#include "repo/store_fs.h"

using namespace folio;
using folio::testing::QueryFixture;

namespace {

std::map<std::string, std::string> ScanAll(QueryFixture& f, int workers) {
  std::map<std::string, std::string> seen;  // id -> text
  std::atomic<bool> stop{false};
  Status s = query::ScanRepository(
      *f.repo, repo::StoreFs::Of(*f.store),
      [&](query::ScannedObject&& o) {
        CHECK_MESSAGE(seen.emplace(o.object.id, o.text).second, "visited twice: " << o.object.id);
        return OkStatus();
      },
      stop, workers);
  REQUIRE_MESSAGE(s.ok(), s.ToString());
  return seen;
}

}  // namespace

TEST_CASE("Scan: every object once, with every version's text, whatever the number of workers") {
  QueryFixture f;
  for (int workers : {1, 2, 8}) {
    CAPTURE(workers);
    auto seen = ScanAll(f, workers);
    CHECK(seen.size() == 18);  // 4 folders, 1 item, 1 relationship, 12 document versions
    CHECK(seen.count(f.link.id) == 1);
    CHECK(seen.count(f.v1.id) == 1);
    CHECK(seen.count(f.v.id) == 1);
    CHECK(seen[f.v1.id] == "version one");
    CHECK(seen[f.v.id] == "version two");
    CHECK(seen[f.b1.id] == "{\"word\": \"zebra\"}");
    CHECK(seen[f.b2.id].empty());        // not text
    CHECK(seen.count(f.draft.id) == 0);  // a working copy
  }
}

TEST_CASE("Scan: a root holding only documents (workers finish before the last one starts)") {
  folio::testing::RepoFixture f;
  for (int i = 0; i < 30; ++i) f.Doc(f.root, "d" + std::to_string(i) + ".txt", "x");
  for (int workers : {1, 3, 16}) {
    CAPTURE(workers);
    size_t n = 0;
    std::atomic<bool> stop{false};
    Status s = query::ScanRepository(
        *f.repo, repo::StoreFs::Of(*f.store),
        [&](query::ScannedObject&&) {
          ++n;
          return OkStatus();
        },
        stop, workers);
    REQUIRE(s.ok());
    CHECK(n == 31);
  }
}

TEST_CASE("Scan: stops when asked, and at the first error of the visitor") {
  QueryFixture f;
  std::atomic<bool> stop{false};
  size_t n = 0;
  Status s = query::ScanRepository(
      *f.repo, repo::StoreFs::Of(*f.store),
      [&](query::ScannedObject&&) {
        if (++n == 3) stop = true;
        return OkStatus();
      },
      stop, 2);
  CHECK(s.kind() == ErrorKind::kRuntime);
  CHECK(s.message().find("stopped") != std::string::npos);
  std::atomic<bool> go{false};
  s = query::ScanRepository(
      *f.repo, repo::StoreFs::Of(*f.store), [&](query::ScannedObject&&) { return StorageError("disk full"); }, go, 2);
  CHECK(s.kind() == ErrorKind::kStorage);
  CHECK(s.message() == "disk full");
}
