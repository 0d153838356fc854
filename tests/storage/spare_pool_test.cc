// storage::SparePool (src/storage/spare_pool.h): replaced and removed records keep
// their inodes for the next files, after a grace; nothing else is ever written over:
// not a file with another name, not one retired too lately, not content.
#include <doctest/doctest.h>

#include <functional>
#include <thread>

#include "storage/mem_fs.h"
#include "storage/spare_pool.h"
#include "support/fs_worlds.h"

namespace folio::storage {
namespace {

using folio::testing::Get;
using folio::testing::Put;

constexpr char kSpares[] = "r/.folio/spare";

SparePoolOptions NoGrace() {
  SparePoolOptions o;
  o.grace = std::chrono::milliseconds(0);
  return o;
}

uint64_t InodeOf(Fs& fs, const std::string& path) {
  auto st = fs.Stat(path);
  REQUIRE_MESSAGE(st.ok(), st.status().ToString());
  return st->inode;
}

// Retires `path` as RemoveExisting does.
bool Retire(SparePool& pool, Fs& fs, const std::string& path) {
  auto st = fs.Stat(path);
  REQUIRE(st.ok());
  auto kept = pool.Retire(fs, path, *st);
  REQUIRE_MESSAGE(kept.ok(), kept.status().ToString());
  return *kept;
}

bool PutIn(SparePool& pool, Fs& fs, const std::string& path, const std::string& bytes, bool keep_old = true) {
  auto put = pool.Put(fs, path, bytes, keep_old);
  REQUIRE_MESSAGE(put.ok(), put.status().ToString());
  return *put;
}

MemFs Repo() {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  REQUIRE(fs.MakeDir("r/.folio").ok());
  REQUIRE(fs.MakeDir("r/.folio/docs").ok());
  return fs;
}

}  // namespace

TEST_CASE("SparePool: a removed record's inode holds the next file put, and a replaced one becomes a spare") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/pwc.json", "{\"label\":\"pwc\"}\n");
  Put(fs, "r/.folio/docs/series.json", "{\"versions\":[\"1.0\"]}\n");
  const uint64_t pwc = InodeOf(fs, "r/.folio/docs/pwc.json");
  const uint64_t series = InodeOf(fs, "r/.folio/docs/series.json");

  REQUIRE(Retire(pool, fs, "r/.folio/docs/pwc.json"));
  CHECK_FALSE(Exists(fs, "r/.folio/docs/pwc.json"));
  CHECK(pool.size() == 1);

  // Over an existing file: the spare (pwc's inode) is swapped in, the old series.json
  // becomes the spare.
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/series.json", "{\"versions\":[\"1.0\",\"1.1\"]}\n"));
  CHECK(Get(fs, "r/.folio/docs/series.json") == "{\"versions\":[\"1.0\",\"1.1\"]}\n");
  CHECK(InodeOf(fs, "r/.folio/docs/series.json") == pwc);
  CHECK(pool.size() == 1);

  // A new file: the spare (the old series.json's inode) moves there, cut to its size.
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/1.1.json", "{}\n"));
  CHECK(Get(fs, "r/.folio/docs/1.1.json") == "{}\n");
  CHECK(InodeOf(fs, "r/.folio/docs/1.1.json") == series);
  CHECK(pool.size() == 0);
  CHECK(pool.reused() == 2);
  CHECK(pool.retired() == 2);

  // No spare left, and what the put replaces is not to be kept: the caller writes a
  // new file.
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/1.2.json", "{}\n", /*keep_old=*/false));
  CHECK_FALSE(Exists(fs, "r/.folio/docs/1.2.json"));
}

