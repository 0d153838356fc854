// ApplyChangeSet: how a record reaches the files (docs/STORAGE.md §8.2). What an import
// or adoption does most (new series directories, each with its version record, content
// link and series.json, and an id index entry) is walked through a power loss at every
// step: the replay recovery makes then ends where one clean application ends.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <thread>

#include "storage/change_set.h"
#include "storage/commit_log.h"
#include "storage/crc32.h"
#include "storage/json_file.h"
#include "storage/json_text.h"
#include "storage/layout.h"
#include "storage/mem_fs.h"
#include "support/faulty_fs.h"
#include "support/fs_worlds.h"

using namespace folio;
using folio::storage::ChangeSet;
using folio::storage::DumpTree;
using folio::storage::Guard;
using folio::storage::Json;
using folio::storage::MemFs;
using folio::storage::PowerLoss;
using folio::testing::FaultyFs;
using folio::testing::Get;
using folio::testing::Put;

namespace {

// A MemFs that remembers the target of every rename.
class RenameLog : public MemFs {
 public:
  Status Rename(const std::string& from, const std::string& to) override {
    renamed.push_back(to);
    return MemFs::Rename(from, to);
  }
  std::vector<std::string> renamed;
};

// A folder "r/f" holding `names` (made by hand, all durable), and the index shard "ab"
// already there.
void MakeFolder(MemFs& fs, const std::vector<std::string>& names) {
  for (const char* dir : {"r", "r/f", "r/.folio", "r/.folio/index", "r/.folio/index/ab"}) REQUIRE(fs.MakeDir(dir).ok());
  for (const std::string& n : names) Put(fs, "r/f/" + n, "bytes of " + n);
  REQUIRE(fs.SyncAll().ok());
}

// What an adoption of the files `names` of "r/f" stages (repo/hand_edits/adopter.cc): the folder's
// docs directory, then per file its series directory, version 1.0 linked to the file,
// its version record, its series record stamped with the file, and an index entry
// (document i in shard "ab" when i is even, in a new shard "c<i>" otherwise).
ChangeSet ImportLike(Fs& fs, const std::vector<std::string>& names) {
  ChangeSet change;
  change.MakeDir("r/f/.folio");
  change.MakeDir("r/f/.folio/docs");
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    const std::string dir = "r/f/.folio/docs/" + n;
    auto st = fs.Stat("r/f/" + n);
    REQUIRE(st.ok());
    change.MakeDir(dir);
    change.Link(dir + "/1.0.content", "r/f/" + n, Guard::Inode(*st));
    change.PutJson(dir + "/1.0.json", Json{{"label", "1.0"}, {"name", n}});
    change.PutJsonStamped(dir + "/series.json", Json{{"seriesId", "d" + std::to_string(i)}}, "r/f/" + n);
    const std::string shard = i % 2 == 0 ? "ab" : "c" + std::to_string(i);
    change.MakeDir("r/.folio/index");
    change.MakeDir("r/.folio/index/" + shard);
    change.PutJson("r/.folio/index/" + shard + "/d" + std::to_string(i) + ".json", Json{{"path", "f/" + n}});
  }
  return change;
}

// The tree without temp files (the committer's recovery removes those beside the targets
// of a record it applies again).
std::string TreeWithoutTemps(Fs& fs) {
  std::istringstream in(DumpTree(fs));
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find(".folio-tmp") == std::string::npos) out += line + "\n";
  }
  return out;
}

const std::vector<std::string> kNames = {"a.txt", "b.txt", "c.txt"};

}  // namespace

