// Keeping the index in step: synthetic change events (a test feed); the repository's own
// change log (every write seen by the next query without anyone reporting it, another
// store on the same directory, files added by hand once adopted, a log that dropped or
// never held the index's token); an index deleted, damaged or of another schema, a
// second user of the same file, a build interrupted, and changes made while a build
// runs.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "repo/query/change_log_feed.h"
#include "repo/query/index_writer.h"
#include "repo/query/query_fixture.h"
#include "repo/store_fs.h"
#include "repo/query/schema.h"
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
  Result<uint64_t> LatestToken(Repository&) override {
    std::lock_guard<std::mutex> lock(mu_);
    return events_.empty() ? first_ - 1 : events_.back().token;
  }
  Result<query::ChangeBatch> ReadChanges(Repository&, uint64_t after, size_t max) override {
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

// The repository's change log, counting reads and running `on_read` (once) before the
// next read: a change "committed while the build ran".
class CountingLog : public query::ChangeLogFeed {
 public:
  explicit CountingLog(QueryFixture& f)
      : ChangeLogFeed(repo::StoreFs::Of(*f.store), storage::RepoLayout("demo/main").ChangesDir()) {}
  Result<query::ChangeBatch> ReadChanges(Repository& repo, uint64_t after, size_t max) override {
    std::function<void()> hook;
    hook.swap(on_read);
    if (hook) hook();
    ++reads;
    return ChangeLogFeed::ReadChanges(repo, after, max);
  }
  std::function<void()> on_read;
  std::atomic<int> reads{0};
};

// An index of "demo/main" following `feed`, counting its builds from its log.
template <typename Feed = TestFeed>
struct Indexed {
  std::shared_ptr<Feed> feed;
  std::atomic<int> builds{0};
  std::unique_ptr<query::QueryIndex> index;

  Indexed(QueryFixture& f, std::shared_ptr<Feed> fd) : feed(std::move(fd)) {
    query::IndexPaths paths;
    paths.label = "demo/main";
    paths.db_fs_path = query::IndexFileOf("demo/main");
    paths.lock_fs_path = query::IndexLockFileOf("demo/main");
    paths.db_path = repo::StoreFs::Of(*f.store).Describe(paths.db_fs_path);
    index = std::make_unique<query::QueryIndex>(repo::StoreFs::Of(*f.store), paths, feed,
                                                [this](const std::string& line) {
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
  Indexed<> ix(f, feed);
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
  REQUIRE(f.repo->UpdateProperties(n.id, Json{{"cmis:name", "renamed.txt"}}, "bob", WriteCheck::Trusted()).ok());
  feed->Add(n.series_id);
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md", "renamed.txt"});
  // Content.
  REQUIRE(f.repo->SetContent(n.id, ContentSource::FromBytes("other words", "text/plain"), true, "bob",
                             WriteCheck::Trusted()).ok());
  feed->Add(n.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fresh')") == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('other')") == Names{"renamed.txt"});
  // Move.
  REQUIRE(f.repo->Move(n.id, f.fC.id, "", "bob", WriteCheck::Trusted()).ok());
  feed->Add(n.id);
  CHECK(ix.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fC.id + "') AND cmis:name = 'renamed.txt'") ==
        Names{"renamed.txt"});
  // Delete.
  REQUIRE(f.repo->Delete(n.id, true, WriteCheck::Trusted()).ok());
  feed->Add(n.id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:name = 'renamed.txt'") == Names{});

  // A second index object on the same file with the same feed (another process sharing
  // the log) finds the stored token and does not rebuild.
  Indexed<> other(f, feed);
  CHECK(other.Set(f, in_a) == Names{"a1.txt", "a2.md"});
  CHECK(other.builds == 0);
}

TEST_CASE("CatchUp: versions: check-out, check-in and deleting one version") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  const std::string doc_v =
      "SELECT * FROM cmis:document WHERE cmis:name = 'a1.txt' AND cmis:isVersionSeriesCheckedOut = TRUE";
  CHECK(ix.Set(f, doc_v) == Names{});
  auto pwc = f.repo->CheckOut(f.a1.id, "bob", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  feed->Add(pwc->id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, doc_v) == Names{"a1.txt"});
  CheckInRequest in;
  in.content = ContentSource::FromBytes("the slow green turtle", "text/plain");
  auto v2 = f.repo->CheckIn(pwc->id, in, "bob", WriteCheck::Trusted());
  REQUIRE(v2.ok());
  feed->Add(v2->id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, doc_v) == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('turtle')") == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')", true) == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:versionLabel = '2.0'") == Names{"a1.txt"});
  // Deleting the latest version makes the one before it the latest again.
  REQUIRE(f.repo->Delete(v2->id, false, WriteCheck::Trusted()).ok());
  feed->Add(v2->id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:versionLabel = '2.0'", true) == Names{});
}

TEST_CASE("CatchUp: a creation the index holds already is not read again; every later event is applied") {
  // After a first build, the log holds a creation for every document the scan adopted,
  // which the scan has just indexed: reading each one again took longer than the scan.
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  const std::string old_name = "SELECT * FROM cmis:document WHERE cmis:name = 'a1.txt'";
  const std::string new_name = "SELECT * FROM cmis:document WHERE cmis:name = 'a1-renamed.txt'";
  CHECK(ix.Set(f, old_name) == Names{"a1.txt"});
  // Renamed with no event yet; its creation's event (as the build's catch-up reads it)
  // is in the index already: nothing is read.
  REQUIRE(f.repo->UpdateProperties(f.a1.id, Json{{"cmis:name", "a1-renamed.txt"}}, "bob", WriteCheck::Trusted()).ok());
  feed->Add(f.a1.id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, new_name) == Names{});
  // The rename's own event is applied.
  feed->Add(f.a1.series_id);
  CHECK(ix.Set(f, new_name) == Names{"a1-renamed.txt"});
  CHECK(ix.Set(f, old_name) == Names{});
  // A creation of what the index does not hold is read.
  ObjectData n = f.Doc(f.fA.id, "new.txt", "fresh words");
  feed->Add(n.id, query::ChangeType::kCreated);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:name = 'new.txt'") == Names{"new.txt"});
}

TEST_CASE("CatchUp: a version deleted and made again under the same id is indexed as it is now") {
  // The id of version 2.0 comes back when 2.0 is deleted and the next check-in is 2.0
  // again: its deletion's event, applied before the second creation, reads it again.
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  auto check_in = [&](const std::string& words) -> std::string {
    auto pwc = f.repo->CheckOut(f.a1.id, "bob", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    feed->Add(pwc->id, query::ChangeType::kCreated);
    CheckInRequest in;
    in.content = ContentSource::FromBytes(words, "text/plain");
    auto v = f.repo->CheckIn(pwc->id, in, "bob", WriteCheck::Trusted());
    REQUIRE(v.ok());
    feed->Add(v->id, query::ChangeType::kCreated);
    return v->id;
  };
  const std::string first = check_in("the slow green turtle");
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('turtle')") == Names{"a1.txt"});
  REQUIRE(f.repo->Delete(first, false, WriteCheck::Trusted()).ok());
  feed->Add(first, query::ChangeType::kDeleted);
  const std::string again = check_in("a grey heron");
  REQUIRE(again == first);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('heron')") == Names{"a1.txt"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('turtle')", true) == Names{});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE cmis:versionLabel = '2.0'") == Names{"a1.txt"});
}

TEST_CASE("CatchUp: a folder moved or renamed takes its subtree along; a deleted tree leaves nothing") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  REQUIRE(f.repo->Move(f.fB.id, f.fC.id, "", "bob", WriteCheck::Trusted()).ok());
  feed->Add(f.fB.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_TREE('" + f.fC.id + "')") ==
        Names{"c1.txt", "c2.txt", "c3.txt", "b1.json", "b2.bin"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_TREE('" + f.fA.id + "')") == Names{"a1.txt", "a2.md"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder WHERE cmis:path = '/C/B'") == Names{"B"});
  REQUIRE(f.repo->UpdateProperties(f.fC.id, Json{{"cmis:name", "Cee"}}, "bob", WriteCheck::Trusted()).ok());
  feed->Add(f.fC.id);
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder WHERE cmis:path LIKE '/Cee%'") == Names{"Cee", "B"});
  auto failed = f.repo->DeleteTree(f.fC.id, WriteCheck::Trusted());
  REQUIRE(failed.ok());
  feed->Add(f.fC.id, query::ChangeType::kDeleted);
  CHECK(ix.Set(f, "SELECT * FROM cmis:folder") == Names{"", "A"});
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE CONTAINS('zebra OR contract')") == Names{});
}

TEST_CASE("CatchUp: a gap in the feed, or another feed, rebuilds the index") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  CHECK(ix.Set(f, "SELECT * FROM cmis:item") == Names{"it1"});
  CHECK(ix.builds == 1);
  NewObject o;
  o.name = "it2";
  auto it2 = f.repo->CreateItem(f.root, o, "alice", WriteCheck::Trusted());
  REQUIRE(it2.ok());
  const uint64_t t = feed->Add(it2->id, query::ChangeType::kCreated);
  feed->DropThrough(t);  // the event is gone before the index read it
  CHECK(ix.Set(f, "SELECT * FROM cmis:item") == Names{"it1", "it2"});
  CHECK(ix.builds == 2);

  Indexed<> elsewhere(f, std::make_shared<TestFeed>("another-log"));
  CHECK(elsewhere.Set(f, "SELECT * FROM cmis:item") == Names{"it1", "it2"});
  CHECK(elsewhere.builds == 1);
}

