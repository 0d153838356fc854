// storage::Committer (src/storage/committer.h) with two committers on one repository
// directory, as two processes have (each its own flock): a committer that takes the
// lock again after the other wrote must see the other's changes (its tokens, its
// records), and one that finds nobody wrote keeps what it knew. On the real filesystem:
// the flock between committers is what is tested.
#include <doctest/doctest.h>

#include "storage/committer.h"
#include "support/temp_dir.h"

namespace folio::storage {
namespace {

// Puts `file` in the repository with one "created" event; returns the change's status.
Status PutWithEvent(Committer& c, const std::string& file) {
  return c.Run([&](ChangeSet& change) {
    change.Put("r/" + file, "bytes of " + file);
    ChangeEvent e;
    e.type = "created";
    e.object_id = file;
    e.base_type_id = "cmis:document";
    e.type_id = "cmis:document";
    change.Record(e);
    return OkStatus();
  });
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
  auto fs = OpenPosixFs(dir.path());
  REQUIRE(fs.ok());
  REQUIRE((*fs)->MakeDir("r").ok());
  REQUIRE((*fs)->MakeDir("r/.folio").ok());
  const RepoLayout layout("r");
  CommitterOptions options;
  options.idle_checkpoint = std::chrono::milliseconds(60000);  // no checkpoint between turns
  Committer a(**fs, layout, options), b(**fs, layout, options);
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
    auto bytes = ReadWholeFile(**fs, std::string("r/") + f);
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
  Committer c(**fs, layout, options);
  REQUIRE(c.Open().ok());
  CHECK(c.stats().recovered == 0);
  CHECK(a.stats().recovered == 0);
  CHECK(b.stats().recovered == 0);
}

}  // namespace folio::storage
