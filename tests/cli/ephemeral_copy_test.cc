// EphemeralCopy: the copy and its owner mark, removal, a missing source; the sweep
// itself is tested end to end in serve_process_test.cc.
#include "cli/ephemeral_copy.h"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "http/server_fixture.h"

namespace folio::testing {
namespace {

namespace fs = std::filesystem;

// Sets TMPDIR for the lifetime of the object.
struct TmpDirEnv {
  explicit TmpDirEnv(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~TmpDirEnv() {
    if (old_) {
      ::setenv("TMPDIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  std::optional<std::string> old_;
};

TEST_CASE("EphemeralCopy: a marked copy in $TMPDIR, removed with the object; the source is untouched") {
  TempDir source;
  BuildFixtureData(source.path());
  TempDir tmp;
  TmpDirEnv env(tmp.path() + "/");
  CHECK(cli::EphemeralParentDir() == tmp.path());
  std::string root;
  {
    auto copy = cli::EphemeralCopy::Make(source.path());
    REQUIRE_MESSAGE(copy.ok(), copy.status().ToString());
    root = (*copy)->root();
    CHECK(fs::path(root).parent_path() == tmp.path());
    CHECK(fs::path(root).filename().string().rfind("folio-ephemeral-", 0) == 0);
    CHECK((*copy)->data_dir() == root + "/data");
    std::ifstream in((*copy)->data_dir() + "/demo/beta/docs/readme.txt");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(text == "hello");
    auto mark = nlohmann::json::parse(std::ifstream(root + "/owner.json"));
    CHECK(mark["folioEphemeral"] == 1);
    CHECK(mark["pid"] == ::getpid());
    CHECK(mark["startTime"].get<uint64_t>() > 0);
    CHECK(!mark["bootId"].get<std::string>().empty());
    CHECK(mark["pidNamespace"].get<std::string>().rfind("pid:[", 0) == 0);
    // A write to the copy leaves the source as it was.
    std::ofstream((*copy)->data_dir() + "/demo/beta/docs/readme.txt") << "changed";
    // The sweep leaves a live process's copy alone.
    CHECK(cli::RemoveAbandonedEphemeralCopies().empty());
    CHECK(fs::exists(root));
  }
  CHECK(!fs::exists(root));
  std::ifstream in(source / "demo/beta/docs/readme.txt");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text == "hello");
}

TEST_CASE("EphemeralCopy: a missing source is kObjectNotFound naming it, and leaves nothing in $TMPDIR") {
  TempDir tmp;
  TmpDirEnv env(tmp.path());
  auto copy = cli::EphemeralCopy::Make(tmp / "nope");
  REQUIRE(!copy.ok());
  CHECK(copy.status().kind() == ErrorKind::kObjectNotFound);
  CHECK(copy.status().message() == "data directory '" + tmp / "nope" + "' does not exist");
  CHECK(fs::is_empty(tmp.path()));
}

}  // namespace
}  // namespace folio::testing