TEST_CASE("CatchUp: a change made while the build scans is applied when the scan is done") {
  QueryFixture f;
  auto feed = std::make_shared<TestFeed>();
  Indexed<> ix(f, feed);
  // The first ReadChanges of the build comes after the scan; this change and its event
  // happen just then, after the scan saw the old name.
  feed->on_read = [&] {
    REQUIRE(f.repo->UpdateProperties(f.a1.id, Json{{"cmis:name", "during-build.txt"}}, "bob",
                                     WriteCheck::Trusted()).ok());
    feed->Add(f.a1.id);
  };
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')") ==
        Names{"during-build.txt", "a2.md"});
}

TEST_CASE("ChangeLog: every write reaches the next query through the repository's change log") {
  QueryFixture f;  // its indexes follow the repository's change log; nothing reports writes
  const std::string in_root = "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.root + "')";
  const Names before = f.Set(in_root);
  ObjectData n = f.Doc(f.root, "n.txt", "needle");
  CHECK(f.Set(in_root).count("n.txt") == 1);
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('needle')") == Names{"n.txt"});
  REQUIRE(f.repo->UpdateProperties(n.id, Json{{"cmis:description", "described"}}, "bob", WriteCheck::Trusted()).ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:description = 'described'") == Names{"n.txt"});
  REQUIRE(f.repo->SetContent(n.id, ContentSource::FromBytes("haystack", "text/plain"), true, "bob",
                             WriteCheck::Trusted()).ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('needle')") == Names{});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('haystack')") == Names{"n.txt"});
  REQUIRE(f.repo->Move(n.id, f.fA.id, "", "bob", WriteCheck::Trusted()).ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')") ==
        Names{"a1.txt", "a2.md", "n.txt"});
  auto pwc = f.repo->CheckOut(n.id, "bob", WriteCheck::Trusted());
  REQUIRE(pwc.ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:isVersionSeriesCheckedOut = TRUE AND cmis:name = 'n.txt'") ==
        Names{"n.txt"});
  CheckInRequest in;
  in.content = ContentSource::FromBytes("threshold", "text/plain");
  REQUIRE(f.repo->CheckIn(pwc->id, in, "bob", WriteCheck::Trusted()).ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('threshold')") == Names{"n.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('haystack')", true) == Names{"n.txt"});
  REQUIRE(f.repo->Delete(n.id, true, WriteCheck::Trusted()).ok());
  CHECK(f.Set(in_root) == before);
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('threshold OR haystack')", true) == Names{});
  // A custom type made after the index was built is queryable at once.
  Json t = {{"id", "acme:memo"},
            {"parentId", "cmis:document"},
            {"propertyDefinitions", {{"acme:urgent", {{"propertyType", "boolean"}, {"cardinality", "single"}}}}}};
  REQUIRE(f.repo->CreateType(t, WriteCheck::Trusted()).ok());
  NewObject m;
  m.name = "memo.txt";
  m.type_id = "acme:memo";
  m.properties = Json{{"acme:urgent", true}};
  auto memo = f.repo->CreateDocument(f.root, m, std::nullopt, VersioningState::kMajor, "alice", WriteCheck::Trusted());
  REQUIRE(memo.ok());
  CHECK(f.Set("SELECT * FROM acme:memo WHERE acme:urgent = TRUE") == Names{"memo.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:name = 'memo.txt'") == Names{"memo.txt"});
  // A folder tree deleted: its events (one per object) leave nothing of it.
  REQUIRE(f.repo->DeleteTree(f.fC.id, WriteCheck::Trusted()).ok());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE cmis:name LIKE 'c_.txt'") == Names{});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:name = 'C'") == Names{});
}

