// storage::Committer (src/storage/committer.h). Two committers on one repository
// directory, as two processes have (each its own flock): a committer that takes the
// lock again after the other wrote must see the other's changes (its tokens, its
// records), and one that finds nobody wrote keeps what it knew. Many threads on one
// committer: the records of a group commit are applied in parallel, each by its own
// thread, while those on the same file keep log order, and events keep token order.
// On the real filesystem: the flock between committers is what is tested.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "storage/committer.h"
#include "storage/id_seed.h"
#include "storage/ids.h"
#include "storage/json_file.h"
#include "storage/lookup_scope.h"
#include "storage/wait_hooks.h"
#include "support/temp_dir.h"

namespace folio::storage {
namespace {

// An event of `type` about the document `id`.
ChangeEvent DocumentEvent(const char* type, const std::string& id) {
  ChangeEvent e;
  e.type = type;
  e.object_id = id;
  e.base_type_id = "cmis:document";
  e.type_id = "cmis:document";
  return e;
}

// Holds the apply of the change that writes `path` until Release, so that the change
// stays in flight while another is staged.
class HeldApply {
 public:
  explicit HeldApply(std::string path) : path_(std::move(path)) {}
  // Options whose on_json_written holds the apply of `path`.
  CommitterOptions Options() {
    CommitterOptions options;
    options.on_json_written = [this](const std::string& path, const FileStat&, std::shared_ptr<const Json>) {
      if (path != path_) return;
      std::unique_lock<std::mutex> lock(mu_);
      holding_ = true;
      cv_.notify_all();
      cv_.wait(lock, [&] { return release_; });
    };
    return options;
  }
  // Returns once the change is held.
  void WaitHeld() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return holding_; });
  }
  // A thread that lets the change go after `ms` milliseconds.
  std::thread ReleaseAfter(int ms) {
    return std::thread([this, ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      std::lock_guard<std::mutex> lock(mu_);
      release_ = true;
      cv_.notify_all();
    });
  }

 private:
  const std::string path_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool holding_ = false, release_ = false;
};

// Puts `file` in the repository with one "created" event; returns the change's status.
Status PutWithEvent(Committer& c, const std::string& file) {
  return c.Run([&](ChangeSet& change) {
    change.Put("r/" + file, "bytes of " + file);
    change.Record(DocumentEvent("created", file));
    return OkStatus();
  });
}

// The real filesystem at `dir`, holding an empty repository directory "r".
std::unique_ptr<Fs> RepoDir(const folio::testing::TempDir& dir) {
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  REQUIRE((*fs)->MakeDir("r").ok());
  REQUIRE((*fs)->MakeDir("r/.folio").ok());
  return std::move(*fs);
}

std::vector<uint64_t> Tokens(Committer& c) {
  auto events = c.change_log().Read(1, 1000);
  REQUIRE(events.ok());
  std::vector<uint64_t> out;
  for (const ChangeEvent& e : *events) out.push_back(e.token);
  return out;
}

}  // namespace

TEST_CASE("Committer: two committers on one directory take turns; tokens stay consecutive, nothing is lost") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  const RepoLayout layout("r");
  CommitterOptions options;
  options.idle_checkpoint = std::chrono::milliseconds(60000);  // no checkpoint between turns
  Committer a(*fs, layout, options), b(*fs, layout, options);
  REQUIRE(a.Open().ok());
  REQUIRE(b.Open().ok());
  // a alone, twice: the second acquisition finds the header as a left it.
  REQUIRE(PutWithEvent(a, "a1").ok());
  REQUIRE(PutWithEvent(a, "a2").ok());
  // b writes in between a's turns: a must not reuse b's token.
  REQUIRE(PutWithEvent(b, "b1").ok());
  REQUIRE(PutWithEvent(a, "a3").ok());
  REQUIRE(PutWithEvent(b, "b2").ok());
  REQUIRE(PutWithEvent(b, "b3").ok());
  REQUIRE(PutWithEvent(a, "a4").ok());
  CHECK(Tokens(a) == std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7});
  auto events = a.change_log().Read(1, 1000);
  REQUIRE(events.ok());
  std::vector<std::string> ids;
  for (const ChangeEvent& e : *events) ids.push_back(e.object_id);
  CHECK(ids == std::vector<std::string>{"a1", "a2", "b1", "a3", "b2", "b3", "a4"});
  for (const char* f : {"a1", "a2", "a3", "a4", "b1", "b2", "b3"}) {
    auto bytes = ReadWholeFile(*fs, std::string("r/") + f);
    REQUIRE_MESSAGE(bytes.ok(), f);
    CHECK(*bytes == std::string("bytes of ") + f);
  }
  // A checkpoint by one (a new epoch) is seen by the other at its next turn.
  REQUIRE(b.Checkpoint().ok());
  REQUIRE(PutWithEvent(a, "a5").ok());
  REQUIRE(PutWithEvent(b, "b4").ok());
  CHECK(Tokens(b) == std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  // A new process finds every record applied: nothing to replay (a header written
  // without this boot's id would make it re-apply the whole epoch over newer files).
  Committer c(*fs, layout, options);
  REQUIRE(c.Open().ok());
  CHECK(c.stats().recovered == 0);
  CHECK(a.stats().recovered == 0);
  CHECK(b.stats().recovered == 0);
}

