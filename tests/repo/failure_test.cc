// A disk that fails at any step of a change: the call returns kStorage (or succeeds if
// the failure came after its commit point), and after reopening (journal recovery) the
// repository holds the old state or the new one, never a mix.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>

#include "folio/repository.h"
#include "support/faulty_fs.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::ContentOf;
using folio::testing::FaultyFs;
using folio::testing::ReadFile;
using folio::testing::RepoFixture;

namespace {

// Runs `change` with the disk failing from step N on, for every N, on a fresh fixture
// built by `setup`; after each, reopens the repository over the real disk and calls
// `check(repo, committed)` where committed says whether the change took effect.
void WalkFailures(const std::function<std::string(RepoFixture&)>& setup,
                  const std::function<Status(Repository&, const std::string&)>& change,
                  const std::function<bool(Repository&, const std::string&)>& took_effect,
                  const std::function<void(Repository&, const std::string&, bool)>& check) {
  for (int step = 0;; ++step) {
    CAPTURE(step);
    RepoFixture f;
    const std::string subject = setup(f);
    auto real = OpenPosixFs(f.dir.path(), PosixFsOptions{.durable = false});
    REQUIRE(real.ok());
    FaultyFs faulty(**real, step);
    auto repo = Repository::Open(faulty, "demo/main");
    REQUIRE(repo.ok());
    Status s = change(**repo, subject);
    if (!faulty.fired()) {
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      break;
    }
    if (!s.ok()) CHECK(s.kind() == ErrorKind::kStorage);
    auto reopened = Repository::Open(**real, "demo/main");  // recovers the journal
    REQUIRE_MESSAGE(reopened.ok(), reopened.status().ToString());
    const bool effect = took_effect(**reopened, subject);
    if (s.ok()) CHECK(effect);  // reported done means done
    check(**reopened, subject, effect);
    REQUIRE(step < 200);
  }
}

}  // namespace

TEST_CASE("Failure: createDocument at every failing step creates all or nothing") {
  WalkFailures(
      [](RepoFixture& f) { return f.root; },
      [](Repository& r, const std::string& root) {
        NewObject o;
        o.name = "n.txt";
        return r.CreateDocument(root, o, ContentSource::FromBytes("payload"), VersioningState::kMajor, "a").status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("n.txt").ok(); },
      [](Repository& r, const std::string& root, bool effect) {
        auto page = r.GetChildren(root, 0, 10);
        REQUIRE(page.ok());
        CHECK(page->total == (effect ? 1u : 0u));
        if (effect) CHECK(ContentOf(r, page->objects[0].id) == "payload");
      });
}

TEST_CASE("Failure: checkIn at every failing step gives the old version or the new one") {
  WalkFailures(
      [](RepoFixture& f) {
        ObjectData d = f.Doc(f.root, "v.txt", "one");
        auto pwc = f.repo->CheckOut(d.id, "a");
        REQUIRE(pwc.ok());
        return pwc->id;
      },
      [](Repository& r, const std::string& pwc) {
        CheckInRequest req;
        req.content = ContentSource::FromBytes("two");
        return r.CheckIn(pwc, req, "a").status();
      },
      [](Repository& r, const std::string& pwc) { return !r.GetObject(pwc).ok(); },
      [](Repository& r, const std::string& pwc, bool effect) {
        const std::string series = pwc.substr(0, pwc.find(';'));
        auto latest = r.GetObject(series);
        REQUIRE_MESSAGE(latest.ok(), latest.status().ToString());
        CHECK(latest->properties["cmis:versionLabel"] == (effect ? "2.0" : "1.0"));
        CHECK(ContentOf(r, latest->id) == (effect ? "two" : "one"));
        CHECK(latest->properties["cmis:isVersionSeriesCheckedOut"] == !effect);
      });
}

TEST_CASE("Failure: move at every failing step leaves the document in one place") {
  WalkFailures(
      [](RepoFixture& f) {
        ObjectData a = f.Folder(f.root, "a");
        f.Folder(f.root, "b");
        ObjectData d = f.Doc(a.id, "m.txt", "m");
        return d.series_id;
      },
      [](Repository& r, const std::string& id) {
        auto b = r.GetObjectByPath("b");
        if (!b.ok()) return b.status();
        return r.Move(id, b->id, "", "a").status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("b/m.txt").ok(); },
      [](Repository& r, const std::string& id, bool effect) {
        CHECK(r.GetObjectByPath("a/m.txt").ok() == !effect);
        auto d = r.GetObject(id);
        REQUIRE(d.ok());
        CHECK(d->path == (effect ? "b/m.txt" : "a/m.txt"));
        CHECK(ContentOf(r, d->id) == "m");
      });
}
