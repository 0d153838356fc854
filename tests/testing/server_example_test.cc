// The example of include/folio/testing.h, as a test: the code between BEGIN EXAMPLE and
// END EXAMPLE is the header's example, line for line (server_test.cc checks that).
// Built in the suite, and against an installed Folio by tests/packaging/install_test.sh.
#include <doctest/doctest.h>
#include <folio/testing.h>

#include <cstdio>
#include <filesystem>
#include <string>

#ifndef FOLIO_SAMPLE_DATA
#define FOLIO_SAMPLE_DATA FOLIO_SOURCE_DIR "/sample-data"
#endif

namespace {

// The test's HTTP client: `curl -sS ARGS`, its output.
std::string Curl(const std::string& args) {
  std::string out;
  FILE* p = ::popen(("curl -sS " + args).c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  REQUIRE(::pclose(p) == 0);
  return out;
}

// BEGIN EXAMPLE
TEST_CASE("a client reads the sample data and writes to its own copy") {
  folio::testing::Server server(FOLIO_SAMPLE_DATA);  // a copy of sample-data/, on a free port
  const std::string repo = server.url() + "demo/cmis";  // server.url() + "demo" is a CMIS service URL
  CHECK(Curl(repo + "/README.md").rfind("# Welcome to Folio", 0) == 0);
  Curl("-d operation=createFolder -d name=scratch " + repo);
  CHECK(std::filesystem::is_directory(server.data_dir() + "/demo/cmis/scratch"));
}  // the server stops here and its copy is removed; sample-data/ never changed
// END EXAMPLE

}  // namespace