TEST_CASE("Committer: a group commit's records are applied in parallel; the same file keeps log order; events keep token order") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  const RepoLayout layout("r");
  // Applying a JSON file is made slow (the callback runs on the applying thread, inside
  // the apply), so that records of one batch are applied at the same time if they can.
  std::atomic<int> applying{0}, most{0};
  CommitterOptions options;
  options.idle_checkpoint = std::chrono::milliseconds(60000);
  options.on_json_written = [&](const std::string&, const FileStat&, std::shared_ptr<const Json>) {
    const int now = ++applying;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --applying;
  };
  Committer c(*fs, layout, options);
  REQUIRE(c.Open().ok());
  constexpr int kThreads = 8, kEach = 12;
  // Each thread writes its own file and, in the same change, the shared file with its
  // own name and step: the shared file's writes conflict and must land in log order.
  std::mutex order_mu;
  std::vector<std::string> shared_order;  // what each change wrote to r/shared, in commit order
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kEach; ++k) {
        const std::string mine = "t" + std::to_string(t) + "-" + std::to_string(k);
        Status s = c.Run([&](ChangeSet& change) {
          change.PutJson("r/own-" + std::to_string(t) + ".json", Json{{"step", k}});
          if (k % 3 == 0) {
            change.Put("r/shared", mine);
            // Staging is serialised and records are ordered as staged: the order seen
            // here is the log order.
            std::lock_guard<std::mutex> lock(order_mu);
            shared_order.push_back(mine);
          }
          change.Record(DocumentEvent("updated", mine));
          return OkStatus();
        });
        if (!s.ok()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  REQUIRE(failures == 0);
  // Staged more than once (a restage after a conflict) would record twice in the
  // order: the last staging of each change is the one committed.
  std::map<std::string, size_t> last;
  for (size_t i = 0; i < shared_order.size(); ++i) last[shared_order[i]] = i;
  std::string newest;
  size_t newest_at = 0;
  for (const auto& [mine, at] : last) {
    if (newest.empty() || at > newest_at) newest = mine, newest_at = at;
  }
  auto shared = ReadWholeFile(*fs, "r/shared");
  REQUIRE(shared.ok());
  CHECK(*shared == newest);
  for (int t = 0; t < kThreads; ++t) {
    auto own = ReadWholeFile(*fs, "r/own-" + std::to_string(t) + ".json");
    REQUIRE(own.ok());
    CHECK(Json::parse(*own)["step"] == kEach - 1);
  }
  // One event per change, tokens consecutive and in log order.
  const std::vector<uint64_t> tokens = Tokens(c);
  REQUIRE(tokens.size() == static_cast<size_t>(kThreads * kEach));
  for (size_t i = 0; i < tokens.size(); ++i) CHECK(tokens[i] == i + 1);
  const CommitterStats stats = c.stats();
  CHECK(stats.commits == static_cast<uint64_t>(kThreads * kEach));
  // Batches formed (fewer syncs than records), and their records were applied at once.
  // Groups may be single records here (applying is slow, so the next group's sync runs
  // while the previous is applied): what is checked is that applies overlapped.
  CHECK(stats.log_syncs <= stats.commits);
  CHECK(most.load() >= 2);
  MESSAGE("records " << stats.commits << ", log syncs " << stats.log_syncs << ", most applied at once " << most.load());
  // Nothing left to replay for the next process.
  Committer next(*fs, layout, options);
  REQUIRE(next.Open().ok());
  CHECK(next.stats().recovered == 0);
}

namespace {
std::atomic<int> hook_begins{0}, hook_ends{0};
}  // namespace

TEST_CASE("Committer: a commit tells the wait hooks while it waits for its flush and apply") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  Committer c(*fs, RepoLayout("r"), CommitterOptions{});
  REQUIRE(c.Open().ok());
  const WaitHooks before = CurrentWaitHooks();
  hook_begins = 0;
  hook_ends = 0;
  SetWaitHooks({[] { ++hook_begins; }, [] { ++hook_ends; }});
  const Status written = PutWithEvent(c, "a");
  // A change that stages nothing commits nothing, and waits for nothing.
  const Status empty = c.Run([](ChangeSet&) { return OkStatus(); });
  SetWaitHooks(before);
  REQUIRE(written.ok());
  REQUIRE(empty.ok());
  CHECK(hook_begins == 1);
  CHECK(hook_ends == 1);
}

