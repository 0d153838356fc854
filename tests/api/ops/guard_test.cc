// The operations reach a repository only through the caller's guarded view
// (acl::GuardedRepository, docs/API.md §11.3), so that a new operation cannot skip an
// access check: Context holds nothing else (checked by the compiler below), and no file
// of src/api/ops names another way to a Repository (checked by reading them), but for
// the one escape, UnguardedRepository (unguarded.cc), called from the domain
// operations only.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <type_traits>

#include "api/ops/ops.h"

namespace folio::api::ops {
namespace {

static_assert(std::is_same_v<decltype(Context::repo), std::shared_ptr<acl::GuardedRepository>>,
              "an operation reaches its repository through the caller's guarded view only");

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines of `text` matching `pattern`, as "file:line: text".
std::vector<std::string> Matches(const std::string& file, const std::string& text, const std::regex& pattern) {
  std::vector<std::string> found;
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (std::regex_search(line, pattern)) found.push_back(file + ":" + std::to_string(n) + ": " + line);
  }
  return found;
}

// Ways to a Repository itself: a Store's lookup, a reference, pointer or shared_ptr of
// one, the repository's own object lookups and a hand-made WriteCheck.
const std::regex kWayOut(R"(GetRepository\(|\bRepository\s*[&*>]|\bRepository::Open\b)"
                         R"(|GetObjectShared|GetObjectByPathShared|\bWriteCheck\b)");
const std::regex kEscape(R"(\bUnguardedRepository\()");

}  // namespace

TEST_CASE("Ops guard: src/api/ops reaches a repository only through the guarded view") {
  const std::filesystem::path dir = std::filesystem::path(FOLIO_SOURCE_DIR) / "src" / "api" / "ops";
  std::vector<std::string> ways_out;
  std::set<std::string> escape_users;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".cc") && !name.ends_with(".h")) continue;
    ++files;
    const std::string text = ReadText(entry.path());
    const std::vector<std::string> found = Matches(name, text, kWayOut);
    if (name == "unguarded.cc") {
      // The escape itself: the pattern finds it (so it would find another).
      CHECK(found.size() == 2);
    } else if (name == "ops.h") {
      // Its declaration, and nothing else.
      REQUIRE(found.size() == 1);
      CHECK(std::regex_search(found[0], kEscape));
    } else {
      ways_out.insert(ways_out.end(), found.begin(), found.end());
    }
    if (!Matches(name, text, kEscape).empty()) escape_users.insert(name);
  }
  CHECK(files > 10);
  std::string listed;
  for (const std::string& line : ways_out) listed += "\n  " + line;
  CHECK_MESSAGE(ways_out.empty(), "ways to a Repository outside acl::GuardedRepository:", listed);
  // The domain operations only: deleteUser/deleteGroup, updateGroup and getRepositories.
  CHECK(escape_users == std::set<std::string>{"domain_ops.cc", "ops.h", "unguarded.cc", "user_ops.cc"});
}

}  // namespace folio::api::ops
