// ChangeLogStore (src/storage/change_log_store.h) on MemFs: appends in token order and
// only once, reads from a token, finds the newest token from the end of the log, skips a
// torn line, and retention drops whole segments, marks the log truncated and keeps
// between the limit and 1.25 x the limit. A reader catching up starts where its last read
// ended (the segment's read mark) while the segment is the file it read.
#include <doctest/doctest.h>

#include "storage/change_log_store.h"
#include "storage/json_access.h"
#include "storage/mem_fs.h"

namespace folio::storage {
namespace {

ChangeEvent Ev(uint64_t token) {
  ChangeEvent e;
  e.token = token;
  e.time_ms = 1000 + static_cast<int64_t>(token);
  e.type = "created";
  e.object_id = "f" + std::to_string(token);
  e.base_type_id = "cmis:folder";
  e.type_id = "cmis:folder";
  return e;
}

std::vector<uint64_t> Tokens(const std::vector<ChangeEvent>& events) {
  std::vector<uint64_t> out;
  for (const ChangeEvent& e : events) out.push_back(e.token);
  return out;
}

TEST_CASE("ChangeLogStore: append once, read from a token, newest and oldest token") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes");
  CHECK(*log.LastToken() == 0);
  CHECK(*log.FirstToken() == 0);
  CHECK(log.Read(0, 10)->empty());
  REQUIRE(log.Append({Ev(1), Ev(2), Ev(3)}).ok());
  REQUIRE(log.Append({Ev(2), Ev(3), Ev(4)}).ok());  // a record applied again: 4 only is new
  CHECK(Tokens(*log.Read(0, 10)) == std::vector<uint64_t>{1, 2, 3, 4});
  CHECK(Tokens(*log.Read(3, 10)) == std::vector<uint64_t>{3, 4});
  CHECK(Tokens(*log.Read(2, 2)) == std::vector<uint64_t>{2, 3});
  CHECK(*log.LastToken() == 4);
  CHECK(*log.FirstToken() == 1);
  CHECK(*log.Truncated() == false);
  // Another process's store sees the same (nothing cached is trusted over the disk).
  ChangeLogStore other(fs, "r/changes");
  REQUIRE(other.Append({Ev(5)}).ok());
  REQUIRE(log.Append({Ev(6)}).ok());
  CHECK(Tokens(*other.Read(0, 10)) == std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("ChangeLogStore: a torn last line is skipped, and the next append starts on a new line") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  {
    ChangeLogStore log(fs, "r/changes");
    REQUIRE(log.Append({Ev(1), Ev(2)}).ok());
  }
  auto entries = fs.List("r/changes");
  REQUIRE(entries.ok());
  REQUIRE(entries->size() == 1);
  const std::string segment = "r/changes/" + (*entries)[0].name;
  {
    auto f = fs.OpenRandomAccess(segment);
    REQUIRE(f.ok());
    const uint64_t size = *(*f)->Size();
    REQUIRE((*f)->WriteAt(size, R"({"token":3,"time":1,"ty)").ok());  // a crash mid-append
  }
  ChangeLogStore log(fs, "r/changes");
  CHECK(*log.LastToken() == 2);
  CHECK(Tokens(*log.Read(0, 10)) == std::vector<uint64_t>{1, 2});
  REQUIRE(log.Append({Ev(3)}).ok());
  CHECK(Tokens(*log.Read(0, 10)) == std::vector<uint64_t>{1, 2, 3});
  CHECK(*log.LastToken() == 3);
}

TEST_CASE("ChangeLogStore: retention drops whole segments and keeps between the limit and 1.25 x") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes", ChangeLogLimits{.max_events = 20});  // segments of 5
  for (uint64_t t = 1; t <= 100; ++t) {
    REQUIRE(log.Append({Ev(t)}).ok());
    auto all = log.Read(0, 1000);
    REQUIRE(all.ok());
    CHECK(all->size() <= 25);
    if (t >= 20) CHECK(all->size() >= 20);
    CHECK(all->back().token == t);
    CHECK(*log.FirstToken() == all->front().token);
  }
  CHECK(*log.Truncated() == true);
  CHECK(*log.LastToken() == 100);
  auto entries = fs.List("r/changes");
  REQUIRE(entries.ok());
  CHECK(entries->size() <= 6);  // 5 segments and the marker
}

TEST_CASE("ChangeLogStore: the newest token is found from the end of a large segment") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes");
  std::vector<ChangeEvent> many;
  for (uint64_t t = 1; t <= 3000; ++t) many.push_back(Ev(t));  // more than 64 KiB of lines
  REQUIRE(log.Append(many).ok());
  CHECK(*log.LastToken() == 3000);
  CHECK(Tokens(*log.Read(2999, 10)) == std::vector<uint64_t>{2999, 3000});
}

std::string OnlySegment(MemFs& fs) {
  auto entries = fs.List("r/changes");
  REQUIRE(entries.ok());
  REQUIRE(entries->size() == 1);
  return "r/changes/" + (*entries)[0].name;
}

std::string Line(const ChangeEvent& e) {
  std::string out;
  e.AppendJson(out);
  return out + '\n';
}

// The lines of events first..last, each of the object `prefix` + its token.
std::string Lines(uint64_t first, uint64_t last, const std::string& prefix) {
  std::string out;
  for (uint64_t t = first; t <= last; ++t) {
    ChangeEvent e = Ev(t);
    e.object_id = prefix + std::to_string(t);
    out += Line(e);
  }
  return out;
}

// Writes `bytes` over the start of the file `path` (created if missing), as a hand edit
// or another process would.
void WriteAtStart(MemFs& fs, const std::string& path, const std::string& bytes) {
  auto f = fs.OpenRandomAccess(path);
  REQUIRE(f.ok());
  REQUIRE((*f)->WriteAt(0, bytes).ok());
}

TEST_CASE("ChangeLogStore: a reader catching up reads on from its last read, and gets every event once") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes");
  std::vector<uint64_t> seen;
  uint64_t next = 1;
  for (uint64_t t = 1; t <= 300; ++t) {
    REQUIRE(log.Append({Ev(t)}).ok());
    if (t % 7 == 0 || t == 300) {
      // Catch up in small batches, as the query index does.
      for (;;) {
        auto batch = log.Read(next, 3);
        REQUIRE(batch.ok());
        if (batch->empty()) break;
        for (const ChangeEvent& e : *batch) seen.push_back(e.token);
        next = batch->back().token + 1;
      }
    }
  }
  std::vector<uint64_t> want;
  for (uint64_t t = 1; t <= 300; ++t) want.push_back(t);
  CHECK(seen == want);
  // A read from an older token (a client paging contentChanges) still sees them all.
  CHECK(Tokens(*log.Read(1, 1000)) == want);
  CHECK(Tokens(*log.Read(299, 10)) == std::vector<uint64_t>{299, 300});
  CHECK(*log.FirstToken() == 1);
}

