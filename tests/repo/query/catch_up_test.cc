// Keeping the index in step: synthetic change events (a test feed), the changes the
// api layer reports (create, rename, update, move, delete, check-out and -in, content),
// an index deleted, damaged or of another schema, a second user of the same file, a
// build interrupted, and changes made while a build runs.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "repo/query/query_fixture.h"
#include "repo/query/sqlite.h"
#include "storage/layout.h"

using namespace folio;
using folio::testing::Names;
using folio::testing::QueryFixture;
using folio::testing::TestSpelling;

namespace {

// A change feed a test fills by hand. `on_read` runs inside ReadChanges (once) before
// it answers: a change "committed while the build ran".
class TestFeed : public query::ChangeFeed {
 public:
  explicit TestFeed(std::string id = "test-feed") : id_(std::move(id)) {}
  std::string id() const override { return id_; }
  Result<uint64_t> LatestToken() override {
    std::lock_guard<std::mutex> lock(mu_);
    return events_.empty() ? first_ - 1 : events_.back().token;
  }
  Result<query::ChangeBatch> ReadChanges(uint64_t after, size_t max) override {
    std::function<void()> hook;
    {
      std::lock_guard<std::mutex> lock(mu_);
      hook.swap(on_read);
    }
    if (hook) hook();
    std::lock_guard<std::mutex> lock(mu_);
    query::ChangeBatch b;
    ++reads;
    if (after + 1 < first_) {
      b.gap = true;
      return b;
    }
    for (const auto& e : events_) {
      if (e.token > after && b.events.size() < max) b.events.push_back(e);
    }
    return b;
  }
  uint64_t Add(const std::string& id, query::ChangeType type = query::ChangeType::kUpdated) {
    std::lock_guard<std::mutex> lock(mu_);
    query::ChangeEvent e;
    e.token = (events_.empty() ? first_ - 1 : events_.back().token) + 1;
    e.object_id = id;
    e.type = type;
    events_.push_back(e);
    return e.token;
  }
  // Forgets the events up to `token` (retention).
  void DropThrough(uint64_t token) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(events_, [&](const query::ChangeEvent& e) { return e.token <= token; });
    first_ = token + 1;
  }
  std::function<void()> on_read;
  int reads = 0;

 private:
  std::string id_;
  std::mutex mu_;
  std::vector<query::ChangeEvent> events_;
  uint64_t first_ = 1;
};

// An index of "demo/main" following `feed`, counting its builds from its log.
struct Indexed {
  std::shared_ptr<TestFeed> feed;
  std::atomic<int> builds{0};
  std::unique_ptr<query::QueryIndex> index;

  Indexed(QueryFixture& f, std::shared_ptr<TestFeed> fd) : feed(std::move(fd)) {
    const storage::RepoLayout layout("demo/main");
    query::IndexPaths paths;
    paths.label = "demo/main";
    paths.db_fs_path = layout.QueryIndexFile();
    paths.lock_fs_path = layout.QueryIndexLockFile();
    paths.db_path = f.store->fs().Describe(paths.db_fs_path);
    index = std::make_unique<query::QueryIndex>(f.store->fs(), paths, feed, [this](const std::string& line) {
      if (line.ends_with(": building")) ++builds;
    });
  }

  Names Set(QueryFixture& f, const std::string& statement, bool all_versions = false) {
    auto parsed = query::Parse(statement);
    REQUIRE(parsed.ok());
    auto bound = query::Bind(*parsed, *f.repo, TestSpelling());
    REQUIRE_MESSAGE(bound.ok(), bound.status().ToString());
    query::QueryPage page;
    page.max = 1000;
    page.all_versions = all_versions;
    auto hits = index->Run(*f.repo, *bound, page);
    REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
    Names out;
    for (const auto& h : hits->hits) {
      auto o = f.repo->GetObject(h.object_id);
      out.insert(o.ok() ? o->name : "<gone>");
    }
    return out;
  }
};

std::string IndexFile(QueryFixture& f) { return f.RepoPath(".folio/query.sqlite"); }

}  // namespace