TEST_CASE("ChangeLog: a query reads the log only when it changed; the token is the log's newest") {
  QueryFixture f;
  auto log = std::make_shared<CountingLog>(f);
  Indexed<CountingLog> ix(f, log);
  const std::string q = "SELECT * FROM cmis:document WHERE cmis:name = 'quiet.txt'";
  CHECK(ix.Set(f, q) == Names{});
  const int after_build = log->reads;
  CHECK(ix.Set(f, q) == Names{});
  CHECK(ix.Set(f, q) == Names{});
  CHECK(log->reads == after_build);  // nothing changed: the fingerprint said so
  f.Doc(f.root, "quiet.txt", "x");
  CHECK(ix.Set(f, q) == Names{"quiet.txt"});
  CHECK(log->reads > after_build);
  auto latest = f.repo->LatestChangeToken();
  REQUIRE(latest.ok());
  auto db = query::Db::Open(IndexFile(f));
  REQUIRE(db.ok());
  auto token = query::ReadMeta(**db, query::kChangeLogTokenKey);
  REQUIRE(token.ok());
  REQUIRE(token->has_value());
  CHECK(static_cast<uint64_t>(**token) == *latest);
  CHECK(ix.builds == 1);
}

TEST_CASE("ChangeLog: a write committed while the build scans is applied when the scan is done") {
  QueryFixture f;
  auto log = std::make_shared<CountingLog>(f);
  Indexed<CountingLog> ix(f, log);
  // The first read of the log comes after the scan saw the old name.
  log->on_read = [&] { REQUIRE(f.repo->UpdateProperties(f.a1.id, Json{{"cmis:name", "mid.txt"}}, "bob",
                                                        WriteCheck::Trusted()).ok()); };
  CHECK(ix.Set(f, "SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')") == Names{"mid.txt", "a2.md"});
  CHECK(ix.builds == 1);
}

