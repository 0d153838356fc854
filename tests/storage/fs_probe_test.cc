// ProbeFilesystem (storage/fs_probe.h): what it finds on the local disk, the test switch
// FOLIO_FS_WITHOUT, the one line it logs, and the refusal of a filesystem without locks,
// which a Store opened for writing passes on, leaving nothing behind.
#include "storage/fs_probe.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "folio/store.h"
#include "storage/datetime.h"
#include "storage/racy_window.h"
#include "support/repo_fixture.h"
#include "support/temp_dir.h"

namespace folio::testing {
namespace {

// Sets FOLIO_FS_WITHOUT for one scope (and undoes what a Store opened meanwhile
// adapted process-wide).
class Without {
 public:
  explicit Without(const char* value) { ::setenv("FOLIO_FS_WITHOUT", value, 1); }
  ~Without() {
    ::unsetenv("FOLIO_FS_WITHOUT");
    storage::ResetRacyWindowForTest();
  }
};

size_t EntriesIn(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("FsProbe: the local disk offers every call, and the probe leaves nothing behind") {
  TempDir dir;
  auto probe = storage::ProbeFilesystem(dir.path());
  REQUIRE_MESSAGE(probe.ok(), probe.status().ToString());
  const FsFeatures& f = probe->features;
  CHECK(f.rename_noreplace);
  CHECK(f.rename_exchange);
  CHECK(f.openat2);
  CHECK(f.flock);
  CHECK(f.ofd_locks);
  CHECK(f.hard_links);
  CHECK(f.dir_fsync);
  CHECK(f.fine_timestamps);
  CHECK(probe->missing.empty());
  CHECK_FALSE(probe->type.empty());
  CHECK(EntriesIn(dir.path()) == 0);
  const std::string line = storage::DescribeChoices(*probe);
  CHECK(Contains(line, "filesystem " + probe->type + ": new names by RENAME_NOREPLACE"));
  CHECK(Contains(line, "spare files swapped in by RENAME_EXCHANGE"));
  CHECK(storage::RequireUsable(*probe, dir.path()).ok());
}

TEST_CASE("FsProbe: FOLIO_FS_WITHOUT turns features off, and names an unknown one") {
  auto some = storage::WithoutFeatures(FsFeatures{}, "rename_noreplace,,flock");
  REQUIRE(some.ok());
  CHECK_FALSE(some->rename_noreplace);
  CHECK_FALSE(some->flock);
  CHECK(some->rename_exchange);
  CHECK(some->hard_links);
  auto all = storage::WithoutFeatures(FsFeatures{}, "all");
  REQUIRE(all.ok());
  CHECK_FALSE(all->openat2);
  CHECK_FALSE(all->tmpfile);
  auto bad = storage::WithoutFeatures(FsFeatures{}, "flock,rename_sideways");
  CHECK(bad.status().kind() == ErrorKind::kInvalidArgument);
  CHECK(Contains(bad.status().message(), "'rename_sideways'"));

  TempDir dir;
  Without without("rename_noreplace,rename_exchange,fine_timestamps");
  auto probe = storage::ProbeFilesystem(dir.path());
  REQUIRE(probe.ok());
  CHECK_FALSE(probe->features.rename_noreplace);
  CHECK(probe->missing.empty());
  const std::string line = storage::DescribeChoices(*probe);
  CHECK(Contains(line, "new names by link then unlink (files) and a flock-guarded rename (directories)"));
  CHECK(Contains(line, "no spare files (no RENAME_EXCHANGE)"));
  CHECK(Contains(line, "whole-second timestamps"));
}

TEST_CASE("FsProbe: a Store for writing uses the fallbacks, and refuses a filesystem without locks") {
  TempDir dir;
  {
    // RenameNoReplace made a domain's directory, as on MooseFS: by the fallback.
    Without without("rename_noreplace,rename_exchange,openat2,flock,dir_fsync,fine_timestamps");
    auto store = Store::Open(dir.path());
    REQUIRE_MESSAGE(store.ok(), store.status().ToString());
    CHECK(Contains(storage::ProbedChoices(dir.path()), "link then unlink"));
    CHECK(Contains(storage::ProbedChoices(dir.path()), "open file description locks (no flock)"));
    REQUIRE((*store)->CreateDomain("acme", "").ok());
    CHECK((*store)->CreateDomain("acme", "").status().kind() == ErrorKind::kContentAlreadyExists);
    auto domains = (*store)->ListDomains();
    REQUIRE(domains.ok());
    CHECK(domains->size() == 1);
  }
  {
    // Reads never write: no probe (the probe's directory would be a change).
    TempDir other;
    auto read_only = Store::Open(other.path(), StoreOptions{.read_only = true});
    REQUIRE(read_only.ok());
    CHECK(storage::ProbedChoices(other.path()).empty());
    CHECK(EntriesIn(other.path()) == 0);
  }
  TempDir empty;
  Without without("flock,ofd_locks");
  auto refused = Store::Open(empty.path());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().kind() == ErrorKind::kStorage);
  CHECK(Contains(refused.status().message(), "'" + std::filesystem::canonical(empty.path()).string() + "'"));
  CHECK(Contains(refused.status().message(), "neither flock nor open file description locks"));
  CHECK(Contains(refused.status().message(), "docs/DEPLOY.md"));
  CHECK(EntriesIn(empty.path()) == 0);
}

}  // namespace folio::testing

namespace folio::testing {

TEST_CASE("FsProbe: with whole-second timestamps, a file changed within the last second is racy") {
  const int64_t now = storage::WallNowNs();
  CHECK_FALSE(storage::IsRacy(now - 500'000'000));
  CHECK(storage::IsRacy(now - 50'000'000));
  FsFeatures coarse;
  coarse.fine_timestamps = false;
  storage::AdaptToFilesystem(coarse);
  // A second's tick: a file stamped at the start of this second may change again unseen.
  CHECK(storage::IsRacy(now - 500'000'000));
  CHECK(storage::IsRacy(now - 1'050'000'000));
  CHECK_FALSE(storage::IsRacy(now - 1'500'000'000));
  storage::AdaptToFilesystem(FsFeatures{});  // never narrows
  CHECK(storage::IsRacy(now - 500'000'000));
  storage::ResetRacyWindowForTest();
  CHECK_FALSE(storage::IsRacy(now - 500'000'000));
}

}  // namespace folio::testing