TEST_CASE("Committer: InStaging says whether this thread runs a staging") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  Committer c(*fs, RepoLayout("r"), CommitterOptions{});
  REQUIRE(c.Open().ok());
  CHECK_FALSE(Committer::InStaging());
  bool inside = false, other_thread = true;
  REQUIRE(c.Run([&](ChangeSet& change) {
             inside = Committer::InStaging();
             std::thread([&] { other_thread = Committer::InStaging(); }).join();
             change.PutJson("r/a.json", Json{{"n", 1}});
             return OkStatus();
           }).ok());
  CHECK(inside);
  CHECK_FALSE(other_thread);
  CHECK_FALSE(Committer::InStaging());
}

// docs/STORAGE.md §8: the committer is not re-entrant (no recursive mutex): a change
// is never begun inside another's staging, nor inside a lookup (Rule R1, §10).
TEST_CASE("Committer: a Run inside a staging or a lookup is refused, and writes nothing") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  Committer c(*fs, RepoLayout("r"), CommitterOptions{});
  REQUIRE(c.Open().ok());
  Status nested;
  REQUIRE(c.Run([&](ChangeSet&) {
             nested = PutWithEvent(c, "inner");
             return OkStatus();
           }).ok());
  CHECK(nested.kind() == ErrorKind::kRuntime);
  CHECK(nested.message().find("inside the staging of another") != std::string::npos);
  CHECK_FALSE(Exists(*fs, "r/inner"));

  LookupScope::SetAssertsForTest(false);
  Status in_lookup, bookkeeping_in_lookup;
  {
    const LookupScope lookup;
    in_lookup = PutWithEvent(c, "looked");
    bookkeeping_in_lookup = c.RunBookkeeping([](ChangeSet& change) {
      change.Put("r/kept", "x");
      return OkStatus();
    });
  }
  LookupScope::SetAssertsForTest(true);
  CHECK(in_lookup.kind() == ErrorKind::kRuntime);
  CHECK(in_lookup.message().find("inside a lookup") != std::string::npos);
  CHECK(bookkeeping_in_lookup.kind() == ErrorKind::kRuntime);
  CHECK_FALSE(Exists(*fs, "r/looked"));
  CHECK_FALSE(Exists(*fs, "r/kept"));
  // Once the lookup is over, the same change is made.
  CHECK(PutWithEvent(c, "looked").ok());
  CHECK(Exists(*fs, "r/looked"));
}

TEST_CASE("Committer: with seeded ids, a request run again whole gets its first run's ids, not bookkeeping's") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  Committer c(*fs, RepoLayout("r"));
  REQUIRE(c.Open().ok());
  SetIdSeed(11);
  // What the reconciler does: the request's root scope, a run, bookkeeping between runs
  // under a root scope of its own, the request run again.
  std::vector<std::string> first, again;
  std::string kept;
  {
    SeededIdScope request(SeededIdScope::Kind::kRoot);
    const auto run = [&](std::vector<std::string>& ids) {
      request.Rewind();
      REQUIRE(c.Run([&](ChangeSet& change) {
                 ids = {NewId('f'), NewId('d')};
                 change.Put("r/x", "x");
                 return OkStatus();
               }).ok());
    };
    run(first);
    {
      const SeededIdScope bookkeeping(SeededIdScope::Kind::kRoot);
      REQUIRE(c.RunBookkeeping([&](ChangeSet& change) {
                 kept = NewId('f');
                 change.Put("r/kept", "x");
                 return OkStatus();
               }).ok());
    }
    run(again);
  }
  SetIdSeed(std::nullopt);
  CHECK(again == first);
  CHECK(kept != first[0]);  // the bookkeeping's own id, never handed to the request
}

