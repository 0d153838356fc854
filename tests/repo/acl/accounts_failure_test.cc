// A disk that fails at any step of a change of users or groups (EIO, ENOSPC), or loses
// its power at any step under both of MemFs's power loss models: the change reports
// kStorage or success, and afterwards the domain holds the old users and groups or the
// new ones, never a mix, whether the next process (DomainAccounts) or fsck --repair
// finds the disk; fsck then finds nothing wrong. A change reported done survives a
// power loss right after it. The model is tests/repo/failure_test.cc.
#include <doctest/doctest.h>

#include <functional>
#include <memory>

#include "folio/fsck.h"
#include "folio/store.h"
#include "repo/acl/accounts.h"
#include "repo/acl/sample_user.h"
#include "storage/layout.h"
#include "storage/mem_fs.h"
#include "support/faulty_fs.h"

using namespace folio;
using namespace folio::acl;
using folio::storage::MemFs;
using folio::storage::PowerLoss;
using folio::testing::FaultyFs;

namespace {

using Ids = std::vector<std::string>;

UserRecord User(const std::string& id) { return folio::testing::SampleUser(id); }

// Domain "acme" with alice (administrator) and bob, group "team" = {bob}, all durable.
MemFs Fixture() {
  MemFs disk;
  {
    auto store = Store::Open(disk);
    REQUIRE(store.ok());
    REQUIRE((*store)->CreateDomain("acme", "").ok());
    DomainAccounts accounts(disk, "acme", false);
    REQUIRE(accounts.CreateUser(User("alice")).ok());
    REQUIRE(accounts.CreateUser(User("bob")).ok());
    REQUIRE(accounts.CreateGroup("team", {"bob"}).ok());
  }  // the committer checkpoints when it goes: the log is empty at rest
  REQUIRE(disk.SyncAll().ok());
  return disk;
}

// One change: `change` makes it; `state` describes the users and groups as a string
// that must be `before` or `after` once the disk is read again.
struct Scenario {
  const char* name;
  std::function<Status(DomainAccounts&)> change;
  std::string before, after;
};

// Users (with their groups, nested ones resolved) and groups (with members).
std::string State(const Principals& p) {
  std::string out;
  for (const auto& [id, u] : p.users()) {
    out += "user " + u.id + " '" + u.display_name + "' in";
    for (const std::string& g : p.GroupsOf(u.id)) out += " " + g;
    out += "; ";
  }
  for (const auto& [id, g] : p.groups()) {
    out += "group " + g.id + ":";
    for (const std::string& m : g.members) out += " " + m;
    out += "; ";
  }
  return out;
}

std::string StateOn(Fs& fs) {
  DomainAccounts accounts(fs, "acme", false);
  auto p = accounts.Current();
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  return State(**p);
}

void ExpectFsckClean(MemFs& disk) {
  auto report = RunFsck(disk, FsckOptions{});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  for (const Finding& f : report->findings) {
    if (f.severity != Severity::kNote) FAIL_CHECK(f.id << " " << f.path << ": " << f.message);
  }
}

// What the disk holds after a failure, read two ways: fsck --repair on a copy (as an
// operator would, before any server starts), and the next process on the disk itself.
// Both give the old state or the new one, the same one; fsck is clean afterwards.
// Returns whether the change took effect.
// `pending`, if given, is set when fsck found committed changes left unapplied.
bool Recheck(const Scenario& sc, MemFs& disk, bool* pending = nullptr) {
  MemFs repaired = disk.Clone();
  {
    auto report = RunFsck(repaired, FsckOptions{.repair = true});
    REQUIRE_MESSAGE(report.ok(), report.status().ToString());
    CHECK_MESSAGE(report->clean(), storage::DumpTree(repaired, "acme/.folio"));
    for (const Finding& f : report->findings) {
      if (f.id == "log-pending" && pending != nullptr) {
        CHECK(f.path == "acme/.folio/log");
        CHECK(f.repair == "applied the pending changes");
        *pending = true;
      }
    }
  }
  const std::string by_fsck = StateOn(repaired);
  const std::string by_server = StateOn(disk);
  CHECK(by_fsck == by_server);
  const bool effect = by_server == sc.after;
  if (!effect) CHECK_MESSAGE(by_server == sc.before, "a mix of old and new: " << by_server);
  ExpectFsckClean(disk);
  ExpectFsckClean(repaired);
  return effect;
}

Status Change(const Scenario& sc, Fs& fs) {
  DomainAccounts accounts(fs, "acme", false);
  return sc.change(accounts);
}

void WalkFailures(const Scenario& sc, std::errc error) {
  const MemFs fixture = Fixture();
  bool committed_then_failed = false, pending_seen = false;
  for (int step = 0;; ++step) {
    CAPTURE(step);
    MemFs disk = fixture.Clone();
    FaultyFs faulty(disk, FaultyFs::FailFrom(step, error));
    const Status s = Change(sc, faulty);
    if (!faulty.fired()) {
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      CHECK(Recheck(sc, disk));
      break;
    }
    if (!s.ok()) {
      CHECK(s.kind() == ErrorKind::kStorage);
      CHECK(s.Is(error));
    }
    const bool effect = Recheck(sc, disk, &pending_seen);
    if (s.ok()) CHECK(effect);
    if (!s.ok() && effect) committed_then_failed = true;
    REQUIRE(step < 200);
  }
  // Some step fails after the commit point: the record alone carries the change, and
  // fsck finds it pending and applies it.
  CHECK(committed_then_failed);
  CHECK(pending_seen);
}

void WalkPowerCuts(const Scenario& sc, PowerLoss model) {
  const MemFs fixture = Fixture();
  for (int step = 0;; ++step) {
    for (size_t keep = 0;; ++keep) {
      CAPTURE(step);
      CAPTURE(keep);
      MemFs disk = fixture.Clone();
      FaultyFs faulty(disk, FaultyFs::CutPowerAt(step, model, keep));
      const Status s = Change(sc, faulty);
      if (!faulty.fired()) {
        REQUIRE_MESSAGE(s.ok(), s.ToString());
        for (size_t k = 0; k <= disk.OpsSinceBarrier(); ++k) {
          CAPTURE(k);
          MemFs after = disk.Clone();
          after.LosePower(model, k);
          CHECK_MESSAGE(Recheck(sc, after), "a change reported done was lost");
          if (model == PowerLoss::kDropUnsynced) break;
        }
        return;
      }
      if (!s.ok()) CHECK(s.kind() == ErrorKind::kStorage);
      const bool effect = Recheck(sc, disk);
      if (s.ok()) CHECK(effect);
      if (model == PowerLoss::kDropUnsynced || keep >= faulty.ops_at_cut()) break;
    }
    REQUIRE(step < 200);
  }
}

const std::string kBefore =
    "user alice 'User alice' in admin user; user bob 'User bob' in team user; group admin: alice; group team: bob; ";

std::vector<Scenario> Scenarios() {
  return {
      {"createUser",
       [](DomainAccounts& a) { return a.CreateUser(User("carol")).status(); }, kBefore,
       "user alice 'User alice' in admin user; user bob 'User bob' in team user; user carol 'User carol' in user; "
       "group admin: alice; group team: bob; "},
      {"updateUser",
       [](DomainAccounts& a) {
         UserChanges c;
         c.display_name = "Robert";
         return a.UpdateUser("bob", c).status();
       },
       kBefore,
       "user alice 'User alice' in admin user; user bob 'Robert' in team user; group admin: alice; group team: bob; "},
      {"deleteUser (its file and its membership in team)", [](DomainAccounts& a) { return a.DeleteUser("bob"); },
       kBefore, "user alice 'User alice' in admin user; group admin: alice; group team:; "},
      {"createGroup", [](DomainAccounts& a) { return a.CreateGroup("ops", {"alice", "team"}).status(); }, kBefore,
       "user alice 'User alice' in admin ops user; user bob 'User bob' in ops team user; group admin: alice; "
       "group ops: alice team; group team: bob; "},
      {"updateGroup (admin: bob joins)", [](DomainAccounts& a) { return a.UpdateGroup("admin", {"alice", "bob"}).status(); },
       kBefore,
       "user alice 'User alice' in admin user; user bob 'User bob' in admin team user; group admin: alice bob; "
       "group team: bob; "},
      {"deleteGroup (its file and nothing else)", [](DomainAccounts& a) { return a.DeleteGroup("team"); }, kBefore,
       "user alice 'User alice' in admin user; user bob 'User bob' in user; group admin: alice; "},
  };
}

}  // namespace

