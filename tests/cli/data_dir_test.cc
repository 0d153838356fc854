// ClassifyDirectory and NotADataDirectory: each kind of directory, and hints that read
// like the command line the user typed.
#include "cli/data_dir.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "http/server_fixture.h"

namespace folio::testing {
namespace {

using cli::ClassifyDirectory;
using cli::DirKind;
using cli::HintFor;
using cli::NotADataDirectory;
namespace fs = std::filesystem;

TEST_CASE("ClassifyDirectory: data, domain, repository, empty, other, missing, a file") {
  TempDir dir;
  BuildFixtureData(dir / "data");
  fs::create_directories(dir / "empty");
  fs::create_directories(dir / "other/sub");
  std::ofstream(dir / "file.txt") << "x";
  // A data directory whose marker was lost still has its domains.
  BuildFixtureData(dir / "unmarked");
  fs::remove(dir / "unmarked/.folio/folio.json");
  CHECK(ClassifyDirectory(dir / "data") == DirKind::kDataDirectory);
  CHECK(ClassifyDirectory(dir / "unmarked") == DirKind::kDataDirectory);
  CHECK(ClassifyDirectory(dir / "data/demo") == DirKind::kDomain);
  CHECK(ClassifyDirectory(dir / "data/demo/alpha") == DirKind::kRepository);
  CHECK(ClassifyDirectory(dir / "data/demo/alpha/docs") == DirKind::kOther);
  CHECK(ClassifyDirectory(dir / "empty") == DirKind::kEmpty);
  CHECK(ClassifyDirectory(dir / "other") == DirKind::kOther);
  CHECK(ClassifyDirectory(dir / "missing") == DirKind::kMissing);
  CHECK(ClassifyDirectory(dir / "file.txt") == DirKind::kNotADirectory);
}

TEST_CASE("NotADataDirectory: names the directory, says what it is and what to type instead") {
  CHECK(NotADataDirectory("data/demo/plain", DirKind::kRepository, HintFor::kInspect) ==
        "'data/demo/plain' is a repository directory, not a data directory: try folio inspect data demo/plain");
  CHECK(NotADataDirectory("data/demo/", DirKind::kDomain, HintFor::kServe) ==
        "'data/demo/' is a domain directory, not a data directory: try folio serve --data data");
  CHECK(NotADataDirectory("/srv/x", DirKind::kMissing, HintFor::kInspect) == "'/srv/x' does not exist");
  CHECK(NotADataDirectory("/srv/x", DirKind::kNotADirectory, HintFor::kInspect) == "'/srv/x' is not a directory");
  CHECK(NotADataDirectory("/home/me", DirKind::kOther, HintFor::kInspect) ==
        "'/home/me' is not a Folio data directory: it has no .folio/folio.json and no domains (folio serve --data "
        "DIR starts one in a new or empty directory)");
  // "." has no name to show: the hint uses the absolute path.
  const std::string here = fs::current_path().string();
  CHECK(NotADataDirectory(".", DirKind::kDomain, HintFor::kInspect) ==
        "'.' is a domain directory, not a data directory: try folio inspect " +
            fs::path(here).parent_path().string() + " " + fs::path(here).filename().string());
}

}  // namespace
}  // namespace folio::testing
