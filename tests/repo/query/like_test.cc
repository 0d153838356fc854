// CMIS LIKE: wildcards, escapes, UTF-8 characters, the literal prefix.
#include "repo/query/like.h"

#include <doctest/doctest.h>

using namespace folio::query;

namespace {
bool Like(const std::string& value, const std::string& pattern) { return LikeMatch(CompileLike(pattern), value); }
}  // namespace

TEST_CASE("Like: wildcards and escapes") {
  struct Case {
    const char* value;
    const char* pattern;
    bool match;
  };
  const Case cases[] = {
      {"report.txt", "report%", true},
      {"report.txt", "%.txt", true},
      {"report.txt", "%port%", true},
      {"report.txt", "Report%", false},
      {"report.txt", "report", false},
      {"report", "report", true},
      {"", "%", true},
      {"", "", true},
      {"a", "", false},
      {"", "_", false},
      {"ab", "_b", true},
      {"ab", "a_", true},
      {"abc", "a_", false},
      {"a%b", "a\\%b", true},
      {"axb", "a\\%b", false},
      {"a_b", "a\\_b", true},
      {"axb", "a\\_b", false},
      {"a\\b", "a\\\\b", true},
      {"it's", "it''s", true},
      {"it's", "it\\'s", true},
      {"aaa", "%a%a%a%", true},
      {"aa", "%a%a%a%", false},
      {"mississippi", "m%iss%pi", true},
      {"mississippi", "m%iss%px", false},
      {"über", "_ber", true},
      {"日本語", "日_語", true},
      {"日本語", "__", false},
      {"日本語", "___", true},
      {"x%", "x%%", true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.value);
    CAPTURE(c.pattern);
    CHECK(Like(c.value, c.pattern) == c.match);
  }
}

TEST_CASE("Like: a pathological pattern finishes (no exponential backtracking)") {
  std::string pattern;
  for (int i = 0; i < 200; ++i) pattern += "%a";
  pattern += "%b";
  CHECK_FALSE(Like(std::string(5000, 'a'), pattern));
  CHECK(Like(std::string(5000, 'a') + "b", pattern));
}

TEST_CASE("Like: the literal prefix an index range can use") {
  CHECK(LikePrefix(CompileLike("report%")) == "report");
  CHECK(LikePrefix(CompileLike("rep\\_ort_%")) == "rep_ort");
  CHECK(LikePrefix(CompileLike("%report")) == "");
  CHECK(LikePrefix(CompileLike("_x")) == "");
  CHECK(LikePrefix(CompileLike("exact")) == "exact");
}
