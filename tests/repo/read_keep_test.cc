// What reads keep for later reads: built documents shared while their records are
// unchanged (also an adopted document's, whose records its table's entry makes), none
// kept by a thread in a Repository::ReadOnce scope, and everything let go by
// Repository::DropCaches.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "repo/hand_edits/adopted_docs.h"
#include "repo/hand_edits/adoption_table.h"
#include "storage/ids.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::RepoFixture;
using folio::testing::WriteFile;

namespace {

std::shared_ptr<const ObjectData> Shared(RepoFixture& f, const std::string& id) {
  auto o = f.repo->GetObjectShared(id);
  REQUIRE_MESSAGE(o.ok(), o.status().ToString());
  return *o;
}

// The id of the document `name` adopted in the root folder (listing it adopts it).
std::string AdoptedId(RepoFixture& f, const std::string& name) {
  auto page = f.repo->GetChildren(f.root, 0, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  for (const ObjectData& o : page->objects) {
    if (o.name == name) return o.id;
  }
  FAIL("no child " << name);
  return "";
}

// Records written within the last 100 ms are not cached when read (storage/json_cache.h:
// their mtime may not yet tell a further change), so a document built of them is built
// again at every read. Those this process commits are kept as written, but DropCaches
// drops them too.
void PastRacyWindow() { std::this_thread::sleep_for(std::chrono::milliseconds(150)); }

// Two documents made through Folio, `first` and `second`, and "hand.txt" added by hand
// (adopted by a listing), with nothing kept of any of them: the repository's caches
// dropped once their records are past the racy window.
struct ThreeDocs {
  std::string first, second, hand;
};
ThreeDocs NothingKept(RepoFixture& f, const std::string& first, const std::string& second) {
  ThreeDocs ids{f.Doc(f.root, first, "the first").id, f.Doc(f.root, second, "the second").id, ""};
  WriteFile(f.RepoPath("hand.txt"), "added by hand");
  ids.hand = AdoptedId(f, "hand.txt");
  PastRacyWindow();
  f.repo->DropCaches();
  return ids;
}

}  // namespace

TEST_CASE("Read keep: an adopted document's series.json is made once while held, and goes when nothing holds it") {
  // (Its version record is no JSON: the builder takes AdoptedVersion, and a listing
  // and a lookup build the same object of it: tests/repo/hand_edits/adopted_docs_test.cc.)
  repo::hand_edits::AdoptedEntry e;
  e.series_id = storage::NewAdoptedSeriesId(storage::NewId('f'));
  e.mime_type = "text/plain";
  e.file_size = 5;
  const repo::hand_edits::AdoptedDoc doc("f", "a.txt", 1, e);
  std::weak_ptr<const storage::Json> weak_series;
  {
    const auto series = doc.SeriesJson();
    REQUIRE(series != nullptr);
    CHECK(doc.SeriesJson() == series);  // the same object, not another made alike
    CHECK(*series == repo::ToJson(repo::hand_edits::AdoptedSeries(e)));
    weak_series = series;
  }
  // Held by nobody: gone (the entry keeps only the way to make it again).
  CHECK(weak_series.expired());
  CHECK(*doc.SeriesJson() == repo::ToJson(repo::hand_edits::AdoptedSeries(e)));
  // Held (a request's Loc): the same object again.
  const auto series = doc.SeriesJson();
  weak_series = series;
  CHECK(doc.SeriesJson() == weak_series.lock());
}

TEST_CASE("Read keep: threads making an adopted document's records at once all get the same ones") {
  repo::hand_edits::AdoptedEntry e;
  e.series_id = storage::NewAdoptedSeriesId(storage::NewId('f'));
  e.mime_type = "text/plain";
  const repo::hand_edits::AdoptedDoc doc("f", "a.txt", 1, e);
  std::vector<std::shared_ptr<const storage::Json>> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) threads.emplace_back([&, i] { got[i] = doc.SeriesJson(); });
  for (std::thread& t : threads) t.join();
  for (const auto& g : got) CHECK(g == got[0]);
}

