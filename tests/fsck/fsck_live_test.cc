// fsck beside a live writer: a change in flight (half applied, its index entry or
// working copy not yet there) is never reported as damage.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "folio/fsck.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::RepoFixture;

TEST_CASE("Fsck beside a live writer: changes in flight are not reported as damage") {
  RepoFixture f;
  ObjectData target = f.Folder(f.root, "target");
  std::atomic<bool> stop{false};
  std::atomic<int> rounds{0};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      const std::string name = "doc" + std::to_string(i % 7) + ".txt";
      auto doc = f.repo->CreateDocument(f.root, NewObject{.type_id = "", .name = name, .properties = Json::object(), .acl = {}}, ContentSource::FromBytes("x", "text/plain"),
                                        VersioningState::kMajor, "alice", WriteCheck::Trusted());
      if (!doc.ok()) continue;
      auto pwc = f.repo->CheckOut(doc->id, "alice", WriteCheck::Trusted());
      if (pwc.ok()) {
        CheckInRequest in;
        in.content = ContentSource::FromBytes("xy", "text/plain");
        (void)f.repo->CheckIn(pwc->id, in, "alice", WriteCheck::Trusted());
      }
      (void)f.repo->Move(doc->series_id, target.id, f.root, "alice", WriteCheck::Trusted());
      (void)f.repo->Delete(doc->series_id, true, WriteCheck::Trusted());
      // A folder's changes also move its marker in its parent (folder-marker-mismatch).
      const std::string n = std::to_string(i % 5);
      NewObject folder;
      folder.name = "dir" + n;
      auto dir = f.repo->CreateFolder(f.root, folder, "alice", WriteCheck::Trusted());
      if (dir.ok()) {
        (void)f.repo->UpdateProperties(dir->id, Json{{"cmis:name", "renamed" + n}}, "alice", WriteCheck::Trusted());
        (void)f.repo->Move(dir->id, target.id, f.root, "alice", WriteCheck::Trusted());
        (void)f.repo->Delete(dir->id, true, WriteCheck::Trusted());
      }
      ++rounds;
    }
  });
  int runs = 0;
  while (runs < 12 || rounds < 10) {
    auto report = RunFsck(f.dir.path(), {});
    REQUIRE(report.ok());
    for (const Finding& x : report->findings) {
      CHECK_MESSAGE(x.severity == Severity::kNote, x.id << " " << x.path << ": " << x.message);
    }
    if (++runs > 100) break;
  }
  stop = true;
  writer.join();
  MESSAGE(runs << " fsck runs beside " << rounds.load()
                << " rounds of create, checkOut, checkIn, move, delete (documents), create, rename, move, delete "
                   "(folders)");
}