TEST_CASE("Committer: with seeded ids, a staging run again gets the ids its first run drew") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  REQUIRE(fs->MakeDir("r/d").ok());
  // The change that writes "r/held.json" stays in flight while another is staged.
  HeldApply held("r/held.json");
  Committer c(*fs, RepoLayout("r"), held.Options());
  REQUIRE(c.Open().ok());
  // The ids a change draws when staged once, from the seed's start.
  SetIdSeed(7);
  std::vector<std::string> once;
  REQUIRE(c.Run([&](ChangeSet& change) {
             once = {NewId('d'), NewId('f'), NewId('d')};
             change.Put("r/once", "x");
             return OkStatus();
           }).ok());
  // The same change staged twice (its read met a change still in flight: staged again
  // once that is applied): the second run gets the first run's ids.
  std::thread first([&] {
    CHECK(c.Run([](ChangeSet& change) {
             change.PutJson("r/held.json", Json{{"n", 1}});
             change.Rename("r/d", "r/e", Guard::None());
             return OkStatus();
           }).ok());
  });
  held.WaitHeld();
  std::thread releaser = held.ReleaseAfter(100);
  RestartSeededIds();
  std::vector<std::vector<std::string>> runs;
  REQUIRE(c.Run([&](ChangeSet& change) -> Status {
             runs.push_back({NewId('d'), NewId('f'), NewId('d')});
             (void)Committer::CheckConflict("r/d/x.json", false);
             change.Put("r/twice", "x");
             return OkStatus();
           }).ok());
  releaser.join();
  first.join();
  SetIdSeed(std::nullopt);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0] == once);
  CHECK(runs[1] == once);
  // Outside a change, the sequence goes on after what the change drew.
  SetIdSeed(7);
  for (int i = 0; i < 2; ++i) NewId('d');
  const std::string third_d = NewId('d');
  SetIdSeed(std::nullopt);
  CHECK(std::find(once.begin(), once.end(), third_d) == once.end());
}

TEST_CASE("Committer: a JSON record too large for the log is still told to on_json_written, as the file it linked") {
  // A folder's adoption table of a thousand documents is such a record: a reader that
  // is not told parses all of it again, for every lookup in the next 100 ms.
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  std::map<std::string, std::pair<FileStat, std::shared_ptr<const Json>>> told;
  CommitterOptions options;
  options.inline_limit = 1024;
  options.on_json_written = [&](const std::string& path, const FileStat& st, std::shared_ptr<const Json> value) {
    told[path] = {st, std::move(value)};
  };
  Committer c(*fs, RepoLayout("r"), options);
  REQUIRE(c.Open().ok());
  Json big = Json::object();
  for (int i = 0; i < 200; ++i) big["entry-" + std::to_string(i)] = std::string(40, 'x');
  const std::string big_text = SerializeJson(big);
  REQUIRE(big_text.size() > options.inline_limit);
  REQUIRE(c.Run([&](ChangeSet& change) {
             change.PutJson("r/big.json", big);
             change.PutJson("r/small.json", Json{{"n", 1}});
             change.Put("r/plain", std::string(4096, 'p'));  // not JSON: never told
             return OkStatus();
           }).ok());
  REQUIRE(told.count("r/big.json") == 1);
  REQUIRE(told.count("r/small.json") == 1);
  CHECK(told.count("r/plain") == 0);
  // What it was told is the file as a reader finds it: its identity, and its value.
  auto st = fs->IdentityStat("r/big.json");
  REQUIRE(st.ok());
  CHECK(SameFileState(told["r/big.json"].first, *st));
  REQUIRE(told["r/big.json"].second != nullptr);
  CHECK(*told["r/big.json"].second == big);
  auto bytes = ReadWholeFile(*fs, "r/big.json");
  REQUIRE(bytes.ok());
  CHECK(*bytes == big_text);
}

TEST_CASE("Committer: a Put's written report gets the identity of the file put, small or linked from its upload") {
  // A folder's adoption table is kept decoded from what was staged (repo/hand_edits/adopted_docs.h):
  // the memo needs the identity the file has once applied, whether its bytes went into
  // the log (small) or into an upload file linked into place (large).
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  std::map<std::string, FileStat> told;
  CommitterOptions options;
  options.inline_limit = 1024;
  Committer c(*fs, RepoLayout("r"), options);
  REQUIRE(c.Open().ok());
  auto report = [&](const std::string& path) {
    return [&told, path](const FileStat& st) { told[path] = st; };
  };
  REQUIRE(c.Run([&](ChangeSet& change) {
             change.Put("r/small", "a few bytes", report("r/small"));
             change.Put("r/large", std::string(4096, 'l'), report("r/large"));
             change.Put("r/quiet", "no report");
             return OkStatus();
           }).ok());
  REQUIRE(told.size() == 2);
  for (const char* path : {"r/small", "r/large"}) {
    CAPTURE(path);
    auto st = fs->IdentityStat(path);
    REQUIRE(st.ok());
    CHECK(SameFileState(told[path], *st));
  }
  CHECK(told["r/large"].size == 4096);
  // Nothing for a change whose staging fails: it is never applied.
  told.clear();
  CHECK_FALSE(c.Run([&](ChangeSet& change) {
                 change.Put("r/never", "bytes", report("r/never"));
                 return StorageError("refused");
               }).ok());
  CHECK(told.empty());
}