TEST_CASE("Accounts failures: the fixture's state is what the scenarios start from") {
  MemFs disk = Fixture();
  CHECK(StateOn(disk) == kBefore);
  // Every change went through the commit log; the format-1 journal is not made.
  CHECK(Exists(disk, storage::DomainCommitLayout("acme").LogFile()));
  CHECK_FALSE(Exists(disk, storage::DomainJournalDir("acme")));
  ExpectFsckClean(disk);
}

TEST_CASE("Accounts failures: EIO at every step of each change of users and groups") {
  for (const Scenario& sc : Scenarios()) {
    CAPTURE(sc.name);
    WalkFailures(sc, std::errc::io_error);
  }
}

TEST_CASE("Accounts failures: ENOSPC at every step of each change of users and groups") {
  for (const Scenario& sc : Scenarios()) {
    CAPTURE(sc.name);
    WalkFailures(sc, std::errc::no_space_on_device);
  }
}

TEST_CASE("Accounts failures: a power cut at every step (unsynced changes dropped)") {
  for (const Scenario& sc : Scenarios()) {
    CAPTURE(sc.name);
    WalkPowerCuts(sc, PowerLoss::kDropUnsynced);
  }
}

TEST_CASE("Accounts failures: a power cut at every step (any ordered prefix of unsynced changes kept)") {
  for (const Scenario& sc : Scenarios()) {
    CAPTURE(sc.name);
    WalkPowerCuts(sc, PowerLoss::kKeepPrefix);
  }
}
