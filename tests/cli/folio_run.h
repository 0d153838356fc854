// Running the folio executable (FOLIO_BINARY) from a test as a user runs it:
// its exit code, standard output and standard error.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/repo_fixture.h"
#include "support/temp_dir.h"

namespace folio::testing {

struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `folio ARGS` (ARGS already quoted) and collects its exit code, stdout,
// stderr.
inline Run Folio(const std::string& args) {
  TempDir tmp;
  const std::string err_file = tmp / "stderr";
  const std::string cmd = Quote(FOLIO_BINARY) + " " + args + " 2>" + Quote(err_file);
  Run r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = ReadFile(err_file);
  return r;
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

inline std::string LastLine(const std::string& text) {
  const std::vector<std::string> lines = Lines(text);
  return lines.empty() ? "" : lines.back();
}

}  // namespace folio::testing