TEST_CASE("ChangeLog: a log that dropped the index's token, or is another log, rebuilds the index") {
  QueryFixture f;
  auto log = std::make_shared<CountingLog>(f);
  Indexed<CountingLog> ix(f, log);
  const std::string q = "SELECT * FROM cmis:item";
  CHECK(ix.Set(f, q) == Names{"it1"});
  CHECK(ix.builds == 1);
  auto item = [&](const std::string& name) {
    NewObject o;
    o.name = name;
    auto it = f.repo->CreateItem(f.root, o, "alice", WriteCheck::Trusted());
    REQUIRE(it.ok());
  };
  const std::string changes = f.RepoPath(".folio/changes");
  auto segments = [&] {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(changes)) {
      if (e.path().extension() == ".jsonl") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
  };

  SUBCASE("retention dropped the events after the index's token") {
    item("it2");
    item("it3");
    auto latest = f.repo->LatestChangeToken();
    REQUIRE(latest.ok());
    // What retention leaves (docs/STORAGE.md §8): the newest event alone, in a segment
    // named after it, and the "truncated" marker.
    const auto all = segments();
    REQUIRE(all.size() == 1);
    std::string text = folio::testing::ReadFile(all[0].string());
    text.pop_back();
    const std::string last_line = text.substr(text.rfind('\n') + 1) + "\n";
    char name[32];
    std::snprintf(name, sizeof name, "%020llu.jsonl", static_cast<unsigned long long>(*latest));
    std::filesystem::remove(all[0]);
    folio::testing::WriteFile(changes + "/" + name, last_line);
    folio::testing::WriteFile(changes + "/truncated", "");
    CHECK(ix.Set(f, q) == Names{"it1", "it2", "it3"});
    CHECK(ix.builds == 2);
  }
  SUBCASE("the log was made anew: its tokens start again below the index's") {
    item("it2");
    std::filesystem::remove_all(changes);
    item("it3");  // token 1 of the new log
    CHECK(ix.Set(f, q) == Names{"it1", "it2", "it3"});
    CHECK(ix.builds == 2);
  }
  // Afterwards the index follows the log as usual.
  item("it4");
  CHECK(ix.Set(f, q) == Names{"it1", "it2", "it3", "it4"});
  CHECK(ix.builds == 2);
}