TEST_CASE("ApplyChangeSet: files put into a directory the change creates are written in place, the last by a rename") {
  RenameLog fs;
  MakeFolder(fs, kNames);
  const ChangeSet change = ImportLike(fs, kNames);
  REQUIRE(storage::ApplyChangeSet(fs, change, {}, nullptr).ok());
  // Version records in place; each series.json (the last put into its new directory:
  // what a reader finds the document by) renamed into place whole; the index entry of
  // the shard that existed renamed, of a new shard (its only file) renamed too; links
  // made directly.
  CHECK(fs.renamed == std::vector<std::string>{"r/f/.folio/docs/a.txt/series.json", "r/.folio/index/ab/d0.json",
                                               "r/f/.folio/docs/b.txt/series.json", "r/.folio/index/c1/d1.json",
                                               "r/f/.folio/docs/c.txt/series.json", "r/.folio/index/ab/d2.json"});
  CHECK(Get(fs, "r/f/.folio/docs/b.txt/1.0.content") == "bytes of b.txt");
  CHECK(Get(fs, "r/f/.folio/docs/b.txt/1.0.json").find("\"label\": \"1.0\"") != std::string::npos);
  auto series = fs.Stat("r/f/b.txt");
  REQUIRE(series.ok());
  CHECK(Get(fs, "r/f/.folio/docs/b.txt/series.json").find("\"inode\": " + std::to_string(series->inode)) !=
        std::string::npos);
  const std::string once = DumpTree(fs);
  CHECK(once.find(".folio-tmp") == std::string::npos);

  // Applied again (recovery): every directory exists, nothing is new, every put and
  // link goes by a rename, and the tree is the same (but for the temp names of links
  // renamed onto themselves, which the committer's recovery removes).
  fs.renamed.clear();
  REQUIRE(storage::ApplyChangeSet(fs, change, {}, nullptr).ok());
  CHECK(fs.renamed.size() == 12);
  CHECK(TreeWithoutTemps(fs) == once);
}

TEST_CASE("ApplyChangeSet: LinkNew links at once where nothing is, and replaces what is there after all") {
  RenameLog fs;
  for (const char* dir : {"r", "r/d"}) REQUIRE(fs.MakeDir(dir).ok());
  Put(fs, "r/d/1.0.content", "version");
  Put(fs, "r/d/other", "other");
  const uint64_t inode = fs.Stat("r/d/1.0.content")->inode;
  ChangeSet change;
  change.LinkNew("r/d/pwc.content", "r/d/1.0.content", Guard::None());
  REQUIRE(storage::ApplyChangeSet(fs, change, {}, nullptr).ok());
  CHECK(fs.renamed.empty());  // one link, nothing renamed
  CHECK(fs.Stat("r/d/pwc.content")->inode == inode);

  // Something there after all (a leftover, or the same change applied again): the link
  // goes beside it and is renamed over it, as Link does.
  ChangeSet over;
  over.LinkNew("r/d/other", "r/d/1.0.content", Guard::None());
  REQUIRE(storage::ApplyChangeSet(fs, over, {}, nullptr).ok());
  CHECK(fs.renamed == std::vector<std::string>{"r/d/other"});
  CHECK(fs.Stat("r/d/other")->inode == inode);
  CHECK(Get(fs, "r/d/other") == "version");
  fs.renamed.clear();
  REQUIRE(storage::ApplyChangeSet(fs, change, {}, nullptr).ok());
  CHECK(fs.Stat("r/d/pwc.content")->inode == inode);
  CHECK(DumpTree(fs).find(".folio-tmp") == std::string::npos);
}

TEST_CASE("ApplyChangeSet: a power loss at every step of an import-like change; the replay ends as one clean apply") {
  MemFs fixture;
  MakeFolder(fixture, kNames);
  const ChangeSet change = ImportLike(fixture, kNames);
  MemFs clean = fixture.Clone();
  REQUIRE(storage::ApplyChangeSet(clean, change, {}, nullptr).ok());
  const std::string expected = TreeWithoutTemps(clean);
  for (PowerLoss model : {PowerLoss::kDropUnsynced, PowerLoss::kKeepPrefix}) {
    CAPTURE(static_cast<int>(model));
    int steps = 0;
    for (int step = 0;; ++step) {
      bool fired = false;
      for (size_t keep = 0;; ++keep) {
        CAPTURE(step);
        CAPTURE(keep);
        MemFs disk = fixture.Clone();
        FaultyFs faulty(disk, FaultyFs::CutPowerAt(step, model, keep));
        const Status s = storage::ApplyChangeSet(faulty, change, {}, nullptr);
        fired = faulty.fired();
        if (!fired) {
          REQUIRE_MESSAGE(s.ok(), s.ToString());
          break;
        }
        CHECK(s.kind() == ErrorKind::kStorage);
        // Recovery applies the record (durable in the log) again, perhaps more than once.
        REQUIRE_MESSAGE(storage::ApplyChangeSet(disk, change, {}, nullptr).ok(), DumpTree(disk));
        CHECK_MESSAGE(TreeWithoutTemps(disk) == expected, DumpTree(disk));
        REQUIRE(storage::ApplyChangeSet(disk, change, {}, nullptr).ok());
        CHECK(TreeWithoutTemps(disk) == expected);
        if (model == PowerLoss::kDropUnsynced || keep >= faulty.ops_at_cut()) break;
      }
      if (!fired) break;
      ++steps;
      REQUIRE(step < 400);
    }
    CHECK(steps > 30);  // every action of every document was cut
  }
}