TEST_CASE("ChangeLogStore: a read from the mark reads no line before it") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes");
  REQUIRE(log.Append({Ev(1), Ev(2), Ev(3)}).ok());
  REQUIRE(Tokens(*log.Read(1, 10)) == std::vector<uint64_t>{1, 2, 3});
  REQUIRE(log.Append({Ev(4)}).ok());
  // Line 1 rewritten in place to an event the mark's order rules out: a read from the mark
  // does not see it (it never reads that line); a read from the start does.
  ChangeEvent odd = Ev(9);
  odd.object_id = "x";  // then padded with a space to the first line's length
  std::string first = Line(Ev(1));
  std::string moved = Line(odd);
  moved.insert(moved.size() - 2, std::string(first.size() - moved.size(), ' '));
  REQUIRE(moved.size() == first.size());
  WriteAtStart(fs, OnlySegment(fs), moved);
  CHECK(Tokens(*log.Read(4, 10)) == std::vector<uint64_t>{4});
  CHECK(Tokens(*log.Read(1, 10)) == std::vector<uint64_t>{9, 2, 3, 4});
}

TEST_CASE("ChangeLogStore: a mark that no longer holds is not trusted: rewritten, shorter or another file") {
  MemFs fs;
  REQUIRE(fs.MakeDir("r").ok());
  ChangeLogStore log(fs, "r/changes");
  REQUIRE(log.Append({Ev(1), Ev(2), Ev(3)}).ok());
  REQUIRE(Tokens(*log.Read(1, 10)) == std::vector<uint64_t>{1, 2, 3});
  const std::string segment = OnlySegment(fs);

  SUBCASE("the same file, its lines rewritten in place") {
    // Events 1-3 of other objects at the same offsets, then 4: the mark's line differs.
    WriteAtStart(fs, segment, Lines(1, 4, "g"));
    auto events = log.Read(4, 10);
    REQUIRE(events.ok());
    REQUIRE(events->size() == 1);
    CHECK(events->front().object_id == "g4");
    CHECK(Tokens(*log.Read(2, 10)) == std::vector<uint64_t>{2, 3, 4});
  }
  SUBCASE("another file of that name, shorter") {
    REQUIRE(fs.Remove(segment).ok());
    WriteAtStart(fs, segment, Line(Ev(1)) + Line(Ev(4)));
    CHECK(Tokens(*log.Read(4, 10)) == std::vector<uint64_t>{4});
    CHECK(Tokens(*log.Read(0, 10)) == std::vector<uint64_t>{1, 4});
  }
  SUBCASE("the same file rewritten with longer lines: the mark's offset falls inside one") {
    WriteAtStart(fs, segment, Lines(1, 6, "object-"));
    CHECK(Tokens(*log.Read(4, 10)) == std::vector<uint64_t>{4, 5, 6});
  }
  SUBCASE("segments dropped by the limit while a reader catches up") {
    ChangeLogStore small(fs, "r/changes", ChangeLogLimits{.max_events = 4});  // segments of 1
    for (uint64_t t = 4; t <= 40; ++t) {
      REQUIRE(small.Append({Ev(t)}).ok());
      CHECK(Tokens(*small.Read(t, 10)) == std::vector<uint64_t>{t});
    }
    auto all = small.Read(0, 100);
    REQUIRE(all.ok());
    CHECK(all->back().token == 40);
    CHECK(all->size() <= 5);
  }
}

}  // namespace
}  // namespace folio::storage