TEST_CASE("SparePool: with no spare ready, a replaced record is still kept as one") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/series.json", "{\"versions\":[\"1.0\"]}\n");
  const uint64_t before = InodeOf(fs, "r/.folio/docs/series.json");
  // A new file, made beside it, swapped in; the old one moved into the pool (its
  // directory made now).
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/series.json", "{\"versions\":[\"1.0\",\"1.1\"]}\n"));
  CHECK(Get(fs, "r/.folio/docs/series.json") == "{\"versions\":[\"1.0\",\"1.1\"]}\n");
  CHECK(InodeOf(fs, "r/.folio/docs/series.json") != before);
  CHECK(pool.size() == 1);
  CHECK(pool.reused() == 0);
  CHECK(pool.made() == 1);
  auto spares = fs.List(kSpares);
  REQUIRE(spares.ok());
  REQUIRE(spares->size() == 1);
  CHECK(Get(fs, std::string(kSpares) + "/" + (*spares)[0].name) == "{\"versions\":[\"1.0\"]}\n");
  // It serves the next put.
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/1.1.json", "{}\n"));
  CHECK(InodeOf(fs, "r/.folio/docs/1.1.json") == before);
  CHECK(Get(fs, "r/.folio/docs/1.1.json") == "{}\n");
  CHECK(pool.reused() == 1);
  CHECK(pool.size() == 0);
  // A put of a new name with no spare ready: a new file, nothing kept.
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/1.2.json", "[]\n"));
  CHECK(Get(fs, "r/.folio/docs/1.2.json") == "[]\n");
  CHECK(pool.size() == 0);
  CHECK(pool.made() == 2);
  CHECK(fs.List(kSpares)->empty());
}

TEST_CASE("SparePool: a full pool makes no new spare") {
  MemFs fs = Repo();
  SparePoolOptions options = NoGrace();
  options.capacity = 0;
  SparePool pool(kSpares, options);
  Put(fs, "r/.folio/docs/series.json", "{}");
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/series.json", "[]"));
  CHECK(Get(fs, "r/.folio/docs/series.json") == "{}");
  CHECK_FALSE(Exists(fs, kSpares));
}

TEST_CASE("SparePool: a replaced file that is not a record is freed, not kept") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "A");
  Put(fs, "r/.folio/docs/pwc.content", "content");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  REQUIRE(PutIn(pool, fs, "r/.folio/docs/pwc.content", "new content", /*keep_old=*/false));
  CHECK(Get(fs, "r/.folio/docs/pwc.content") == "new content");
  CHECK(pool.size() == 0);
  auto left = fs.List(kSpares);
  REQUIRE(left.ok());
  CHECK(left->empty());
}

TEST_CASE("SparePool: which files may become spares") {
  CHECK(SparePool::MayRetire("r/.folio/docs/x/series.json", UINT64_MAX));
  CHECK(SparePool::MayRetire("r/f/.folio/docs/x/1.0.json", 100));
  CHECK(SparePool::MayRetire(".folio/folio.json", 10));
  CHECK(SparePool::MayRetire("r/.folio/checkedout/d123", 18));
  CHECK(SparePool::MayRetire("r/.folio/typed/my:type/d123", 0));
  // Content, and anything outside .folio, never: a reader may stream it for long.
  CHECK_FALSE(SparePool::MayRetire("r/.folio/docs/x/1.0.content", 100));
  CHECK_FALSE(SparePool::MayRetire("r/.folio/docs/x/pwc.content", UINT64_MAX));
  CHECK_FALSE(SparePool::MayRetire("r/data.json", 100));
  CHECK_FALSE(SparePool::MayRetire("r/empty.txt", 0));
  CHECK_FALSE(SparePool::MayRetire("r/.folio/folders/sub", 18));
  CHECK_FALSE(SparePool::MayRetire("r/.folio/uploads/u123", 100));
}

TEST_CASE("SparePool: a spare waits out its grace") {
  MemFs fs = Repo();
  SparePoolOptions options;
  options.grace = std::chrono::milliseconds(150);
  SparePool pool(kSpares, options);
  Put(fs, "r/.folio/docs/a.json", "A");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/b.json", "B", /*keep_old=*/false));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(PutIn(pool, fs, "r/.folio/docs/b.json", "B", /*keep_old=*/false));
  CHECK(pool.reused() == 1);
  CHECK(Get(fs, "r/.folio/docs/b.json") == "B");
}