TEST_CASE("Committer: a directory a change in flight only makes is no conflict below it; one it renames is") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  REQUIRE(fs->MakeDir("r/d").ok());
  // The first change's apply is held until released, so that it stays in flight.
  HeldApply held("r/idx/a/1.json");
  Committer c(*fs, RepoLayout("r"), held.Options());
  REQUIRE(c.Open().ok());
  std::thread first([&] {
    CHECK(c.Run([](ChangeSet& change) {
             change.MakeDir("r/idx");
             change.MakeDir("r/idx/a");
             change.PutJson("r/idx/a/1.json", Json{{"n", 1}});
             change.Rename("r/d", "r/e", Guard::None());
             return OkStatus();
           }).ok());
  });
  held.WaitHeld();
  // The first stays in flight for 100 ms more; a second change is staged meanwhile.
  std::thread releaser = held.ReleaseAfter(100);
  std::vector<bool> below_made, below_renamed;
  REQUIRE(c.Run([&](ChangeSet& change) {
             // Below the index directory the first makes: no conflict.
             below_made.push_back(Committer::CheckConflict("r/idx/b/2.json", false));
             // Below the directory it renames: a conflict, staged again once it is applied.
             below_renamed.push_back(Committer::CheckConflict("r/d/x.json", false));
             change.PutJson("r/idx-b.json", Json{{"n", 2}});
             return OkStatus();
           }).ok());
  releaser.join();
  first.join();
  CHECK(below_made == std::vector<bool>{false, false});
  CHECK(below_renamed == std::vector<bool>{true, false});
}

TEST_CASE("Committer: replaced and removed records lend their inodes to the next files; content never does") {
  folio::testing::TempDir dir;
  auto fs = RepoDir(dir);
  const RepoLayout layout("r");
  CommitterOptions options;
  options.spares.grace = std::chrono::milliseconds(0);
  Committer c(*fs, layout, options);
  REQUIRE(c.Open().ok());
  std::set<uint64_t> inodes;
  for (int i = 0; i < 20; ++i) {
    // A record rewritten (its old inode kept), one made and removed, and content.
    const std::string bytes(static_cast<size_t>(100 + (i * 37) % 200), static_cast<char>('a' + i % 26));
    REQUIRE(c.Run([&](ChangeSet& change) {
                change.Put("r/.folio/series.json", bytes);
                change.Put("r/.folio/pwc.json", "{\"i\":" + std::to_string(i) + "}");
                change.Put("r/visible.txt", "content " + std::to_string(i));
                return OkStatus();
              }).ok());
    REQUIRE(c.Run([&](ChangeSet& change) {
                change.Remove("r/.folio/pwc.json");
                return OkStatus();
              }).ok());
    CHECK(*ReadWholeFile(*fs, "r/.folio/series.json") == bytes);
    CHECK(*ReadWholeFile(*fs, "r/visible.txt") == "content " + std::to_string(i));
    CHECK_FALSE(Exists(*fs, "r/.folio/pwc.json"));
    inodes.insert(fs->Stat("r/.folio/series.json")->inode);
  }
  const CommitterStats stats = c.stats();
  // Each round after the first retires two records (series.json replaced, pwc.json
  // removed) and puts both in spares; the first only retires pwc.json. Content
  // (visible.txt) is freed when replaced, as before.
  CHECK(stats.spares_retired == 39);
  CHECK(stats.spares_reused == 38);
  CHECK(inodes.size() <= 3);  // series.json cycles through the same few inodes
  // The spares hold records' old bytes only, never content.
  auto spares = fs->List(layout.SpareDir());
  REQUIRE(spares.ok());
  CHECK(!spares->empty());
  for (const DirEntry& e : *spares) {
    auto bytes = ReadWholeFile(*fs, layout.SpareDir() + "/" + e.name);
    REQUIRE(bytes.ok());
    CHECK(bytes->find("content") == std::string::npos);
  }
}

}  // namespace folio::storage