TEST_CASE("CatchUp: synthetic events bring the index in step; the token is stored with it") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  const std::string in_a = "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')";
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  CHECK(ix.builds == 1);

  // Changed behind the index's back: not seen until an event says so (the index never
  // scans on a query).
  ObjectData n = f.Doc(f.fA.id, "new.txt", "fresh words");
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  feed->Add(n.id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md", "new.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fresh')") == Names{"new.txt"});

  // Rename.
  REQUIRE(f.repo->UpdateProperties(n.id, Json{{"cmis:name", "renamed.txt"}}, "bob").ok());
  feed->Add(n.series_id);
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md", "renamed.txt"});
  // Content.
  REQUIRE(f.repo->SetContent(n.id, ContentSource::FromBytes("other words", "text/plain"), true, "bob").ok());
  feed->Add(n.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fresh')") == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('other')") == Names{"renamed.txt"});
  // Move.
  REQUIRE(f.repo->Move(n.id, f.fC.id, "", "bob").ok());
  feed->Add(n.id);
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fC.id + "') AND cmis:name = 'renamed.txt'") ==
        Names{"renamed.txt"});
  // Delete.
  REQUIRE(f.repo->Delete(n.id, true).ok());
  feed->Add(n.id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:name = 'renamed.txt'") == Names{});

  // A second index object on the same file with the same feed (another process sharing
  // the log) finds the stored token and does not rebuild.
  Indexed other(f, feed);
  CHECK(other.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  CHECK(other.builds == 0);
}

TEST_CASE("CatchUp: versions: check-out, check-in and deleting one version") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  const std::string doc_v =
      "SELECT * FROM cmis:document WHERE cmis:name = 'a1.txt' AND cmis:isVersionSeriesCheckedOut = TRUE";
  CHECK(ix.Set(f, doc_v) == Names{});
  auto pwc = f.repo->CheckOut(f.a1.id, "bob");
  REQUIRE(pwc.ok());
  feed->Add(pwc->id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, doc_v) == Names{"a1.txt"});
  CheckInRequest in;
  in.content = ContentSource::FromBytes("the slow green turtle", "text/plain");
  auto v2 = f.repo->CheckIn(pwc->id, in, "bob");
  REQUIRE(v2.ok());
  feed->Add(v2->id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, doc_v) == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('turtle')") == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')", true) == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:versionLabel = '2.0'") == Names{"a1.txt"});
  // Deleting the latest version makes the one before it the latest again.
  REQUIRE(f.repo->Delete(v2->id, false).ok());
  feed->Add(v2->id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:versionLabel = '2.0'", true) == Names{});
}

TEST_CASE("CatchUp: a folder moved or renamed takes its subtree along; a deleted tree leaves nothing") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  REQUIRE(f.repo->Move(f.fB.id, f.fC.id, "", "bob").ok());
  feed->Add(f.fB.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_TREE('" + f.fC.id + "')") ==
        Names{"c1.txt", "c2.txt", "c3.txt", "b1.json", "b2.bin"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_TREE('" + f.fA.id + "')") == Names{"a1.txt", "a2.md"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder WHERE cmis:path = '/C/B'") == Names{"B"});
  REQUIRE(f.repo->UpdateProperties(f.fC.id, Json{{"cmis:name", "Cee"}}, "bob").ok());
  feed->Add(f.fC.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder WHERE cmis:path LIKE '/Cee%'") == Names{"Cee", "B"});
  auto failed = f.repo->DeleteTree(f.fC.id);
  REQUIRE(failed.ok());
  feed->Add(f.fC.id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder") == Names{"", "A"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('zebra OR contract')") == Names{});
}

TEST_CASE("CatchUp: a gap in the feed, or another feed, rebuilds the index") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  CHECK(ix.Set(f, "SELECT * FROM cmis:item") == Names{"it1"});
  CHECK(ix.builds == 1);
  NewObject o;
  o.name = "it2";
  auto it2 = f.repo->CreateItem(f.root, o, "alice");
  REQUIRE(it2.ok());
  const uint64_t t = feed->Add(it2->id, query::ChangeType::kCreated);
  feed->DropThrough(t);  // the event is gone before the index read it
  CHECK(ix.Set(f, "SELECT * FROM cmis:item") == Names{"it1", "it2"});
  CHECK(ix.builds == 2);

  Indexed elsewhere(f, std::make_shared<TestFeed>("another-log"));
  CHECK(elsewhere.Set(f, "SELECT * FROM cmis:item") == Names{"it1", "it2"});
  CHECK(elsewhere.builds == 1);
}