TEST_CASE("SparePool: a spare with another name is never written over") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "precious");
  Put(fs, "r/.folio/docs/b.json", "B");
  // A file with two names is not taken at all.
  REQUIRE(fs.Link("r/.folio/docs/b.json", "r/.folio/docs/b2.json").ok());
  CHECK_FALSE(Retire(pool, fs, "r/.folio/docs/b.json"));
  CHECK(Get(fs, "r/.folio/docs/b.json") == "B");
  // One that got another name while it was a spare (a link made by hand, a power loss)
  // is dropped from the pool, its bytes kept.
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  auto spares = fs.List(kSpares);
  REQUIRE(spares.ok());
  REQUIRE(spares->size() == 1);
  REQUIRE(fs.Link(std::string(kSpares) + "/" + (*spares)[0].name, "r/keep").ok());
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/c.json", "C", /*keep_old=*/false));
  CHECK(Get(fs, "r/keep") == "precious");
  CHECK_FALSE(Exists(fs, "r/.folio/docs/c.json"));
  CHECK(pool.size() == 0);
}

TEST_CASE("SparePool: something else put among the spares by hand is dropped, and the pool goes on") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "A");
  Put(fs, "r/.folio/docs/b.json", "B");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  REQUIRE(Retire(pool, fs, "r/.folio/docs/b.json"));
  // The first spare becomes a special file (a FIFO made by hand under its name).
  auto spares = fs.List(kSpares);
  REQUIRE(spares.ok());
  REQUIRE(spares->size() == 2);
  std::string first = (*spares)[0].name < (*spares)[1].name ? (*spares)[0].name : (*spares)[1].name;
  const std::string at = std::string(kSpares) + "/" + first;
  REQUIRE(fs.Remove(at).ok());
  REQUIRE(fs.MakeSpecialFileForTest(at).ok());
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/c.json", "C", /*keep_old=*/false));
  CHECK_FALSE(Exists(fs, at));
  CHECK(PutIn(pool, fs, "r/.folio/docs/c.json", "C"));  // the next spare still serves
  CHECK(Get(fs, "r/.folio/docs/c.json") == "C");
}

TEST_CASE("SparePool: a put whose directory is gone changes nothing and keeps the spare") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "A");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/gone/b.json", "B"));
  CHECK(pool.size() == 1);
  CHECK(PutIn(pool, fs, "r/.folio/docs/b.json", "B"));
}

TEST_CASE("SparePool: a directory where a record should be is never swapped away") {
  MemFs fs = Repo();
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "A");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  REQUIRE(fs.MakeDir("r/.folio/docs/series.json").ok());
  Put(fs, "r/.folio/docs/series.json/inside", "kept");
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/series.json", "{}"));
  CHECK(Get(fs, "r/.folio/docs/series.json/inside") == "kept");
  CHECK(pool.size() == 1);
}

TEST_CASE("SparePool: the pool is bounded; Trim and Clear remove spares") {
  MemFs fs = Repo();
  SparePoolOptions options = NoGrace();
  options.capacity = 3;
  SparePool pool(kSpares, options);
  for (int i = 0; i < 5; ++i) {
    const std::string path = "r/.folio/docs/" + std::to_string(i) + ".json";
    Put(fs, path, "x");
    CHECK(Retire(pool, fs, path) == (i < 3));
  }
  CHECK(pool.size() == 3);
  pool.Trim(fs, 1);
  CHECK(pool.size() == 1);
  CHECK(fs.List(kSpares)->size() == 1);
  pool.Clear(fs);
  CHECK(pool.size() == 0);
  CHECK_FALSE(Exists(fs, kSpares));
}