TEST_CASE_TEMPLATE("ApplyChangeSet: changes of disjoint paths applied from several threads at once", W,
                   folio::testing::PosixWorld, folio::testing::MemWorld) {
  W w;
  Fs& fs = w.fs();
  constexpr int kThreads = 8;
  REQUIRE(fs.MakeDir("r").ok());
  std::vector<ChangeSet> changes(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    const std::string base = "r/t" + std::to_string(t);
    REQUIRE(fs.MakeDir(base).ok());
    Put(fs, base + "/seed", "seed " + std::to_string(t));
    ChangeSet& c = changes[t];
    for (int i = 0; i < 20; ++i) {
      const std::string dir = base + "/d" + std::to_string(i);
      c.MakeDir(dir);
      c.Put(dir + "/one", "one " + std::to_string(i));
      c.Link(dir + "/seed", base + "/seed", Guard::None());
      c.Put(dir + "/two", "two " + std::to_string(t));
    }
    c.Rename(base + "/d0", base + "/moved", Guard::None());
    c.Remove(base + "/d1");
    c.Put(base + "/moved/three", "three");
  }
  std::vector<Status> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { results[t] = storage::ApplyChangeSet(fs, changes[t], {}, nullptr); });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    REQUIRE_MESSAGE(results[t].ok(), results[t].ToString());
    const std::string base = "r/t" + std::to_string(t);
    CHECK(Get(fs, base + "/d7/one") == "one 7");
    CHECK(Get(fs, base + "/d7/two") == "two " + std::to_string(t));
    CHECK(Get(fs, base + "/d7/seed") == "seed " + std::to_string(t));
    CHECK(Get(fs, base + "/moved/one") == "one 0");
    CHECK(Get(fs, base + "/moved/three") == "three");
    CHECK_FALSE(Exists(fs, base + "/d0"));
    CHECK_FALSE(Exists(fs, base + "/d1"));
    auto list = fs.List(base);
    REQUIRE(list.ok());
    CHECK(list->size() == 20);  // seed, moved, d2..d19: no temp file left
  }
}

