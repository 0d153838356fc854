// The query index's writer applying the repository's own change events to a document
// series: what it reads for a check-in on a long series, and rows that come out the same
// as a full re-read of the series after every kind of change of it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "repo/query/change_log_feed.h"
#include "repo/query/index_writer.h"
#include "repo/query/query_fixture.h"
#include "repo/query/schema.h"
#include "repo/query/sqlite.h"
#include "repo/store_fs.h"
#include "storage/layout.h"
#include "support/next_version.h"
#include "support/temp_dir.h"

using namespace folio;
using folio::testing::NextVersion;
using folio::testing::QueryFixture;

namespace {

// An index database of its own beside the fixture, with its writer, following the
// repository's change log from `token` on.
struct Writer {
  folio::testing::TempDir dir;
  std::unique_ptr<query::Db> db;
  std::unique_ptr<query::IndexWriter> w;
  query::ChangeLogFeed feed;
  uint64_t token = 0;

  explicit Writer(QueryFixture& f) : feed(repo::StoreFs::Of(*f.store), storage::RepoLayout("demo/main").ChangesDir()) {
    auto opened = query::Db::Open(dir.path() + "/index.sqlite");
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    db = std::move(*opened);
    REQUIRE(db->Transaction(query::CreateSchemaSql()).ok());
    w = std::make_unique<query::IndexWriter>(*db, *f.repo);
    auto latest = feed.LatestToken(*f.repo);
    REQUIRE(latest.ok());
    token = *latest;
  }

  // Applies the events after the last applied one; returns the objects read for them.
  uint64_t CatchUp(QueryFixture& f) {
    const uint64_t before = w->objects_read();
    auto batch = feed.ReadChanges(*f.repo, token, 1000);
    REQUIRE_MESSAGE(batch.ok(), batch.status().ToString());
    REQUIRE_FALSE(batch->gap);
    REQUIRE(w->Begin().ok());
    for (const query::ChangeEvent& e : batch->events) {
      Status s = w->Apply(e);
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      token = e.token;
    }
    REQUIRE(w->Commit().ok());
    return w->objects_read() - before;
  }

  // Every row of series `series` (its columns but the row id, its other properties, its
  // readers), as text in a fixed order.
  std::vector<std::string> Rows(const std::string& series) {
    std::string cols = "folder, current, text_key";
    for (const query::ColumnProperty& c : query::kColumnProperties) cols += ", " + std::string(c.column);
    const size_t n = 3 + std::size(query::kColumnProperties);
    std::vector<std::string> out;
    auto read = [&](const std::string& sql, size_t columns) {
      auto s = db->Prepare(sql);
      REQUIRE(s.ok());
      s->BindText(1, series);
      for (;;) {
        auto row = s->Step();
        REQUIRE(row.ok());
        if (!*row) break;
        std::string line;
        for (size_t i = 0; i < columns; ++i) {
          line += s->IsNull(static_cast<int>(i)) ? "null" : "'" + s->Text(static_cast<int>(i)) + "'";
          line += '|';
        }
        out.push_back(line);
      }
    };
    read("SELECT " + cols + " FROM objects WHERE p_versionSeriesId = ? ORDER BY p_objectId", n);
    read(
        "SELECT o.p_objectId, p.prop, p.ord, p.v FROM props p JOIN objects o "
        "ON o.rid = p.obj "
        "WHERE o.p_versionSeriesId = ? ORDER BY 1, 2, 3",
        4);
    read(
        "SELECT o.p_objectId, r.principal FROM readers r JOIN objects o ON "
        "o.rid = r.obj "
        "WHERE o.p_versionSeriesId = ? ORDER BY 1, 2",
        2);
    return out;
  }

  // The rows of `series` are those a full re-read of it gives.
  void CheckAsReread(const std::string& series) {
    const std::vector<std::string> applied = Rows(series);
    REQUIRE(w->Begin().ok());
    REQUIRE(w->ReindexSeries(series).ok());
    REQUIRE(w->Commit().ok());
    CHECK(Rows(series) == applied);
  }
};

}  // namespace

TEST_CASE("IndexWriter: a check-in on a long series reads a few versions, not the whole series") {
  QueryFixture f;
  Writer w(f);
  std::string id = f.a1.id;
  // The objects read to apply the events of one more check-in (the earlier latest
  // updated, the working copy gone, the new version made) once the series has `n`
  // versions.
  auto check_in_at = [&](int n) {
    for (int i = 1; i < n; ++i) id = NextVersion(f, id, i % 5 == 0, "text " + std::to_string(i)).id;
    (void)w.CatchUp(f);
    id = NextVersion(f, id, false, "one more").id;
    return w.CatchUp(f);
  };
  const uint64_t at_10 = check_in_at(10);  // 10 versions, then 50
  w.CheckAsReread(f.a1.series_id);
  const uint64_t at_50 = check_in_at(40);
  w.CheckAsReread(f.a1.series_id);
  CHECK(at_50 == at_10);  // a re-read of the series per event: 158 against 38
  CHECK(at_50 <= 10);
}

TEST_CASE("IndexWriter: a series' rows after each change are those a full re-read gives") {
  QueryFixture f;
  Writer w(f);
  const std::string series = f.a1.series_id;
  std::string id = f.a1.id;
  SUBCASE("check-outs and check-ins, minor and major") {
    for (int i = 0; i < 4; ++i) {
      auto pwc = f.repo->CheckOut(id, "bob", WriteCheck::Trusted());
      REQUIRE(pwc.ok());
      (void)w.CatchUp(f);
      w.CheckAsReread(series);
      CheckInRequest in;
      in.major = i % 2 == 1;
      in.content = ContentSource::FromBytes("v" + std::to_string(i), "text/plain");
      auto v = f.repo->CheckIn(pwc->id, in, "bob", WriteCheck::Trusted());
      REQUIRE(v.ok());
      id = v->id;
      (void)w.CatchUp(f);
      w.CheckAsReread(series);
    }
  }
  SUBCASE("a check-out cancelled") {
    id = NextVersion(f, id, false, "two").id;
    auto pwc = f.repo->CheckOut(id, "carol", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    (void)w.CatchUp(f);
    REQUIRE(f.repo->CancelCheckOut(pwc->id, WriteCheck::Trusted()).ok());
    (void)w.CatchUp(f);
    w.CheckAsReread(series);
  }
  SUBCASE(
      "the latest version's properties updated, then the document moved "
      "and renamed") {
    id = NextVersion(f, id, true, "two").id;
    REQUIRE(f.repo->UpdateProperties(id, Json{{"cmis:description", "changed"}}, "alice", WriteCheck::Trusted()).ok());
    (void)w.CatchUp(f);
    w.CheckAsReread(series);
    REQUIRE(f.repo->Move(id, f.fC.id, f.fA.id, "alice", WriteCheck::Trusted()).ok());
    (void)w.CatchUp(f);
    w.CheckAsReread(series);
    REQUIRE(f.repo->UpdateProperties(id, Json{{"cmis:name", "renamed.txt"}}, "alice", WriteCheck::Trusted()).ok());
    (void)w.CatchUp(f);
    w.CheckAsReread(series);
  }
  SUBCASE("the latest version deleted") {
    id = NextVersion(f, id, false, "two").id;
    (void)w.CatchUp(f);
    REQUIRE(f.repo->Delete(id, false, WriteCheck::Trusted()).ok());
    (void)w.CatchUp(f);
    w.CheckAsReread(series);
  }
}
