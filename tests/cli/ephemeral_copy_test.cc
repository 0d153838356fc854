// EphemeralCopy: the copy and its owner mark, removal, a missing source; the sweep
// itself is tested end to end in serve_process_test.cc.
#include "cli/ephemeral_copy.h"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/wait.h>
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

// A copy left with a mark of its own (what a killed server leaves), as text.
void LeaveCopy(const std::string& tmp, const std::string& name, const std::string& mark) {
  fs::create_directories(tmp + "/" + name + "/data");
  std::ofstream(tmp + "/" + name + "/owner.json") << mark;
}

TEST_CASE("EphemeralCopy: the sweep reads marks edited by hand without throwing, and removes only a gone maker's") {
  TempDir tmp;
  TmpDirEnv env(tmp.path());
  // A pid that is certainly gone: a child that has exited and been reaped.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  const std::string gone = "{\"folioEphemeral\":1,\"pid\":" + std::to_string(child) +
                           ",\"startTime\":12345,\"bootId\":\"\",\"pidNamespace\":\"\"}";
  LeaveCopy(tmp.path(), "folio-ephemeral-gone01", gone);
  // Marks of the wrong types, or not objects at all: judged "cannot tell", kept.
  LeaveCopy(tmp.path(), "folio-ephemeral-types1",
            R"({"folioEphemeral":"1","pid":"12","startTime":-4,"bootId":5,"pidNamespace":[]})");
  LeaveCopy(tmp.path(), "folio-ephemeral-types2",
            R"({"folioEphemeral":1,"pid":1.5,"startTime":"x","bootId":{},"pidNamespace":null})");
  LeaveCopy(tmp.path(), "folio-ephemeral-types3",
            "{\"folioEphemeral\":1,\"pid\":" + std::to_string(child) +
                ",\"startTime\":12345,\"bootId\":false,\"pidNamespace\":7}");
  LeaveCopy(tmp.path(), "folio-ephemeral-array1", "[1,2,3]");
  LeaveCopy(tmp.path(), "folio-ephemeral-broken", "{not json");
  std::vector<std::string> removed;
  CHECK_NOTHROW(removed = cli::RemoveAbandonedEphemeralCopies());
  // bootId "" and pidNamespace "" are another namespace than ours: that mark cannot be
  // judged either, unless the namespace matches. Read ours from the mark a copy writes.
  CHECK(removed.empty());
  CHECK(fs::exists(tmp / "folio-ephemeral-gone01"));
  // The same gone maker, in our namespace: removed.
  TempDir source;
  BuildFixtureData(source.path());
  std::string ours;
  {
    auto copy = cli::EphemeralCopy::Make(source.path());
    REQUIRE_MESSAGE(copy.ok(), copy.status().ToString());
    ours = nlohmann::json::parse(std::ifstream((*copy)->root() + "/owner.json"))["pidNamespace"];
  }
  LeaveCopy(tmp.path(), "folio-ephemeral-gone02",
            "{\"folioEphemeral\":1,\"pid\":" + std::to_string(child) +
                ",\"startTime\":12345,\"bootId\":\"\",\"pidNamespace\":\"" + ours + "\"}");
  CHECK_NOTHROW(removed = cli::RemoveAbandonedEphemeralCopies());
  CHECK(removed == std::vector<std::string>{tmp / "folio-ephemeral-gone02"});
  CHECK(!fs::exists(tmp / "folio-ephemeral-gone02"));
  for (const char* kept : {"folio-ephemeral-gone01", "folio-ephemeral-types1", "folio-ephemeral-types2",
                           "folio-ephemeral-types3", "folio-ephemeral-array1", "folio-ephemeral-broken"}) {
    CHECK_MESSAGE(fs::exists(tmp / kept), kept);
  }
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