namespace {

// Equal values of equal JSON types all the way down (nlohmann's == takes 1 and 1u, or
// 1 and 1.0, as equal; a reader's code may not).
bool SameJson(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
      if (ia.key() != ib.key() || !SameJson(ia.value(), ib.value())) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!SameJson(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

TEST_CASE("Redo record: every kind of action and event is written as JSON text and reads back as it was") {
  ChangeSet change;
  change.Put("r/a \"quoted\".txt", "line 1\nline 2\t\x01 caf\xc3\xa9 \xe2\x82\xac");
  change.Put("r/b.bin", std::string("\xff\xfe\x00\x80 binary", 12));
  change.PutJsonStamped("r/.folio/docs/a/series.json", Json{{"seriesId", "d1"}, {"n", -3}}, "r/a.txt");
  change.MakeDir("r/new dir");
  FileStat st;
  st.device = 2049;
  st.inode = 18446744073709551615ULL;
  change.Link("r/.folio/docs/a/1.0.content", "r/a.txt", Guard::Inode(st));
  change.Rename("r/old", "r/new", Guard::RecordId(".folio/folder.json", "id", "f\\1"));
  change.Remove("r/gone");
  storage::ChangeEvent e;
  e.token = 41;
  e.time_ms = -5;  // before 1970: written as it is
  e.type = "created";
  e.object_id = "d1;1.0";
  e.base_type_id = "cmis:document";
  e.type_id = "my:type \"x\"";
  change.Record(e);
  e.token = 42;
  e.time_ms = 1764000000000;
  e.type = "deleted";
  change.Record(e);

  const std::string frame = storage::RecordFrame(3, 7, change);
  REQUIRE(frame.size() > 10);
  CHECK(frame.back() == '\n');
  CHECK(frame[8] == ' ');
  const std::string text = frame.substr(9, frame.size() - 10);
  char crc[9];
  std::snprintf(crc, sizeof crc, "%08x", storage::Crc32(text));
  CHECK(frame.substr(0, 8) == crc);
  CHECK(text.find('\n') == std::string::npos);
  const Json parsed = Json::parse(text);
  // The text is compact JSON in nlohmann's own spelling (what the log held before it
  // was written directly), members in the documented order.
  std::string again;
  storage::AppendJson(again, parsed);
  CHECK(again == text);
  CHECK(text.rfind("{\"epoch\":3,\"lsn\":7,\"actions\":[{\"op\":\"put\",\"path\":", 0) == 0);
  CHECK(parsed["actions"][1].contains("base64"));
  CHECK(parsed["events"][0]["time"] == -5);

  auto decoded = storage::DecodeChangeSet(parsed, "test");
  REQUIRE(decoded.ok());
  const auto& in = change.actions();
  const auto& out = decoded->actions();
  REQUIRE(out.size() == in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    CAPTURE(i);
    CHECK(out[i].op == in[i].op);
    CHECK(out[i].path == in[i].path);
    CHECK(out[i].source == in[i].source);
    CHECK(out[i].bytes == in[i].bytes);
    CHECK(out[i].stamp == in[i].stamp);
    CHECK(out[i].guard.kind == in[i].guard.kind);
    CHECK(out[i].guard.device == in[i].guard.device);
    CHECK(out[i].guard.inode == in[i].guard.inode);
    CHECK(out[i].guard.file == in[i].guard.file);
    CHECK(out[i].guard.field == in[i].guard.field);
    CHECK(out[i].guard.value == in[i].guard.value);
    CHECK_FALSE(out[i].json);  // never logged
    CHECK(out[i].value == nullptr);
  }
  REQUIRE(decoded->events().size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const auto& a = change.events()[i];
    const auto& b = decoded->events()[i];
    CHECK(b.token == a.token);
    CHECK(b.time_ms == a.time_ms);
    CHECK(b.type == a.type);
    CHECK(b.object_id == a.object_id);
    CHECK(b.base_type_id == a.base_type_id);
    CHECK(b.type_id == a.type_id);
  }
}

TEST_CASE("ApplyChangeSet: the JSON value handed to readers is the one they would parse from the file") {
  MemFs fs;
  for (const char* dir : {"r", "r/.folio"}) REQUIRE(fs.MakeDir(dir).ok());
  Put(fs, "r/a.txt", "visible bytes");
  const Json plain = {{"label", "1.1"},
                      {"major", false},
                      {"count", 3},
                      {"negative", -7},
                      {"big", 18446744073709551615ULL},
                      {"ratio", 2.0},
                      {"nothing", nullptr},
                      {"list", Json::array({1, "caf\xc3\xa9", Json::object({{"deep", 5}})})},
                      {"emptyObject", Json::object()}};
  Json broken = plain;
  broken["name"] = "bad \xff utf-8";  // written replaced: a reader gets U+FFFD
  ChangeSet change;
  change.PutJson("r/.folio/plain.json", plain);
  change.PutJson("r/.folio/broken.json", broken);
  change.PutJsonStamped("r/.folio/series.json", plain, "r/a.txt");
  CHECK(change.actions()[0].value != nullptr);
  CHECK(change.actions()[1].value == nullptr);  // the apply parses this one

  std::map<std::string, std::shared_ptr<const Json>> reported;
  storage::ApplyOptions options;
  options.on_json_written = [&](const std::string& path, const FileStat&, std::shared_ptr<const Json> value) {
    reported[path] = std::move(value);
  };
  REQUIRE(storage::ApplyChangeSet(fs, change, options, nullptr).ok());
  REQUIRE(reported.size() == 3);
  for (const auto& entry : reported) {
    // Not a structured binding: clang 14 cannot capture one (CAPTURE is a lambda).
    const std::string& path = entry.first;
    const std::shared_ptr<const Json>& value = entry.second;
    CAPTURE(path);
    REQUIRE(value != nullptr);
    auto read = storage::ReadJsonFile(fs, path);
    REQUIRE(read.ok());
    CHECK(SameJson(*value, *read));
  }
  CHECK(reported["r/.folio/plain.json"]->at("count").is_number_unsigned());
  CHECK(reported["r/.folio/series.json"]->contains("file"));
  CHECK(reported["r/.folio/broken.json"]->at("name") == "bad \xef\xbf\xbd utf-8");
}