TEST_CASE("CatchUp: a change made while the build scans is applied when the scan is done") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  // The first ReadChanges of the build comes after the scan; this change and its event
  // happen just then, after the scan saw the old name.
  feed->on_read = [&] {
    REQUIRE(f.repo->UpdateProperties(f.a1.id, Json{{"cmis:name", "during-build.txt"}}, "bob").ok());
    feed->Add(f.a1.id);
  };
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')") ==
        Names{"during-build.txt", "a2.md"});
}

TEST_CASE("CatchUp: changes reported by the api layer (the temporary in-process feed)") {
  QueryFixture f;
  const std::string in_root = "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.root + "')";
  const Names before = f.Set(in_root);
  ObjectData n = f.Doc(f.root, "n.txt", "needle");
  f.Changed({n.id});
  CHECK(f.Set(in_root).count("n.txt") == 1);
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('needle')") == Names{"n.txt"});
  REQUIRE(f.repo->UpdateProperties(n.id, Json{{"cmis:description", "described"}}, "bob").ok());
  f.Changed({n.id});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:description = 'described'") == Names{"n.txt"});
  REQUIRE(f.repo->Delete(n.id, true).ok());
  f.Changed({n.id});
  CHECK(f.Set(in_root) == before);
  // A custom type made after the index was built is queryable at once.
  Json t = {{"id", "acme:memo"},
            {"parentId", "cmis:document"},
            {"propertyDefinitions", {{"acme:urgent", {{"propertyType", "boolean"}, {"cardinality", "single"}}}}}};
  REQUIRE(f.repo->CreateType(t).ok());
  NewObject m;
  m.name = "memo.txt";
  m.type_id = "acme:memo";
  m.properties = Json{{"acme:urgent", true}};
  auto memo = f.repo->CreateDocument(f.root, m, std::nullopt, VersioningState::kMajor, "alice");
  REQUIRE(memo.ok());
  f.Changed({memo->id});
  CHECK(f.Set("SELECT * FROM acme:memo WHERE acme:urgent = TRUE") == Names{"memo.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:name = 'memo.txt'") == Names{"memo.txt"});
}

TEST_CASE("QueryIndex: deleted, damaged or of another schema: rebuilt, with the same results") {
  QueryFixture f;
  const std::string all = "SELECT * FROM cmis:document WHERE CONTAINS('fox OR zebra') OR IN_TREE('" + f.fC.id + "')";
  const Names expected = {"a1.txt", "b1.json", "c1.txt", "c2.txt", "c3.txt"};
  CHECK(f.Set(all) == expected);
  SUBCASE("deleted") {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(IndexFile(f) + suffix);
  }
  SUBCASE("replaced by garbage") {
    for (const char* suffix : {"-wal", "-shm"}) std::filesystem::remove(IndexFile(f) + suffix);
    std::filesystem::remove(IndexFile(f));
    folio::testing::WriteFile(IndexFile(f), std::string(8192, 'x'));
  }
  SUBCASE("of another schema version") {
    auto db = query::Db::Open(IndexFile(f));
    REQUIRE(db.ok());
    REQUIRE((*db)->Exec("UPDATE meta SET value = 0 WHERE key = 'schema'; DELETE FROM objects").ok());
  }
  SUBCASE("damaged in place") {
    // Overwrite the pages after the header of the file the index has open.
    std::string bytes = folio::testing::ReadFile(IndexFile(f));
    REQUIRE(bytes.size() >= 4096);
    std::FILE* file = std::fopen(IndexFile(f).c_str(), "r+b");
    REQUIRE(file != nullptr);
    std::fseek(file, 0, SEEK_SET);
    const std::string junk(bytes.size(), '\x5a');
    std::fwrite(junk.data(), 1, junk.size(), file);
    std::fclose(file);
  }
  CHECK(f.Set(all) == expected);
  auto summary = f.indexes->Get("demo", "main")->Summarize(*f.repo);
  REQUIRE_MESSAGE(summary.ok(), summary.status().ToString());
  CHECK(summary->complete);
  CHECK(summary->objects == 18);  // 4 folders, 1 item, 1 relationship, 12 document versions
  // A new user of the file (a restart) reads it afresh and finds the same.
  query::QueryIndexes restarted(*f.store);
  auto again = restarted.Get("demo", "main")->Summarize(*f.repo);
  REQUIRE_MESSAGE(again.ok(), again.status().ToString());
  CHECK(again->objects == 18);
}