TEST_CASE("ChangeLog: a second store on the same directory (another process) and files added by hand") {
  QueryFixture f;
  const std::string q = "SELECT * FROM cmis:document WHERE cmis:name LIKE 'other%'";
  CHECK(f.Set(q) == Names{});
  {
    auto other = Store::Open(f.dir.path(), StoreOptions{.durable = false});
    REQUIRE(other.ok());
    auto repo = (*other)->GetRepository("demo", "main");
    REQUIRE(repo.ok());
    NewObject o;
    o.name = "other.txt";
    REQUIRE((*repo)->CreateDocument(f.root, o, ContentSource::FromBytes("x"), VersioningState::kMajor, "bob",
                                    WriteCheck::Trusted()).ok());
  }
  CHECK(f.Set(q) == Names{"other.txt"});
  // A file added by hand gets its event when the engine first sees it (here: a listing).
  folio::testing::WriteFile(f.RepoPath("A/other-by-hand.txt"), "handmade");
  REQUIRE(f.repo->GetChildren(f.fA.id, 0, 100).ok());
  CHECK(f.Set(q) == Names{"other.txt", "other-by-hand.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('handmade')") == Names{"other-by-hand.txt"});
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
  auto summary = (*f.indexes->Get("demo", "main"))->Summarize(*f.repo);
  REQUIRE_MESSAGE(summary.ok(), summary.status().ToString());
  CHECK(summary->complete);
  CHECK(summary->objects == 18);  // 4 folders, 1 item, 1 relationship, 12 document versions
  // A new user of the file (a restart) reads it afresh and finds the same.
  query::QueryIndexes restarted(*f.store);
  auto again = (*restarted.Get("demo", "main"))->Summarize(*f.repo);
  REQUIRE_MESSAGE(again.ok(), again.status().ToString());
  CHECK(again->objects == 18);
}

TEST_CASE("QueryIndex: a build that was stopped leaves an incomplete index, rebuilt by the next user") {
  QueryFixture f;
  {
    query::QueryIndexes indexes(*f.store);
    auto index = *indexes.Get("demo", "main");
    index->Stop();
    CHECK(index->Prepare(*f.repo).kind() == ErrorKind::kRuntime);
  }
  CHECK(f.Set("SELECT * FROM cmis:folder") == Names{"", "A", "B", "C"});
}

