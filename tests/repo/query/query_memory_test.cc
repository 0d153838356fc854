// One query's memory (docs/API.md §12.4): what it holds in SQLite is bounded, a query
// that would need more is refused with constraint, and the index answers the next one.
#include <doctest/doctest.h>

#include <string>

#include "repo/query/query_fixture.h"
#include "repo/query/sqlite_memory.h"

using namespace folio;
using folio::testing::Names;
using folio::testing::QueryFixture;

namespace {

// `predicates` CONTAINS predicates of 14 terms each, ORed, none matching. With 500 (the
// grammar's limit) it is within every limit of the statement, and the most SQLite work
// a statement can ask.
std::string ContainsStatement(int predicates) {
  std::string s = "SELECT * FROM cmis:document WHERE ";
  for (int i = 0; i < predicates; ++i) {
    if (i > 0) s += " OR ";
    s += "CONTAINS('";
    for (int j = 0; j < 14; ++j) s += (j > 0 ? " OR q" : "q") + std::to_string(i) + "x" + std::to_string(j);
    s += "')";
  }
  return s;
}

bool Mentions(const Status& s, const std::string& part) { return s.message().find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Query memory: a hostile query is refused with constraint at 64 MiB, and the index answers on") {
  QueryFixture f;
  const std::string hostile = ContainsStatement(query::kMaxPredicates);
  REQUIRE(hostile.size() <= query::kMaxStatementBytes);
  auto refused = f.Run(hostile);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Mentions(refused.status(), "needs more than 64 MiB of memory"), refused.status().message());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{"a1.txt"});
}

TEST_CASE("Query memory: a query holds at most its bound; past it, constraint and nothing answered") {
  QueryFixture f;
  const std::string statement = ContainsStatement(40);
  auto hits = f.Run(statement);
  REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
  CHECK(hits->total == 0);
  MESSAGE("peak in SQLite of 40 CONTAINS of 14 terms: " << hits->memory_peak << " bytes");
  CHECK(hits->memory_peak > 0);
  CHECK(hits->memory_peak <= query::kQueryMemoryLimit);

  // A bound below what it needs: refused, naming the bound, whichever step needed more.
  query::QueryPage small;
  small.memory_limit = hits->memory_peak / 2;
  auto refused = f.Run(statement, small);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().kind() == ErrorKind::kConstraint);
  CHECK_MESSAGE(Mentions(refused.status(), "needs more than " + std::to_string(small.memory_limit) + " bytes of memory"),
                refused.status().message());

  // The index is unharmed: the same query within its bound, and a plain one, answer.
  auto again = f.Run(statement);
  REQUIRE_MESSAGE(again.ok(), again.status().ToString());
  CHECK(f.Set("SELECT * FROM cmis:document WHERE CONTAINS('fox')") == Names{"a1.txt"});
}

TEST_CASE("Query memory: the bound is the query's own: a small query under a small bound answers") {
  QueryFixture f;
  query::QueryPage page;
  page.memory_limit = uint64_t{4} << 20;
  auto hits = f.Run("SELECT * FROM cmis:document WHERE CONTAINS('fox')", page);
  REQUIRE_MESSAGE(hits.ok(), hits.status().ToString());
  CHECK(hits->total == 1);
  CHECK(hits->memory_peak <= page.memory_limit);
}
