// Rule C1 (docs/STORAGE.md §10). A disk that fails at any step of a change: the call
// returns kStorage (or succeeds if the failure came after its commit point), and after
// reopening (journal recovery) the repository holds the old state or the new one, never
// a mix. Walked on PosixFs, then on MemFs (EIO, ENOSPC) and through a power cut at every
// step under both of its power loss models; on MemFs each walk twice: writing new files,
// and writing in the spare files an earlier process left (docs/STORAGE.md §8.5). And on
// MemFs with one call failing while the process goes on: the answer then says which
// state it is.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <vector>
#include <functional>

#include "folio/fsck.h"
#include "folio/repository.h"
#include "storage/ids.h"
#include "storage/mem_fs.h"
#include "support/faulty_fs.h"
#include "support/repo_fixture.h"

using namespace folio;
using folio::testing::ContentOf;
using folio::testing::FaultyFs;
using folio::testing::ReadFile;
using folio::testing::RepoFixture;
using folio::storage::MemFs;
using folio::storage::PowerLoss;

namespace {

// The change under test writes its files in the spares an earlier process left
// (replaced and removed records, docs/STORAGE.md §8.5) at once: every step of that is
// walked too.
// Series.json lists at most 3 labels (repo/versions/version_list.h): a fourth version archives
// older ones. Only the version-list scenarios have that many.
constexpr uint32_t kListMax = 3;
const RepositoryOptions kSparesAtOnce{.spare_grace_ms = 0, .version_list_max = kListMax};

// Spares as an earlier process leaves them: old bytes, more of them than a change puts.
void SeedSpares(Fs& fs) {
  const std::string dir = "demo/main/.folio/spare";
  Status made = fs.MakeDir(dir);
  REQUIRE((made.ok() || made.Is(std::errc::file_exists)));
  for (int i = 0; i < 12; ++i) {
    auto file = fs.CreateNew(dir + "/1-" + std::to_string(i));
    REQUIRE(file.ok());
    REQUIRE((*file)->Append(std::string(static_cast<size_t>(50 + 40 * i), 'o')).ok());
    REQUIRE((*file)->Close().ok());
  }
}

// True once a change has used the spares: written in one SeedSpares made (or moved one
// into place), or kept a record it replaced or removed as a new one.
bool SparesUsed(Fs& fs) {
  for (int i = 0; i < 12; ++i) {
    auto bytes = ReadWholeFile(fs, "demo/main/.folio/spare/1-" + std::to_string(i));
    if (!bytes.ok() || *bytes != std::string(static_cast<size_t>(50 + 40 * i), 'o')) return true;
  }
  auto entries = fs.List("demo/main/.folio/spare");
  return entries.ok() && entries->size() > 12;
}

// One change to walk: `setup` prepares the fixture and returns the subject's id;
// `change` makes the change; `took_effect` tells, after reopening, whether it did;
// `check(repo, subject, effect)` verifies the whole state is the old or the new one.
struct Scenario {
  std::function<std::string(RepoFixture&)> setup;
  std::function<Status(Repository&, const std::string&)> change;
  std::function<bool(Repository&, const std::string&)> took_effect;
  std::function<void(Repository&, const std::string&, bool)> check;
};

// Runs `change` with the disk failing from step N on, for every N, on a fresh fixture
// built by `setup`; after each, reopens the repository over the real disk and calls
// `check(repo, committed)` where committed says whether the change took effect.
void WalkFailures(const Scenario& sc) {
  for (int step = 0;; ++step) {
    CAPTURE(step);
    RepoFixture f("B", kListMax);
    const std::string subject = sc.setup(f);
    auto real = OpenPosixFs(f.dir.path(), PosixFsOptions{.durable = false});
    REQUIRE(real.ok());
    SeedSpares(**real);
    FaultyFs faulty(**real, step);
    auto repo = Repository::Open(faulty, "demo/main", kSparesAtOnce);
    REQUIRE(repo.ok());
    Status s = sc.change(**repo, subject);
    if (!faulty.fired()) {
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      CHECK(SparesUsed(**real));
      break;
    }
    if (!s.ok()) CHECK(s.kind() == ErrorKind::kStorage);
    auto reopened = Repository::Open(**real, "demo/main");  // recovers the journal
    REQUIRE_MESSAGE(reopened.ok(), reopened.status().ToString());
    const bool effect = sc.took_effect(**reopened, subject);
    if (s.ok()) CHECK(effect);  // reported done means done
    sc.check(**reopened, subject, effect);
    REQUIRE(step < 400);
  }
}

// The fixture of `sc`, built on disk once and imported into memory (all durable).
// With `seeded`, the data directory also holds spares an earlier process left (the
// change writes in them); without, the change writes new files (and keeps what it
// replaces as spares).
MemFs InMemory(const Scenario& sc, std::string& subject, bool seeded) {
  RepoFixture f("B", kListMax);
  subject = sc.setup(f);
  // The fixture's repository is still open: its last changes may sit in its commit log
  // (applied, not yet checkpointed). A copy taken now would be a crashed one.
  REQUIRE(f.repo->Checkpoint().ok());
  MemFs disk;
  REQUIRE(folio::storage::ImportTree(disk, f.dir.path()).ok());
  {
    // The log's header then names this MemFs's boot: the next process trusts the
    // spares it finds (after another boot it would remove them, §8.5).
    auto repo = Repository::Open(disk, "demo/main");
    REQUIRE(repo.ok());
    REQUIRE((*repo)->Checkpoint().ok());
  }
  if (seeded) SeedSpares(disk);
  REQUIRE(disk.SyncAll().ok());
  return disk;
}

// Reopens the repository on `disk` (recovering what its commit log holds), checks the
// state, closes it, and has fsck find nothing wrong. Returns whether the change took
// effect.
bool Recheck(const Scenario& sc, MemFs& disk, const std::string& subject) {
  bool effect = false;
  {
    auto reopened = Repository::Open(disk, "demo/main");
    REQUIRE_MESSAGE(reopened.ok(), (reopened.status().ToString() + "\n" + folio::storage::DumpTree(disk)));
    effect = sc.took_effect(**reopened, subject);
    sc.check(**reopened, subject, effect);
  }
  auto report = RunFsck(disk, FsckOptions{});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  for (const Finding& finding : report->findings) {
    if (finding.severity != Severity::kNote) FAIL_CHECK(finding.id << " " << finding.path << ": " << finding.message);
  }
  return effect;
}

// Opens the repository on `fs` and makes the change of `sc`; the repository is
// closed again when this returns.
Status Change(const Scenario& sc, Fs& fs, const std::string& subject) {
  auto repo = Repository::Open(fs, "demo/main", kSparesAtOnce);
  REQUIRE_MESSAGE(repo.ok(), repo.status().ToString());
  return sc.change(**repo, subject);
}

// WalkFailures on MemFs, failing with `error` from step N on.
void WalkFailuresInMemory(const Scenario& sc, std::errc error, bool seeded) {
  std::string subject;
  const MemFs fixture = InMemory(sc, subject, seeded);
  for (int step = 0;; ++step) {
    CAPTURE(step);
    MemFs disk = fixture.Clone();
    FaultyFs faulty(disk, FaultyFs::FailFrom(step, error));
    const Status s = Change(sc, faulty, subject);
    if (!faulty.fired()) {
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      if (seeded) CHECK(SparesUsed(disk));
      break;
    }
    if (!s.ok()) {
      CHECK(s.kind() == ErrorKind::kStorage);
      CHECK(s.Is(error));
    }
    const bool effect = Recheck(sc, disk, subject);
    if (s.ok()) CHECK(effect);
    REQUIRE(step < 400);
  }
}

// A disk that fails once, at step N, while the process goes on (EIO of that call only,
// as a transient error): the answer says what happened. A change answered with an error
// changed nothing, for the same process's next request and after a restart, and its
// retry in the same process makes it; one answered done is done.
void WalkTransientFailures(const Scenario& sc, bool seeded) {
  std::string subject;
  const MemFs fixture = InMemory(sc, subject, seeded);
  for (int step = 0;; ++step) {
    for (bool retry : {false, true}) {
      CAPTURE(step);
      CAPTURE(retry);
      MemFs disk = fixture.Clone();
      FaultyFs faulty(disk, FaultyFs::FailCallAt(step, std::errc::io_error));
      Status s;
      {
        auto repo = Repository::Open(faulty, "demo/main", kSparesAtOnce);
        REQUIRE_MESSAGE(repo.ok(), repo.status().ToString());
        s = sc.change(**repo, subject);
        if (!faulty.fired()) {
          REQUIRE_MESSAGE(s.ok(), s.ToString());
          return;
        }
        if (!s.ok()) CHECK(s.kind() == ErrorKind::kStorage);
        const bool now = sc.took_effect(**repo, subject);
        CHECK_MESSAGE(now == s.ok(), "answered " << s.ToString() << ", yet the change " << (now ? "took" : "did not take")
                                                << " effect");
        sc.check(**repo, subject, now);
        if (retry && !s.ok()) {
          const Status again = sc.change(**repo, subject);
          CHECK_MESSAGE(again.ok(), "the retry: " << again.ToString());
        }
      }
      const bool effect = Recheck(sc, disk, subject);
      CHECK(effect == (s.ok() || retry));
    }
    REQUIRE(step < 400);
  }
}

// Cuts the power at every step N of `change` (and, under kKeepPrefix, for every number
// of changes the disk keeps after its last barrier), then restarts on what survived:
// the repository holds the old state or the new one. A change reported done must
// survive a power loss right after it.
void WalkPowerCuts(const Scenario& sc, PowerLoss model, bool seeded) {
  std::string subject;
  const MemFs fixture = InMemory(sc, subject, seeded);
  for (int step = 0;; ++step) {
    for (size_t keep = 0;; ++keep) {
      CAPTURE(step);
      CAPTURE(keep);
      MemFs disk = fixture.Clone();
      FaultyFs faulty(disk, FaultyFs::CutPowerAt(step, model, keep));
      const Status s = Change(sc, faulty, subject);
      if (!faulty.fired()) {
        REQUIRE_MESSAGE(s.ok(), s.ToString());
        for (size_t k = 0; k <= disk.OpsSinceBarrier(); ++k) {
          CAPTURE(k);
          MemFs after = disk.Clone();
          after.LosePower(model, k);
          const std::string tree = folio::storage::DumpTree(after);
          CHECK_MESSAGE(Recheck(sc, after, subject), ("a change reported done was lost:\n" + tree));
          if (model == PowerLoss::kDropUnsynced) break;
        }
        return;
      }
      if (!s.ok()) CHECK(s.kind() == ErrorKind::kStorage);
      const bool effect = Recheck(sc, disk, subject);
      if (s.ok()) CHECK(effect);
      if (model == PowerLoss::kDropUnsynced || keep >= faulty.ops_at_cut()) break;
    }
    REQUIRE(step < 400);
  }
}

Scenario CreateDocumentScenario() {
  return {
      [](RepoFixture& f) { return f.root; },
      [](Repository& r, const std::string& root) {
        NewObject o;
        o.name = "n.txt";
        return r.CreateDocument(root, o, ContentSource::FromBytes("payload"), VersioningState::kMajor, "a",
                                WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("n.txt").ok(); },
      [](Repository& r, const std::string& root, bool effect) {
        auto page = r.GetChildren(root, 0, 10);
        REQUIRE(page.ok());
        CHECK(page->total == (effect ? 1u : 0u));
        if (effect) CHECK(ContentOf(r, page->objects[0].id) == "payload");
      }};
}

// A check-in of a working copy made from "one": with `content` as new content, or
// without (the working copy's content, a link of the version checked out, becomes the
// new version's, and the visible file is already a name of it).
Scenario CheckInScenario(std::optional<std::string> content) {
  return {
      [](RepoFixture& f) {
        ObjectData d = f.Doc(f.root, "v.txt", "one");
        auto pwc = f.repo->CheckOut(d.id, "a", WriteCheck::Trusted());
        REQUIRE(pwc.ok());
        return pwc->id;
      },
      [content](Repository& r, const std::string& pwc) {
        CheckInRequest req;
        if (content) req.content = ContentSource::FromBytes(*content);
        return r.CheckIn(pwc, req, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string& pwc) { return !r.GetObject(pwc).ok(); },
      [content](Repository& r, const std::string& pwc, bool effect) {
        const std::string series = pwc.substr(0, pwc.find(';'));
        auto latest = r.GetObject(series);
        REQUIRE_MESSAGE(latest.ok(), latest.status().ToString());
        CHECK(latest->properties["cmis:versionLabel"] == (effect ? "2.0" : "1.0"));
        CHECK(ContentOf(r, latest->id) == (effect && content ? *content : "one"));
        CHECK(ContentOf(r, series + ";1.0") == "one");
        CHECK(latest->properties["cmis:isVersionSeriesCheckedOut"] == !effect);
      }};
}

// A document with versions 1.0 to 1.<n-1> (content "v<label>"), checked out when
// `checked_out`. Returns its series id.
std::string History(RepoFixture& f, int n, bool checked_out) {
  ObjectData d = f.Doc(f.root, "h.txt", "v1.0");
  for (int i = 1; i < n; ++i) {
    auto pwc = f.repo->CheckOut(d.id, "a", WriteCheck::Trusted());
    REQUIRE(pwc.ok());
    CheckInRequest req;
    req.major = false;
    req.content = ContentSource::FromBytes("v1." + std::to_string(i));
    REQUIRE(f.repo->CheckIn(pwc->id, req, "a", WriteCheck::Trusted()).ok());
  }
  if (checked_out) REQUIRE(f.repo->CheckOut(d.id, "a", WriteCheck::Trusted()).ok());
  return d.series_id;
}

// The labels getAllVersions gives, oldest first, working copy left out; each version's
// content checked to be "v<label>".
std::vector<std::string> LabelsOf(Repository& r, const std::string& series) {
  auto all = r.GetAllVersions(series);
  REQUIRE_MESSAGE(all.ok(), all.status().ToString());
  std::vector<std::string> out;
  for (const ObjectData& v : *all) {
    if (v.is_pwc) continue;
    out.push_back(v.version_label);
    CHECK(ContentOf(r, v.id) == "v" + v.version_label);
  }
  return out;
}

// A check-in that makes series.json list one label more than kListMax: the older ones
// go into an archive file in the same change.
Scenario CheckInArchivingScenario() {
  return {
      [](RepoFixture& f) { return History(f, 3, /*checked_out=*/true); },
      [](Repository& r, const std::string& s) {
        CheckInRequest req;
        req.major = false;
        req.content = ContentSource::FromBytes("v1.3");
        return r.CheckIn(storage::PwcId(s), req, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string& s) { return !r.GetObject(storage::PwcId(s)).ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        CHECK(LabelsOf(r, s) == (effect ? std::vector<std::string>{"1.0", "1.1", "1.2", "1.3"}
                                        : std::vector<std::string>{"1.0", "1.1", "1.2"}));
      }};
}

// Deleting version `label` alone from a history of `n` versions (History). With
// kListMax = 3 the first versions are archived: deleting an archived one rewrites its
// archive without it; deleting the only listed one moves the newest archive back into
// series.json (its file goes) and the visible file takes the version before.
Scenario DeleteOneVersionScenario(int n, std::string label) {
  std::vector<std::string> all;
  for (int i = 0; i < n; ++i) all.push_back("1." + std::to_string(i));
  std::vector<std::string> rest = all;
  std::erase(rest, label);
  return {
      [n](RepoFixture& f) { return History(f, n, /*checked_out=*/false); },
      [label](Repository& r, const std::string& s) { return r.Delete(s + ";" + label, false, WriteCheck::Trusted()); },
      [label](Repository& r, const std::string& s) { return !r.GetObject(s + ";" + label).ok(); },
      [all, rest](Repository& r, const std::string& s, bool effect) {
        const std::vector<std::string>& now = effect ? rest : all;
        CHECK(LabelsOf(r, s) == now);
        CHECK(ContentOf(r, s) == "v" + now.back());
      }};
}

Scenario MoveScenario() {
  return {
      [](RepoFixture& f) {
        ObjectData a = f.Folder(f.root, "a");
        f.Folder(f.root, "b");
        ObjectData d = f.Doc(a.id, "m.txt", "m");
        return d.series_id;
      },
      [](Repository& r, const std::string& id) {
        auto b = r.GetObjectByPath("b");
        if (!b.ok()) return b.status();
        return r.Move(id, b->id, "", "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("b/m.txt").ok(); },
      [](Repository& r, const std::string& id, bool effect) {
        CHECK(r.GetObjectByPath("a/m.txt").ok() == !effect);
        auto d = r.GetObject(id);
        REQUIRE(d.ok());
        CHECK(d->path == (effect ? "b/m.txt" : "a/m.txt"));
        CHECK(ContentOf(r, d->id) == "m");
      }};
}

Scenario CheckOutScenario() {
  return {
      [](RepoFixture& f) { return f.Doc(f.root, "o.txt", "base").series_id; },
      [](Repository& r, const std::string& s) { return r.CheckOut(s, "bob", WriteCheck::Trusted()).status(); },
      [](Repository& r, const std::string& s) { return r.GetObject(s + ";pwc").ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        auto latest = r.GetObject(s);
        REQUIRE(latest.ok());
        CHECK(latest->properties["cmis:isVersionSeriesCheckedOut"] == effect);
        CHECK(latest->properties["cmis:versionLabel"] == "1.0");
        CHECK(ContentOf(r, latest->id) == "base");
        auto out = r.GetCheckedOut("");
        REQUIRE(out.ok());
        CHECK(out->size() == (effect ? 1u : 0u));
        if (effect) CHECK(ContentOf(r, s + ";pwc") == "base");
      }};
}

Scenario CancelScenario() {
  return {
      [](RepoFixture& f) {
        ObjectData d = f.Doc(f.root, "c.txt", "kept");
        auto pwc = f.repo->CheckOut(d.id, "bob", WriteCheck::Trusted());
        REQUIRE(pwc.ok());
        REQUIRE(f.repo->SetContent(pwc->id, ContentSource::FromBytes("discarded"), true, "bob",
                                   WriteCheck::Trusted()).ok());
        return d.series_id;
      },
      [](Repository& r, const std::string& s) { return r.CancelCheckOut(s + ";pwc", WriteCheck::Trusted()); },
      [](Repository& r, const std::string& s) { return !r.GetObject(s + ";pwc").ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        auto latest = r.GetObject(s);
        REQUIRE(latest.ok());
        CHECK(latest->properties["cmis:isVersionSeriesCheckedOut"] == !effect);
        CHECK(ContentOf(r, latest->id) == "kept");
        if (!effect) CHECK(ContentOf(r, s + ";pwc") == "discarded");
      }};
}

Scenario SetContentScenario() {
  return {
      [](RepoFixture& f) { return f.Doc(f.root, "s.txt", "old bytes").series_id; },
      [](Repository& r, const std::string& s) {
        return r.SetContent(s, ContentSource::FromBytes("new bytes!"), true, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string& s) { return ContentOf(r, s) == "new bytes!"; },
      [](Repository& r, const std::string& s, bool effect) {
        auto latest = r.GetObject(s);
        REQUIRE(latest.ok());
        CHECK(latest->properties["cmis:versionLabel"] == "1.0");  // no new version
        CHECK(ContentOf(r, latest->id) == (effect ? "new bytes!" : "old bytes"));
        CHECK(latest->properties["cmis:contentStreamLength"] == (effect ? 10 : 9));
      }};
}

Scenario RenameScenario() {
  return {
      [](RepoFixture& f) { return f.Doc(f.root, "before.txt", "named").series_id; },
      [](Repository& r, const std::string& s) {
        return r.UpdateProperties(s, Json{{"cmis:name", "after.txt"}}, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("after.txt").ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        CHECK(r.GetObjectByPath("before.txt").ok() == !effect);
        auto d = r.GetObject(s);
        REQUIRE(d.ok());
        CHECK(d->name == (effect ? "after.txt" : "before.txt"));
        CHECK(ContentOf(r, d->id) == "named");
      }};
}

Scenario DeleteScenario() {
  return {
      [](RepoFixture& f) {
        ObjectData d = f.Doc(f.root, "gone.txt", "v1");
        auto pwc = f.repo->CheckOut(d.id, "a", WriteCheck::Trusted());
        REQUIRE(pwc.ok());
        CheckInRequest req;
        req.content = ContentSource::FromBytes("v2");
        REQUIRE(f.repo->CheckIn(pwc->id, req, "a", WriteCheck::Trusted()).ok());
        return d.series_id;
      },
      [](Repository& r, const std::string& s) { return r.Delete(s, true, WriteCheck::Trusted()); },
      [](Repository& r, const std::string& s) { return !r.GetObject(s).ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        CHECK(r.GetObjectByPath("gone.txt").ok() == !effect);
        if (!effect) {
          auto versions = r.GetAllVersions(s);
          REQUIRE(versions.ok());
          CHECK(versions->size() == 2);
          CHECK(ContentOf(r, s) == "v2");
        }
      }};
}

Scenario DeleteTreeScenario() {
  return {
      [](RepoFixture& f) {
        ObjectData t = f.Folder(f.root, "tree");
        ObjectData sub = f.Folder(t.id, "sub");
        f.Doc(t.id, "a.txt", "a");
        ObjectData b = f.Doc(sub.id, "b.txt", "b");
        REQUIRE(f.repo->CheckOut(b.id, "a", WriteCheck::Trusted()).ok());
        return t.id;
      },
      [](Repository& r, const std::string& t) { return r.DeleteTree(t, WriteCheck::Trusted()).status(); },
      [](Repository& r, const std::string& t) { return !r.GetObject(t).ok(); },
      [](Repository& r, const std::string&, bool effect) {
        CHECK(r.GetObjectByPath("tree").ok() == !effect);
        CHECK(r.GetObjectByPath("tree/sub/b.txt").ok() == !effect);
        auto out = r.GetCheckedOut("");
        REQUIRE(out.ok());
        CHECK(out->size() == (effect ? 0u : 1u));
        if (!effect) CHECK(ContentOf(r, r.GetObjectByPath("tree/a.txt")->id) == "a");
      }};
}

// A file (and a folder) copied in by hand, adopted by the first read that finds it. The
// id given to it is what tells whether the adoption survived.
Scenario AdoptionScenario() {
  auto adopted = std::make_shared<std::string>();
  return {
      [](RepoFixture& f) {
        std::filesystem::create_directories(f.RepoPath("hand"));
        std::ofstream(f.RepoPath("hand/one.txt")) << "by hand";
        std::ofstream(f.RepoPath("hand/two.txt")) << "also by hand";
        return std::string("hand/one.txt");
      },
      [adopted](Repository& r, const std::string& path) {
        auto o = r.GetObjectByPath(path);
        if (o.ok()) *adopted = o->series_id;
        return o.status();
      },
      [adopted](Repository& r, const std::string&) { return !adopted->empty() && r.GetObject(*adopted).ok(); },
      [](Repository& r, const std::string& path, bool) {
        auto one = r.GetObjectByPath(path);
        REQUIRE_MESSAGE(one.ok(), one.status().ToString());
        CHECK(one->properties["cmis:versionLabel"] == "1.0");
        CHECK(ContentOf(r, one->id) == "by hand");
        auto two = r.GetObjectByPath("hand/two.txt");
        REQUIRE(two.ok());
        CHECK(ContentOf(r, two->id) == "also by hand");
      }};
}

// The events of `type` in the whole log, sorted.
std::vector<std::string> EventsOf(Repository& r, const std::string& type) {
  auto page = r.ReadChanges(1, 1000);
  REQUIRE_MESSAGE(page.ok(), page.status().ToString());
  std::vector<std::string> out;
  for (const ChangeEventInfo& e : page->events) {
    if (e.type == type) out.push_back(e.object_id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> DeletedEvents(Repository& r) { return EventsOf(r, "deleted"); }

// A document created and renamed at once (two records of one epoch): a replay after a
// power loss must not make the first name again beside the second.
Scenario CreateThenRenameScenario() {
  return {
      [](RepoFixture& f) { return f.root; },
      [](Repository& r, const std::string& root) {
        NewObject o;
        o.name = "first.txt";
        auto d = r.CreateDocument(root, o, ContentSource::FromBytes("made", "text/plain"), VersioningState::kMajor, "a",
                                  WriteCheck::Trusted());
        if (!d.ok()) return d.status();
        return r.UpdateProperties(d->series_id, Json{{"cmis:name", "second.txt"}}, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("second.txt").ok(); },
      [](Repository& r, const std::string& root, bool effect) {
        auto page = r.GetChildren(root, 0, 10);
        REQUIRE_MESSAGE(page.ok(), page.status().ToString());
        if (effect) {
          REQUIRE(page->objects.size() == 1);
          CHECK(page->objects[0].name == "second.txt");
          CHECK(ContentOf(r, page->objects[0].id) == "made");
        } else {
          CHECK(page->objects.size() <= 1);
          if (!page->objects.empty()) CHECK(page->objects[0].name == "first.txt");
        }
      }};
}

// The first change of an adopted document (docs/STORAGE.md §4.1): it is given the files
// of an ordinary document (a change of its own), then renamed. Either state is whole:
// found by its id and its path, its content the file's, one "created" event.
Scenario FirstChangeOfAdoptedScenario() {
  return {
      [](RepoFixture& f) {
        std::ofstream(f.RepoPath("found.txt")) << "found on disk";
        std::ofstream(f.RepoPath("stays.txt")) << "stays adopted";
        auto o = f.repo->GetObjectByPath("found.txt");
        REQUIRE_MESSAGE(o.ok(), o.status().ToString());
        REQUIRE(f.repo->Checkpoint().ok());
        return o->series_id;
      },
      [](Repository& r, const std::string& s) {
        return r.UpdateProperties(s, Json{{"cmis:name", "renamed.txt"}}, "a", WriteCheck::Trusted()).status();
      },
      [](Repository& r, const std::string&) { return r.GetObjectByPath("renamed.txt").ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        CHECK(r.GetObjectByPath("found.txt").ok() == !effect);
        auto d = r.GetObject(s);
        REQUIRE_MESSAGE(d.ok(), d.status().ToString());
        CHECK(d->name == (effect ? "renamed.txt" : "found.txt"));
        CHECK(d->properties["cmis:versionLabel"] == "1.0");
        CHECK(ContentOf(r, d->id) == "found on disk");
        auto stays = r.GetObjectByPath("stays.txt");
        REQUIRE(stays.ok());
        CHECK(ContentOf(r, stays->id) == "stays adopted");
        auto page = r.ReadChanges(1, 1000);
        REQUIRE(page.ok());
        size_t created = 0;
        for (const ChangeEventInfo& e : page->events) created += e.type == "created" && e.object_id == d->id;
        CHECK(created == 1);
      }};
}

// An adopted document whose file was removed by hand, noticed by a lookup: its entry
// and its "deleted" event together, or neither.
Scenario AdoptedRemovedByHandScenario() {
  return {
      [](RepoFixture& f) {
        std::ofstream(f.RepoPath("brief.txt")) << "soon gone";
        std::ofstream(f.RepoPath("other.txt")) << "stays";
        auto o = f.repo->GetObjectByPath("brief.txt");
        REQUIRE_MESSAGE(o.ok(), o.status().ToString());
        REQUIRE(f.repo->Checkpoint().ok());
        std::filesystem::remove(f.RepoPath("brief.txt"));
        return o->id;  // its version 1.0, the id its "deleted" event names
      },
      [](Repository& r, const std::string&) {
        auto o = r.GetObjectByPath("brief.txt");
        if (o.ok()) return RuntimeError("a file removed by hand was found");
        return o.status().kind() == ErrorKind::kObjectNotFound ? OkStatus() : o.status();
      },
      [](Repository& r, const std::string&) { return !DeletedEvents(r).empty(); },
      [](Repository& r, const std::string& s, bool effect) {
        CHECK(DeletedEvents(r) == (effect ? std::vector<std::string>{s} : std::vector<std::string>{}));
        // Taken in by the next lookup, once.
        CHECK(r.GetObject(s).status().kind() == ErrorKind::kObjectNotFound);
        CHECK(DeletedEvents(r) == std::vector<std::string>{s});
        CHECK(r.GetObjectByPath("other.txt").ok());
        CHECK(DeletedEvents(r) == std::vector<std::string>{s});
      }};
}

// What folio import does: a new folder of files copied in (before the repository knows
// them), then adopted: one change for the folder, one for all its files (new series
// directories whose version records are written in place, docs/STORAGE.md §8.2).
// Checked without adopting anything first: the change log says which changes took
// effect, each whole (the folder's, then the documents' together); then every file is
// a document of version 1.0 holding its bytes.
Scenario ImportScenario() {
  static const std::vector<std::string> kFiles = {"a.txt", "b.bin", "c.txt", "d.md"};
  auto before = std::make_shared<size_t>(0);  // created events of the fixture itself
  const auto created = [before](Repository& r) { return EventsOf(r, "created").size() - *before; };
  return {
      [before](RepoFixture& f) {
        *before = EventsOf(*f.repo, "created").size();
        std::filesystem::create_directories(f.RepoPath("imported"));
        for (const std::string& n : kFiles) std::ofstream(f.RepoPath("imported/" + n)) << "bytes of " << n;
        return std::string("imported");
      },
      [](Repository& r, const std::string& folder) {
        for (const std::string& n : kFiles) FOLIO_RETURN_IF_ERROR(r.GetObjectByPath(folder + "/" + n).status());
        return OkStatus();
      },
      [created](Repository& r, const std::string&) { return created(r) == 1 + kFiles.size(); },
      [created](Repository& r, const std::string& folder, bool) {
        const size_t n_created = created(r);
        CHECK_MESSAGE((n_created == 0 || n_created == 1 || n_created == 1 + kFiles.size()), n_created);
        for (const std::string& n : kFiles) {
          auto doc = r.GetObjectByPath(folder + "/" + n);
          REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
          CHECK(doc->properties["cmis:versionLabel"] == "1.0");
          CHECK(ContentOf(r, doc->id) == "bytes of " + n);
        }
        CHECK(created(r) == 1 + kFiles.size());
      }};
}

// A folder tree removed by hand (rm -r) and noticed by a lookup of its id: its objects'
// deleted events and the removal of their index entries are all there or none.
Scenario FolderRemovedByHandScenario() {
  auto ids = std::make_shared<std::vector<std::string>>();
  return {
      [ids](RepoFixture& f) {
        const ObjectData top = f.Folder(f.root, "top");
        const ObjectData sub = f.Folder(top.id, "sub");
        const ObjectData a = f.Doc(top.id, "a.txt", "a");
        const ObjectData b = f.Doc(sub.id, "b.txt", "b");
        *ids = {top.id, sub.id, a.id, b.id};  // documents by their one version
        std::sort(ids->begin(), ids->end());
        std::filesystem::remove_all(f.RepoPath("top"));
        return top.id;
      },
      [](Repository& r, const std::string& top) {
        auto o = r.GetObject(top);
        if (o.ok()) return RuntimeError("a folder removed by hand was found");
        return o.status().kind() == ErrorKind::kObjectNotFound ? OkStatus() : o.status();
      },
      [](Repository& r, const std::string&) { return !DeletedEvents(r).empty(); },
      [ids](Repository& r, const std::string& top, bool effect) {
        // One change: every event or none.
        CHECK(DeletedEvents(r) == (effect ? *ids : std::vector<std::string>{}));
        // Not taken in yet: the next lookup takes it in, once.
        CHECK(r.GetObject(top).status().kind() == ErrorKind::kObjectNotFound);
        CHECK(DeletedEvents(r) == *ids);
        for (const std::string& id : *ids) CHECK(r.GetObject(id).status().kind() == ErrorKind::kObjectNotFound);
        CHECK(DeletedEvents(r) == *ids);
      }};
}

// Deleting the latest version of a document whose check-in renamed it ("a.txt" 1.0,
// "b.txt" 2.0): the document takes 1.0's name again, its visible file renamed back and
// holding 1.0's content (docs/API.md §7.8). Old: b.txt with 2.0; new: a.txt with 1.0.
Scenario DeleteRenamingLatestScenario() {
  return {
      [](RepoFixture& f) {
        ObjectData d = f.Doc(f.root, "a.txt", "one");
        auto pwc = f.repo->CheckOut(d.id, "a", WriteCheck::Trusted());
        REQUIRE(pwc.ok());
        CheckInRequest req;
        req.properties["cmis:name"] = "b.txt";
        req.content = ContentSource::FromBytes("two");
        REQUIRE(f.repo->CheckIn(pwc->id, req, "a", WriteCheck::Trusted()).ok());
        return d.series_id;
      },
      [](Repository& r, const std::string& s) { return r.Delete(s + ";2.0", false, WriteCheck::Trusted()); },
      [](Repository& r, const std::string& s) { return !r.GetObject(s + ";2.0").ok(); },
      [](Repository& r, const std::string& s, bool effect) {
        auto latest = r.GetObject(s);
        REQUIRE_MESSAGE(latest.ok(), latest.status().ToString());
        CHECK(latest->properties["cmis:versionLabel"] == (effect ? "1.0" : "2.0"));
        CHECK(latest->properties["cmis:name"] == (effect ? "a.txt" : "b.txt"));
        CHECK(ContentOf(r, s) == (effect ? "one" : "two"));
        CHECK(r.GetObjectByPath(effect ? "a.txt" : "b.txt").ok());
        CHECK(r.GetObjectByPath(effect ? "b.txt" : "a.txt").status().kind() == ErrorKind::kObjectNotFound);
      }};
}

// Every change that touches several files.
std::vector<std::pair<const char*, Scenario>> AllScenarios() {
  return {{"createDocument", CreateDocumentScenario()},
          {"checkOut", CheckOutScenario()},
          {"checkIn", CheckInScenario("two")},
          {"checkIn without content", CheckInScenario(std::nullopt)},
          {"cancelCheckOut", CancelScenario()},
          {"setContent", SetContentScenario()},
          {"move", MoveScenario()},
          {"rename", RenameScenario()},
          {"delete", DeleteScenario()},
          {"deleteTree", DeleteTreeScenario()},
          {"adoption", AdoptionScenario()},
          {"createDocument then rename", CreateThenRenameScenario()},
          {"first change of an adopted document", FirstChangeOfAdoptedScenario()},
          {"adopted document removed by hand", AdoptedRemovedByHandScenario()},
          {"import", ImportScenario()},
          {"folder removed by hand", FolderRemovedByHandScenario()},
          {"checkIn archiving older labels", CheckInArchivingScenario()},
          // Archived 1.0-1.2, listed 1.3 and 1.4.
          {"delete of an archived version", DeleteOneVersionScenario(5, "1.1")},
          // Archived 1.0-1.2, listed 1.3 (the fourth version archived all but one).
          {"delete of the last listed version", DeleteOneVersionScenario(4, "1.3")},
          {"delete of a latest version that renamed the document", DeleteRenamingLatestScenario()}};
}

}  // namespace

TEST_CASE("Failure: createDocument at every failing step creates all or nothing") {
  WalkFailures(CreateDocumentScenario());
}

TEST_CASE("Failure: checkIn at every failing step gives the old version or the new one") {
  WalkFailures(CheckInScenario("two"));
}

TEST_CASE("Failure: move at every failing step leaves the document in one place") {
  WalkFailures(MoveScenario());
}

TEST_CASE("Failure: a folder removed by hand, taken in at every failing step, is all or nothing") {
  WalkFailures(FolderRemovedByHandScenario());
}

TEST_CASE("Failure: on MemFs, EIO or ENOSPC at every step of a change leaves old or new") {
  for (std::errc error : {std::errc::io_error, std::errc::no_space_on_device}) {
    CAPTURE(static_cast<int>(error));
    for (const auto& [name, scenario] : AllScenarios()) {
      const std::string scenario_name(name);  // clang 14 cannot capture a structured binding
      CAPTURE(scenario_name);
      for (bool seeded : {false, true}) {
        CAPTURE(seeded);
        WalkFailuresInMemory(scenario, error, seeded);
      }
    }
  }
}

TEST_CASE("Failure: on MemFs, EIO once at any step: the answer says whether the change was made") {
  // Not one request whose answer could say it: taking in what a person did by hand is
  // done by whichever read comes next (the check's own, after a failure), and an import
  // or a create-then-rename is several requests.
  const std::set<std::string> several = {"adopted document removed by hand", "folder removed by hand", "import",
                                         "createDocument then rename"};
  for (const auto& [name, scenario] : AllScenarios()) {
    const std::string scenario_name(name);  // clang 14 cannot capture a structured binding
    if (several.count(scenario_name) != 0) continue;
    CAPTURE(scenario_name);
    for (bool seeded : {false, true}) {
      CAPTURE(seeded);
      WalkTransientFailures(scenario, seeded);
    }
  }
}

TEST_CASE("Failure: a power loss at every step of a change leaves old or new (unsynced data dropped)") {
  for (const auto& [name, scenario] : AllScenarios()) {
    const std::string scenario_name(name);  // clang 14 cannot capture a structured binding
    CAPTURE(scenario_name);
    for (bool seeded : {false, true}) {
      CAPTURE(seeded);
      WalkPowerCuts(scenario, PowerLoss::kDropUnsynced, seeded);
    }
  }
}

TEST_CASE("Failure: a power loss at every step of a change leaves old or new (every ordered prefix kept)") {
  for (const auto& [name, scenario] : AllScenarios()) {
    const std::string scenario_name(name);  // clang 14 cannot capture a structured binding
    CAPTURE(scenario_name);
    for (bool seeded : {false, true}) {
      CAPTURE(seeded);
      WalkPowerCuts(scenario, PowerLoss::kKeepPrefix, seeded);
    }
  }
}