TEST_CASE("QueryIndex: two processes' indexes share the file; a restart keeps it") {
  QueryFixture f;
  query::QueryIndexes second(*f.store);  // another server on the same data directory
  auto run = [&](query::QueryIndexes& ix, const std::string& statement) {
    auto parsed = query::Parse(statement);
    REQUIRE(parsed.ok());
    auto bound = query::Bind(*parsed, *f.repo, TestSpelling());
    REQUIRE(bound.ok());
    query::QueryPage page;
    auto hits = (*ix.Get("demo", "main"))->Run(*f.repo, *bound, page);
    REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
    return hits->total;
  };
  const std::string q = "SELECT * FROM cmis:document WHERE cmis:name LIKE 'shared%'";
  CHECK(run(*f.indexes, q) == 0);
  CHECK(run(second, q) == 0);
  f.Doc(f.root, "shared.txt", "x");
  CHECK(run(second, q) == 1);
  CHECK(run(*f.indexes, q) == 1);
  // A change no index applied before the servers stopped (a crash between the commit
  // and the next query) is applied from the log by the next start, without a rebuild.
  f.Doc(f.root, "shared-late.txt", "x");
  int builds = 0;
  query::QueryIndexes restarted(*f.store, [&](const std::string& line) {
    if (line.ends_with(": building")) ++builds;
  });
  CHECK(run(restarted, q) == 2);
  CHECK(builds == 0);
}

TEST_CASE("QueryIndex: queries and writes from many threads") {
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
              f.repo->CreateDocument(f.root, o, ContentSource::FromBytes("threaded"), VersioningState::kMajor, "x",
                                     WriteCheck::Trusted());
          if (!d.ok()) failed = true;
        } else {
          auto parsed = query::Parse("SELECT * FROM cmis:document WHERE CONTAINS('threaded')");
          auto bound = query::Bind(*parsed, *f.repo, TestSpelling());
          auto hits = (*f.indexes->Get("demo", "main"))->Run(*f.repo, *bound, query::QueryPage{});
          if (!hits.ok()) failed = true;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK_FALSE(failed);
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('threaded')").size() == 30);
}

TEST_CASE("HandWatcher: files added, edited or removed by hand, and folders made by hand, reach the next query") {
  QueryFixture f;  // its indexes watch the repository's folders
  const std::string q = "SELECT * FROM cmis:document WHERE CONTAINS('quokka')";
  CHECK(f.Set(q) == Names{});  // built, and watching from now on
  folio::testing::WriteFile(f.RepoPath("A/hand.txt"), "a quokka");
  CHECK(f.Set(q) == Names{"hand.txt"});
  folio::testing::WriteFile(f.RepoPath("A/a1.txt"), "the quokka too");  // an edit
  CHECK(f.Set(q) == Names{"hand.txt", "a1.txt"});
  std::filesystem::create_directories(f.RepoPath("A/made/inner"));
  folio::testing::WriteFile(f.RepoPath("A/made/inner/deep.txt"), "a deep quokka");
  CHECK(f.Set(q) == Names{"hand.txt", "a1.txt", "deep.txt"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE IN_FOLDER('" + f.fA.id + "')") == Names{"B", "made"});
  // Files written in a folder the watcher found by itself are seen too.
  folio::testing::WriteFile(f.RepoPath("A/made/inner/later.txt"), "a later quokka");
  CHECK(f.Set(q) == Names{"hand.txt", "a1.txt", "deep.txt", "later.txt"});
  std::filesystem::remove(f.RepoPath("A/hand.txt"));
  CHECK(f.Set(q) == Names{"a1.txt", "deep.txt", "later.txt"});
  std::filesystem::remove_all(f.RepoPath("A/made"));
  CHECK(f.Set(q) == Names{"a1.txt"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:name = 'inner'") == Names{});
}
