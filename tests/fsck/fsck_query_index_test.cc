// fsck and the query index: in step after the engine's changes; unreadable, incomplete
// and stale indexes are found, and --repair rebuilds them from the files.
#include "fsck/fsck_fixture.h"
#include "repo/query/binder.h"
#include "repo/query/parser.h"
#include "repo/query/query_indexes.h"
#include "repo/query/sqlite.h"

namespace folio::testing {
namespace {

const std::string kIndex = FsckFixture::Data(".folio/query.sqlite");

// Builds the index of demo/main (as a server's first query would) and returns the
// number of documents a query finds.
uint64_t QueryDocuments(FsckFixture& f, query::QueryIndexes& indexes) {
  auto parsed = query::Parse("SELECT * FROM cmis:document");
  REQUIRE(parsed.ok());
  auto bound = query::Bind(*parsed, *f.repo);
  REQUIRE(bound.ok());
  auto hits = (*indexes.Get("demo", "main"))->Run(*f.repo, *bound, query::QueryPage{});
  REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
  return hits->total;
}

TEST_CASE("Fsck query index: none, or one in step with the change log, is clean; one behind it is a note") {
  FsckFixture f;
  CHECK_MESSAGE(RunCheck(f.dir.path()).clean(), Dump(RunCheck(f.dir.path())));
  query::QueryIndexes indexes(*f.store);
  CHECK(QueryDocuments(f, indexes) == 5);
  CHECK_MESSAGE(RunCheck(f.dir.path()).findings.empty(), Dump(RunCheck(f.dir.path())));
  // A write the index has not applied yet: the next query applies it.
  f.Doc(f.root, "later.txt", "later");
  const FsckReport behind = RunCheck(f.dir.path());
  CHECK_MESSAGE(behind.clean(), Dump(behind));
  const Finding* note = Find(behind, "query-index-incomplete", kIndex);
  REQUIRE_MESSAGE(note != nullptr, Dump(behind));
  CHECK(note->severity == Severity::kNote);
  CHECK(note->message.find("1 change log event not applied yet") != std::string::npos);
  CHECK(QueryDocuments(f, indexes) == 6);
  const FsckReport r = RunCheck(f.dir.path());
  CHECK_MESSAGE(r.findings.empty(), Dump(r));
}

TEST_CASE("Fsck query index: query-index-stale when its rows differ from the files; --repair rebuilds it") {
  FsckFixture f;
  {
    query::QueryIndexes indexes(*f.store);
    CHECK(QueryDocuments(f, indexes) == 5);
  }
  ObjectData n = f.Doc(f.root, "unseen.txt", "unseen");
  REQUIRE(f.repo->UpdateProperties(f.notes.id, Json{{"cmis:name", "renamed.txt"}}, "bob", WriteCheck::Trusted()).ok());
  // An index that claims to have applied these events without having done so (a file
  // copied from elsewhere, or a bug).
  {
    auto latest = f.repo->LatestChangeToken();
    REQUIRE(latest.ok());
    auto db = query::Db::Open(f.Abs(kIndex));
    REQUIRE(db.ok());
    REQUIRE((*db)->Exec("UPDATE meta SET value = " + std::to_string(*latest) + " WHERE key = 'token:change-log'").ok());
  }
  const FsckReport r = RunCheck(f.dir.path());
  const Finding* stale = Find(r, "query-index-stale", kIndex);
  REQUIRE_MESSAGE(stale != nullptr, Dump(r));
  CHECK(stale->severity == Severity::kWarning);
  CHECK(stale->message.find("differs from the files in 2 objects") != std::string::npos);
  CHECK(stale->message.find("'unseen.txt' (" + n.id + ") is missing") != std::string::npos);
  CHECK(stale->message.find("'renamed.txt' (" + f.notes.id + ") is named 'notes.txt' in the index") !=
        std::string::npos);
  CHECK(ExpectRepaired(f.dir.path(), "query-index-stale", kIndex) == "rebuilt it from the files");
  query::QueryIndexes after(*f.store);
  CHECK(QueryDocuments(f, after) == 6);
}

TEST_CASE("Fsck query index: query-index-unreadable for a file that is not an index") {
  FsckFixture f;
  WriteFile(f.Abs(kIndex), std::string(4096, 'x'));
  const FsckReport r = RunCheck(f.dir.path());
  const Finding* bad = Find(r, "query-index-unreadable", kIndex);
  REQUIRE_MESSAGE(bad != nullptr, Dump(r));
  CHECK(bad->message.find("cannot be used") != std::string::npos);
  ExpectRepaired(f.dir.path(), "query-index-unreadable", kIndex);
  query::QueryIndexes after(*f.store);
  CHECK(QueryDocuments(f, after) == 5);
}

TEST_CASE("Fsck query index: a database without tables (its first writer killed before the schema) is no index") {
  FsckFixture f;
  {
    auto db = query::Db::Open(f.Abs(kIndex));  // makes the file, writes no table
    REQUIRE(db.ok());
  }
  const FsckReport r = RunCheck(f.dir.path());
  CHECK_MESSAGE(r.findings.empty(), Dump(r));
  query::QueryIndexes after(*f.store);
  CHECK(QueryDocuments(f, after) == 5);
  const FsckReport built = RunCheck(f.dir.path());
  CHECK_MESSAGE(built.findings.empty(), Dump(built));
}

TEST_CASE("Fsck query index: query-index-incomplete (a note) for an interrupted build") {
  FsckFixture f;
  {
    query::QueryIndexes indexes(*f.store);
    CHECK(QueryDocuments(f, indexes) == 5);
  }
  {
    auto db = query::Db::Open(f.Abs(kIndex));
    REQUIRE(db.ok());
    REQUIRE((*db)->Exec("UPDATE meta SET value = 0 WHERE key = 'complete'").ok());
  }
  const FsckReport r = RunCheck(f.dir.path());
  const Finding* note = Find(r, "query-index-incomplete", kIndex);
  REQUIRE_MESSAGE(note != nullptr, Dump(r));
  CHECK(note->severity == Severity::kNote);
  CHECK(r.clean());  // a server rebuilds it by itself
  const FsckReport repaired = RunRepair(f.dir.path());
  const Finding* fixed = Find(repaired, "query-index-incomplete", kIndex);
  REQUIRE(fixed != nullptr);
  CHECK(fixed->repair == "rebuilt it from the files");
  CHECK(RunCheck(f.dir.path()).findings.empty());
}

}  // namespace
}  // namespace folio::testing