TEST_CASE("Read keep: a document read twice is built once, adopted or not, until it changes") {
  RepoFixture f;
  const ObjectData made = f.Doc(f.root, "made.txt", "made through Folio");
  WriteFile(f.RepoPath("hand.txt"), "added by hand");
  const std::string hand = AdoptedId(f, "hand.txt");
  for (const std::string& id : {made.id, hand}) {
    CAPTURE(id);
    const auto first = Shared(f, id);
    CHECK(Shared(f, id) == first);
  }
  // Edited by hand: the adopted document's entry is replaced, and it is built anew (the
  // read that takes the edit in keeps nothing; the next is kept).
  const auto before = Shared(f, hand);
  WriteFile(f.RepoPath("hand.txt"), "edited by hand, longer");
  const auto after = Shared(f, hand);
  CHECK(after != before);
  CHECK(after->properties["cmis:contentStreamLength"] == 22);
  const auto next = Shared(f, hand);
  CHECK(next->properties == after->properties);
  CHECK(Shared(f, hand) == next);
}

TEST_CASE("Read keep: a thread in a ReadOnce scope keeps nothing it reads, and still uses what is kept") {
  RepoFixture f;
  const ThreeDocs docs = NothingKept(f, "kept.txt", "once.txt");
  const std::string& kept = docs.first;
  const std::string& once = docs.second;
  const std::string& hand = docs.hand;
  const auto kept_before = Shared(f, kept);
  CHECK(Shared(f, kept) == kept_before);
  {
    const Repository::ReadOnce read_once;
    for (const std::string& id : {once, hand}) {
      CAPTURE(id);
      const auto a = Shared(f, id);
      const auto b = Shared(f, id);
      CHECK(a != b);  // built for each read, not kept
      CHECK(a->properties == b->properties);
    }
    CHECK(Shared(f, kept) == kept_before);  // what was kept before is used
    {
      const Repository::ReadOnce nested;
    }
    CHECK(Shared(f, once) != Shared(f, once));  // still in the outer scope
    // Another thread is not in this one's scope.
    std::shared_ptr<const ObjectData> a, b;
    std::thread([&] {
      a = Shared(f, once);
      b = Shared(f, once);
    }).join();
    CHECK(a == b);
  }
  // Out of the scope, reads are kept again.
  const auto first = Shared(f, hand);
  CHECK(Shared(f, hand) == first);
}

TEST_CASE("Read keep: a listing keeps none of its children, and uses one kept already") {
  RepoFixture f;
  const ThreeDocs docs = NothingKept(f, "kept.txt", "listed.txt");
  const std::string& kept = docs.first;
  const std::string& listed = docs.second;
  const std::string& hand = docs.hand;
  const auto kept_before = Shared(f, kept);
  for (int i = 0; i < 2; ++i) {
    auto page = f.repo->GetChildren(f.root, 0, 100);
    REQUIRE_MESSAGE(page.ok(), page.status().ToString());
    CHECK(page->objects.size() == 3);
  }
  // Read where nothing new is kept: only what was kept before the listings is shared.
  const Repository::ReadOnce read_once;
  CHECK(Shared(f, kept) == kept_before);
  for (const std::string& id : {listed, hand}) {
    CAPTURE(id);
    CHECK(Shared(f, id) != Shared(f, id));
  }
}

TEST_CASE("Read keep: DropCaches lets go of every document kept; reads then answer as before") {
  RepoFixture f;
  const ObjectData made = f.Doc(f.root, "made.txt", "made through Folio");
  const ObjectData folder = f.Folder(f.root, "sub");
  WriteFile(f.RepoPath("sub/hand.txt"), "added by hand");
  auto page = f.repo->GetChildren(folder.id, 0, 10);
  REQUIRE(page.ok());
  REQUIRE(page->objects.size() == 1);
  const std::string hand = page->objects[0].id;
  const auto made_before = Shared(f, made.id);
  const auto hand_before = Shared(f, hand);
  CHECK(Shared(f, made.id) == made_before);
  CHECK(Shared(f, hand) == hand_before);
  PastRacyWindow();
  f.repo->DropCaches();
  const auto made_after = Shared(f, made.id);
  const auto hand_after = Shared(f, hand);
  CHECK(made_after != made_before);
  CHECK(hand_after != hand_before);
  CHECK(made_after->properties == made_before->properties);
  CHECK(hand_after->properties == hand_before->properties);
  CHECK(Shared(f, made.id) == made_after);  // kept again
  CHECK(Shared(f, hand) == hand_after);
  auto again = f.repo->GetChildren(folder.id, 0, 10);
  REQUIRE(again.ok());
  REQUIRE(again->objects.size() == 1);
  CHECK(again->objects[0].id == hand);
  CHECK(f.Content(hand) == "added by hand");
}