TEST_CASE("SparePool: spares an earlier process left serve their grace, then are used") {
  MemFs fs = Repo();
  {
    SparePool first(kSpares, NoGrace());
    Put(fs, "r/.folio/docs/a.json", "A");
    REQUIRE(Retire(first, fs, "r/.folio/docs/a.json"));
  }
  REQUIRE(fs.MakeDir(std::string(kSpares) + "/not-a-spare").ok());
  SparePoolOptions options;
  options.grace = std::chrono::milliseconds(100);
  SparePool second(kSpares, options);
  CHECK_FALSE(PutIn(second, fs, "r/.folio/docs/b.json", "B", /*keep_old=*/false));  // found now: not yet
  CHECK(second.size() == 1);
  CHECK_FALSE(Exists(fs, std::string(kSpares) + "/not-a-spare"));
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  CHECK(PutIn(second, fs, "r/.folio/docs/b.json", "B"));
}

namespace {

// An Fs without Exchange or OpenToRewrite (the defaults), over a MemFs.
class PlainFs : public MemFs {
 public:
  explicit PlainFs(MemFs fs) : MemFs(std::move(fs)) {}
  Result<std::unique_ptr<WritableFile>> OpenToRewrite(const std::string& p) override {
    return Fs::OpenToRewrite(p);
  }
  Status Exchange(const std::string& a, const std::string& b) override { return Fs::Exchange(a, b); }
};

}  // namespace

TEST_CASE("SparePool: a filesystem that cannot swap files turns the pool off") {
  PlainFs fs(Repo());
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/a.json", "A");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/a.json"));
  CHECK_FALSE(PutIn(pool, fs, "r/.folio/docs/b.json", "B"));
  Put(fs, "r/.folio/docs/c.json", "C");
  CHECK_FALSE(Retire(pool, fs, "r/.folio/docs/c.json"));  // off now
  CHECK(Get(fs, "r/.folio/docs/c.json") == "C");
}

namespace {

// A MemFs whose next Open runs `hook` between the open and the first read, as another
// thread could (a record replaced, its inode retired and written over).
class RacingFs : public MemFs {
 public:
  explicit RacingFs(MemFs fs) : MemFs(std::move(fs)) {}
  std::function<void()> hook;

  Result<std::unique_ptr<ReadableFile>> Open(const std::string& p) override {
    FOLIO_ASSIGN_OR_RETURN(auto file, MemFs::Open(p));
    if (hook) {
      auto run = std::move(hook);
      hook = nullptr;
      run();
    }
    return file;
  }
};

}  // namespace

TEST_CASE("SparePool: a reader that opened a record before its inode was reused reads the record again") {
  RacingFs fs(Repo());
  SparePool pool(kSpares, NoGrace());
  Put(fs, "r/.folio/docs/series.json", "{\"doc\":\"A\",\"versions\":[\"1.0\"]}\n");
  Put(fs, "r/.folio/docs/other.json", "{\"doc\":\"B\"}\n");
  Put(fs, "r/.folio/docs/old.json", "{}\n");
  REQUIRE(Retire(pool, fs, "r/.folio/docs/old.json"));
  // The reader opens series.json; meanwhile it is replaced (its inode becomes a spare)
  // and that inode is written over with other.json's next bytes.
  const auto replace_then_reuse = [&](int round) {
    const std::string series = "{\"doc\":\"A\",\"versions\":[\"" + std::to_string(round) + ".0\"]}\n";
    const std::string other = "{\"doc\":\"B\",\"x\":" + std::to_string(round) + "}\n";
    fs.hook = [&pool, &fs, series, other] {
      REQUIRE(PutIn(pool, fs, "r/.folio/docs/series.json", series));
      REQUIRE(PutIn(pool, fs, "r/.folio/docs/other.json", other));
    };
    return std::make_pair(series, other);
  };
  const auto [series1, other1] = replace_then_reuse(1);
  auto read = ReadWholeRecord(fs, "r/.folio/docs/series.json");
  REQUIRE(read.ok());
  CHECK(*read == series1);
  // ReadWholeFile does not check (files appended to, content): it sees the other bytes.
  const auto [series2, other2] = replace_then_reuse(2);
  auto unchecked = ReadWholeFile(fs, "r/.folio/docs/series.json");
  REQUIRE(unchecked.ok());
  CHECK(*unchecked == other2);
}

}  // namespace folio::storage