TEST_CASE("QueryIndex: a build that was stopped leaves an incomplete index, rebuilt by the next user") {
  QueryFixture f;
  {
    query::QueryIndexes indexes(*f.store);
    auto index = indexes.Get("demo", "main");
    index->Stop();
    CHECK(index->Prepare(*f.repo).kind() == ErrorKind::kRuntime);
  }
  CHECK(f.Set("SELECT * FROM cmis:folder") == Names{"", "A", "B", "C"});
}

TEST_CASE("QueryIndex: two processes' indexes share the file; a restart rebuilds it from the files") {
  QueryFixture f;
  query::QueryIndexes second(*f.store);  // another server on the same data directory
  auto run = [&](query::QueryIndexes& ix, const std::string& statement) {
    auto parsed = query::Parse(statement);
    REQUIRE(parsed.ok());
    auto bound = query::Bind(*parsed, *f.repo, TestSpelling());
    REQUIRE(bound.ok());
    query::QueryPage page;
    auto hits = ix.Get("demo", "main")->Run(*f.repo, *bound, page);
    REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
    return hits->total;
  };
  const std::string q = "SELECT * FROM cmis:document WHERE cmis:name LIKE 'shared%'";
  CHECK(run(*f.indexes, q) == 0);
  CHECK(run(second, q) == 0);
  ObjectData s = f.Doc(f.root, "shared.txt", "x");
  second.NoteChanged(*f.repo, {s.id});  // written through the second server
  CHECK(run(*f.indexes, q) == 1);       // seen by the first
  // A change nobody reported (a crash between the commit and the index, or a hand edit
  // while no server ran) is found by the rebuild of the next start.
  ObjectData lost = f.Doc(f.root, "shared-lost.txt", "x");
  CHECK(run(*f.indexes, q) == 1);
  query::QueryIndexes restarted(*f.store);
  CHECK(run(restarted, q) == 2);
}

TEST_CASE("QueryIndex: queries and reported writes from many threads") {
  QueryFixture f;
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 15; ++i) {
        if (t % 2 == 0) {
          NewObject o;
          o.name = "t" + std::to_string(t) + "-" + std::to_string(i) + ".txt";
          auto d =
              f.repo->CreateDocument(f.root, o, ContentSource::FromBytes("threaded"), VersioningState::kMajor, "x");
          if (!d.ok()) failed = true;
          if (d.ok()) f.indexes->NoteChanged(*f.repo, {d->id});
        } else {
          auto parsed = query::Parse("SELECT * FROM cmis:document WHERE CONTAINS('threaded')");
          auto bound = query::Bind(*parsed, *f.repo, TestSpelling());
          auto hits = f.indexes->Get("demo", "main")->Run(*f.repo, *bound, query::QueryPage{});
          if (!hits.ok()) failed = true;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK_FALSE(failed);
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('threaded')").size() == 30);
}

TEST_CASE("CatchUp: a change written while another process builds waits in the pending table") {
  QueryFixture f;
  const std::string q = "SELECT * FROM cmis:document WHERE cmis:name = 'late.txt'";
  CHECK(f.Set(q) == Names{});
  auto side = query::Db::Open(IndexFile(f));
  REQUIRE(side.ok());
  auto count_pending = [&] {
    auto s = (*side)->Prepare("SELECT count(*) FROM pending");
    REQUIRE(s.ok());
    REQUIRE(*s->Step());
    return s->Int(0);
  };
  // Another process has started a build: the index is not complete.
  REQUIRE((*side)->Exec("UPDATE meta SET value = 0 WHERE key = 'complete'").ok());
  ObjectData late = f.Doc(f.root, "late.txt", "late");
  f.Changed({late.id});
  CHECK(count_pending() == 1);
  // Its build ends (it had scanned before the change); the next query applies the rest.
  REQUIRE((*side)->Exec("UPDATE meta SET value = 1 WHERE key = 'complete'").ok());
  CHECK(f.Set(q) == Names{"late.txt"});
  CHECK(count_pending() == 0);
}

TEST_CASE("CatchUp: a write reported while this process builds is applied by the build, without waiting") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed ix(f, feed);
  std::string id;
  // Runs inside the build, after its scan: the write is deferred to the build's end.
  feed->on_read = [&] {
    ObjectData d = f.Doc(f.root, "mid-build.txt", "written while building");
    id = d.id;
    CHECK(ix.index->NoteWritten(*f.repo, {d.id}).ok());
  };
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('building')") == Names{"mid-build.txt"});
  CHECK_FALSE(id.empty());
  CHECK(ix.builds == 1);
}
