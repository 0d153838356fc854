// fsck --repair and the change log (docs/STORAGE.md §9, §10): every object a repair
// drops from the repository's view (removed by hand with its folder, or set aside in
// lost+found) is one "deleted" event, recorded with the removal of its index entry, so
// a client following the log does not keep its id; a second repair records nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "fsck/fsck_fixture.h"

using namespace folio;
using namespace folio::testing;
namespace fs = std::filesystem;

namespace {

// "deleted <id> <type>" of the events after `after`, sorted.
std::vector<std::string> DeletedAfter(const std::string& dir, uint64_t after) {
  const DemoMain opened = OpenDemoMain(dir);
  auto page = opened.repo->ReadChanges(after + 1, 1000);
  REQUIRE(page.ok());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) out.push_back(e.type + " " + e.object_id + " " + e.type_id);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("Fsck events: --repair records the deletion of a folder tree removed by hand, once") {
  FsckFixture f;
  const uint64_t mark = *f.repo->LatestChangeToken();
  f.repo.reset();
  f.store.reset();
  fs::remove_all(f.Abs(f.Data("reports")));
  const FsckReport before = RunCheck(f.dir.path());
  CHECK(Find(before, "index-entry-dangling", f.IndexEntry(f.reports.id)) != nullptr);
  // Its marker in the root names it still.
  const std::string marker = f.Data(".folio/folders/reports");
  const Finding* stale = Find(before, "folder-marker-mismatch", marker);
  REQUIRE_MESSAGE(stale != nullptr, Dump(before));
  CHECK(stale->severity == Severity::kWarning);
  CHECK_MESSAGE(stale->message.find("stale folder marker '" + marker + "' (holding '" + f.reports.id + "')") !=
                    std::string::npos,
                stale->message);
  CHECK_MESSAGE(stale->message.find("'/reports'") != std::string::npos, stale->message);
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK_MESSAGE(repaired.problems() == 0, Dump(repaired));
  const Finding* fixed = Find(repaired, "index-entry-dangling", f.IndexEntry(f.q3.series_id));
  REQUIRE_MESSAGE(fixed != nullptr, Dump(repaired));
  CHECK(fixed->repair.find("change log") != std::string::npos);
  // The marker went with the recorded deletion (the engine's change), not before it.
  const Finding* marker_fixed = Find(repaired, "folder-marker-mismatch", marker);
  REQUIRE_MESSAGE(marker_fixed != nullptr, Dump(repaired));
  CHECK(marker_fixed->repair == "resolved by the other repairs");
  CHECK_FALSE(fs::exists(f.Abs(marker)));
  // reports/ held q3.txt (three versions), draft.md (checked out), new.txt (a working
  // copy only), the item ticket and 2024/ with old.txt. A document is one event per
  // object its "created" events named (its records went with the folder: the change
  // log says which).
  const auto doc = [](const std::string& id) { return "deleted " + id + " cmis:document"; };
  std::vector<std::string> want = {"deleted " + f.reports.id + " cmis:folder",
                                   doc(f.q3.series_id + ";1.0"),
                                   doc(f.q3.series_id + ";1.1"),
                                   doc(f.q3.series_id + ";2.0"),
                                   doc(f.draft.id),
                                   doc(f.draft_pwc.id),
                                   doc(f.fresh_pwc.id),
                                   "deleted " + f.ticket.id + " my:ticket",
                                   doc(f.old.id)};
  std::vector<std::string> got = DeletedAfter(f.dir.path(), mark);
  // The folder 2024 is there too (its id is not kept by the fixture): one more folder.
  REQUIRE(got.size() == want.size() + 1);
  for (const std::string& w : want) CHECK(std::count(got.begin(), got.end(), w) == 1);
  CHECK(RunCheck(f.dir.path()).clean());
  // A second repair finds nothing, and records nothing.
  const FsckReport again = RunRepair(f.dir.path());
  CHECK(again.findings.empty());
  CHECK(DeletedAfter(f.dir.path(), mark).size() == got.size());
}

TEST_CASE("Fsck events: --repair records the deletion of a document it sets aside in lost+found") {
  FsckFixture f;
  const uint64_t mark = *f.repo->LatestChangeToken();
  f.repo.reset();
  f.store.reset();
  std::string id, finding, path;
  SUBCASE("its file removed by hand (content-file-missing)") {
    fs::remove(f.Abs(f.Data("notes.txt")));
    id = f.notes.id;  // its version 0.1: the id its "created" event named
    finding = "content-file-missing";
    path = f.Data("notes.txt");
  }
  SUBCASE("its series record unreadable (sidecar-unparseable)") {
    WriteFile(f.Abs(f.Data("reports/.folio/docs/q3.txt/series.json")), "{not json");
    id = f.q3.id;  // its first version, as the change log named it
    finding = "sidecar-unparseable";
    path = f.Data("reports/.folio/docs/q3.txt/series.json");
  }
  const FsckReport before = RunCheck(f.dir.path());
  CHECK_MESSAGE(Find(before, finding, path) != nullptr, Dump(before));
  const FsckReport repaired = RunRepair(f.dir.path());
  CHECK_MESSAGE(repaired.problems() == 0, Dump(repaired));
  const std::vector<std::string> got = DeletedAfter(f.dir.path(), mark);
  CHECK(std::count(got.begin(), got.end(), "deleted " + id + " cmis:document") == 1);
  CHECK(RunCheck(f.dir.path()).clean());
  CHECK(RunRepair(f.dir.path()).findings.empty());
  CHECK(DeletedAfter(f.dir.path(), mark) == got);
}
