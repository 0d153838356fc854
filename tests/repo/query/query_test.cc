// Queries against known data (query_fixture.h): every predicate with its NULL and type
// edge cases, exact result sets, ORDER BY, paging, versions, full text, and every error
// of binding.
#include <doctest/doctest.h>

#include "repo/query/query_fixture.h"

using namespace folio;
using folio::testing::Names;
using folio::testing::QueryFixture;

namespace {

const Names kAllDocuments = {"a1.txt", "a2.md", "b1.json",           "b2.bin",       "c1.txt", "c2.txt", "c3.txt",
                             "r.txt",  "v.txt", "O'Neil's plan.txt", "100%_done.txt"};

Names Without(Names all, std::initializer_list<const char*> drop) {
  for (const char* d : drop) all.erase(d);
  return all;
}

}  // namespace

TEST_CASE("Query: FROM a type covers its subtypes; working copies are never results") {
  QueryFixture f;
  CHECK(f.Set("SELECT * FROM cmis:document") == kAllDocuments);
  CHECK(f.Set("SELECT * FROM document") == kAllDocuments);  // both spellings
  CHECK(f.Set("SELECT * FROM cmis:folder") == Names{"", "A", "B", "C"});
  CHECK(f.Set("SELECT * FROM cmis:item") == Names{"it1"});
  CHECK(f.Set("SELECT * FROM cmis:relationship") == Names{"link"});
  CHECK(f.Set("SELECT * FROM acme:contract") == Names{"c1.txt", "c2.txt", "c3.txt"});
  CHECK(f.Set("SELECT * FROM acme:nda") == Names{"c3.txt"});
  // searchAllVersions: both versions of v.txt; draft.txt (only a working copy) never.
  auto all = f.Names("SELECT * FROM cmis:document", true);
  CHECK(all.size() == kAllDocuments.size() + 1);
  CHECK(std::count(all.begin(), all.end(), "v.txt") == 2);
  CHECK(std::count(all.begin(), all.end(), "draft.txt") == 0);
  CHECK(f.Ids("SELECT * FROM cmis:document WHERE cmis:name = 'v.txt'") == std::vector<std::string>{f.v.id});
}

TEST_CASE("Query: comparisons on strings, ids, integers, decimals, datetimes and booleans") {
  QueryFixture f;
  const char* d = "SELECT * FROM cmis:document WHERE ";
  auto q = [&](const std::string& where) { return f.Set(d + where); };
  CHECK(q("cmis:name = 'a1.txt'") == Names{"a1.txt"});
  CHECK(q("name = 'a1.txt'") == Names{"a1.txt"});
  CHECK(q("cmis:name = 'A1.TXT'") == Names{});  // case-sensitive
  CHECK(q("cmis:name = 'O\\'Neil\\'s plan.txt'") == Names{"O'Neil's plan.txt"});
  CHECK(q("cmis:name <> 'a1.txt'") == Without(kAllDocuments, {"a1.txt"}));
  CHECK(q("cmis:name < 'b'") == Names{"100%_done.txt", "O'Neil's plan.txt", "a1.txt", "a2.md"});
  CHECK(q("cmis:name >= 'r'") == Names{"r.txt", "v.txt"});
  CHECK(q("cmis:createdBy = 'carol'") == Names{"r.txt"});
  CHECK(q("cmis:objectId = '" + f.a1.id + "'") == Names{"a1.txt"});
  CHECK(f.Set("SELECT * FROM acme:contract WHERE acme:ref = 'X-1'") == Names{"c1.txt"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:parentId = '" + f.fA.id + "'") == Names{"B"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:path = '/A/B'") == Names{"B"});
  CHECK(f.Set("SELECT * FROM cmis:relationship WHERE cmis:sourceId = '" + f.a1.id + "'") == Names{"link"});

  const std::string c = "SELECT * FROM acme:contract WHERE ";
  auto k = [&](const std::string& where) { return f.Set(c + where); };
  CHECK(k("acme:count = 3") == Names{"c1.txt"});
  CHECK(k("acme:count = 3.0") == Names{"c1.txt"});
  CHECK(k("acme:count > 3") == Names{"c2.txt"});
  CHECK(k("acme:count >= 3") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:count <= 7") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:count <> 3") == Names{"c2.txt"});  // c3 has no count: neither = nor <>
  CHECK(k("acme:count < -1") == Names{});
  CHECK(k("acme:amount < 100") == Names{"c1.txt"});
  CHECK(k("acme:amount = 200") == Names{"c2.txt"});
  CHECK(k("acme:amount > 10.4") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:amount > 1.04E1") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:due < TIMESTAMP '2024-04-01T00:00:00.000Z'") == Names{"c1.txt"});
  CHECK(k("acme:due = TIMESTAMP '2024-03-01T12:00:00.000+02:00'") == Names{"c1.txt"});
  CHECK(k("acme:due = TIMESTAMP '2024-03-01T05:00:00-05:00'") == Names{"c1.txt"});
  CHECK(k("acme:due >= TIMESTAMP '2024-03-01T10:00:00.001Z'") == Names{"c2.txt"});
  CHECK(k("acme:signed = TRUE") == Names{"c1.txt"});
  CHECK(k("acme:signed = false") == Names{"c2.txt"});
  CHECK(k("acme:signed <> TRUE") == Names{"c2.txt"});
  CHECK(k("acme:heading = 'Alpha deal'") == Names{"c1.txt"});  // by its query name
  CHECK(q("cmis:creationDate >= TIMESTAMP '2024-01-01T00:18:00.000Z'") == Names{"O'Neil's plan.txt", "100%_done.txt"});
  CHECK(q("cmis:contentStreamLength = 4") == Names{"O'Neil's plan.txt", "100%_done.txt"});
  CHECK(f.Set(d + std::string("cmis:isLatestVersion = FALSE"), true) == Names{"v.txt"});
  CHECK(q("cmis:isVersionSeriesCheckedOut = TRUE") == Names{"v.txt"});
  CHECK(f.Names(d + std::string("cmis:versionSeriesId = '" + f.v.series_id + "'"), true).size() == 2);
  CHECK(f.Names(d + std::string("cmis:isMajorVersion = TRUE"), true).size() == 11);  // v.txt's 1.0, not 1.1
  CHECK(q("cmis:isMajorVersion = FALSE") == Names{"v.txt"});
  CHECK(f.Names(d + std::string("cmis:versionLabel = '1.0' AND cmis:name = 'v.txt'"), true).size() == 1);
}

TEST_CASE("Query: [NOT] IN, [NOT] LIKE, IS [NOT] NULL") {
  QueryFixture f;
  auto q = [&](const std::string& where) { return f.Set("SELECT * FROM cmis:document WHERE " + where); };
  auto k = [&](const std::string& where) { return f.Set("SELECT * FROM acme:contract WHERE " + where); };
  CHECK(q("cmis:name IN ('a1.txt', 'r.txt', 'nope')") == Names{"a1.txt", "r.txt"});
  CHECK(k("cmis:name NOT IN ('c1.txt')") == Names{"c2.txt", "c3.txt"});
  CHECK(k("acme:count IN (3, 7)") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:count NOT IN (3)") == Names{"c2.txt"});  // not set: not in the result either way
  CHECK(k("NOT acme:count IN (3)") == Names{"c2.txt"});
  CHECK(q("cmis:name LIKE 'a%'") == Names{"a1.txt", "a2.md"});
  CHECK(q("cmis:name LIKE 'c_.txt'") == Names{"c1.txt", "c2.txt", "c3.txt"});
  CHECK(q("cmis:name LIKE '%.md'") == Names{"a2.md"});
  CHECK(q("cmis:name LIKE '100\\%\\_%'") == Names{"100%_done.txt"});
  CHECK(q("cmis:name LIKE '100%'") == Names{"100%_done.txt"});
  CHECK(q("cmis:name LIKE 'O\\'Neil%'") == Names{"O'Neil's plan.txt"});
  CHECK(q("cmis:name LIKE 'A%'") == Names{});  // case-sensitive
  CHECK(q("cmis:name NOT LIKE '%.txt'") == Names{"a2.md", "b1.json", "b2.bin"});
  CHECK(q("cmis:description LIKE 'root%'") == Names{"r.txt"});
  CHECK(q("cmis:description NOT LIKE 'x%'") == Names{"r.txt"});  // the others have no description
  CHECK(q("cmis:contentStreamMimeType LIKE 'text/%'") == Without(kAllDocuments, {"b1.json", "b2.bin"}));
  CHECK(f.Set("SELECT * FROM acme:contract WHERE acme:ref LIKE 'X-%'") == Names{"c1.txt", "c2.txt"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:description IS NULL") == Names{"", "B", "C"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE cmis:description IS NOT NULL") == Names{"A"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE NOT cmis:description IS NULL") == Names{"A"});
  CHECK(k("acme:count IS NULL") == Names{"c3.txt"});
  CHECK(k("acme:count IS NOT NULL") == Names{"c1.txt", "c2.txt"});
  CHECK(k("acme:tags IS NULL") == Names{"c3.txt"});
  CHECK(k("acme:tags IS NOT NULL") == Names{"c1.txt", "c2.txt"});
  CHECK(q("cmis:checkinComment IS NULL") == kAllDocuments);
}

TEST_CASE("Query: ANY on multi-valued properties") {
  QueryFixture f;
  auto k = [&](const std::string& where) { return f.Set("SELECT * FROM acme:contract WHERE " + where); };
  CHECK(k("'red' = ANY acme:tags") == Names{"c1.txt"});
  CHECK(k("'green' = ANY acme:tags") == Names{"c2.txt"});
  CHECK(k("'purple' = ANY acme:tags") == Names{});
  CHECK(k("ANY acme:tags IN ('green', 'blue')") == Names{"c1.txt", "c2.txt"});
  CHECK(k("ANY acme:tags NOT IN ('red')") == Names{"c2.txt", "c3.txt"});  // none of its values is 'red'
  CHECK(k("NOT 'red' = ANY acme:tags") == Names{"c2.txt", "c3.txt"});
  CHECK(k("NOT ANY acme:tags IN ('red', 'green')") == Names{"c3.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE 'x' = ANY cmis:secondaryObjectTypeIds") == Names{});
  // FROM a secondary type: the objects that have one (none here).
  CHECK(f.Set("SELECT * FROM cmis:secondary") == Names{});
}

TEST_CASE("Query: CONTAINS searches text and names, case- and accent-insensitively") {
  QueryFixture f;
  auto q = [&](const std::string& text) { return f.Set("SELECT * FROM cmis:document WHERE CONTAINS('" + text + "')"); };
  CHECK(q("fox") == Names{"a1.txt"});
  CHECK(q("FOX") == Names{"a1.txt"});
  CHECK(q("quick fox") == Names{"a1.txt"});
  CHECK(q("quick dog") == Names{});
  CHECK(q("fox OR dog") == Names{"a1.txt", "a2.md"});
  CHECK(q("fox lazy OR dog") == Names{"a2.md"});
  CHECK(q("\"brown fox\"") == Names{"a1.txt"});
  CHECK(q("\"fox brown\"") == Names{});
  CHECK(q("zebra") == Names{"b1.json"});  // b2.bin is not text
  CHECK(q("contract -two") == Names{"c1.txt"});
  CHECK(q("-fox") == Without(kAllDocuments, {"a1.txt"}));
  CHECK(q("-fox -misc") == Without(kAllDocuments, {"a1.txt", "O'Neil's plan.txt", "100%_done.txt"}));
  CHECK(q("fox OR -misc") == Without(kAllDocuments, {"O'Neil's plan.txt", "100%_done.txt"}));
  CHECK(q("résumé") == Names{"r.txt"});
  CHECK(q("RESUME") == Names{"r.txt"});
  CHECK(q("über") == Names{"r.txt"});
  CHECK(q("ÜBER") == Names{"r.txt"});
  CHECK(q("straße") == Names{"r.txt"});
  CHECK(q("a2") == Names{"a2.md"});  // the name is searched too
  CHECK(q("heading") == Names{"a2.md"});
  CHECK(q("version") == Names{"v.txt"});
  CHECK(f.Names("SELECT * FROM cmis:document WHERE CONTAINS('version one')", true) ==
        std::vector<std::string>{"v.txt"});
  CHECK(f.Names("SELECT * FROM cmis:document WHERE CONTAINS('version one')").empty());  // the latest says "two"
  CHECK(f.Set("SELECT * FROM cmis:document d WHERE CONTAINS(d, 'fox') AND d.cmis:createdBy = 'alice'") ==
        Names{"a1.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE NOT CONTAINS('misc')") ==
        Without(kAllDocuments, {"O'Neil's plan.txt", "100%_done.txt"}));
  CHECK(f.Set("SELECT * FROM acme:contract WHERE CONTAINS('contract')") == Names{"c1.txt", "c2.txt"});
}

TEST_CASE("Query: SCORE() ranks full-text matches") {
  QueryFixture f;
  auto hits =
      f.Run("SELECT cmis:name, SCORE() FROM cmis:document WHERE CONTAINS('fox OR dog') ORDER BY SEARCH_SCORE DESC");
  REQUIRE(hits.ok());
  REQUIRE(hits->hits.size() == 2);
  for (const auto& h : hits->hits) {
    CHECK(h.score > 0);
    CHECK(h.score < 1);
  }
  CHECK(hits->hits[0].score >= hits->hits[1].score);
  auto plain = f.Run("SELECT cmis:name, SCORE() AS s FROM cmis:document WHERE cmis:name = 'a1.txt'");
  REQUIRE(plain.ok());
  REQUIRE(plain->hits.size() == 1);
  CHECK(plain->hits[0].score == 1.0);
}

TEST_CASE("Query: IN_FOLDER and IN_TREE by folder id") {
  QueryFixture f;
  CHECK(f.Set("SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "')") == Names{"a1.txt", "a2.md"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE IN_FOLDER('" + f.fA.id + "')") == Names{"B"});
  CHECK(f.Set("SELECT * FROM cmis:item WHERE IN_FOLDER('" + f.fA.id + "')") == Names{"it1"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE IN_FOLDER('" + f.root + "')") ==
        Names{"r.txt", "v.txt", "O'Neil's plan.txt", "100%_done.txt"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE IN_TREE('" + f.fA.id + "')") ==
        Names{"a1.txt", "a2.md", "b1.json", "b2.bin"});
  CHECK(f.Set("SELECT * FROM cmis:folder WHERE IN_TREE('" + f.root + "')") == Names{"A", "B", "C"});
  CHECK(f.Set("SELECT * FROM cmis:document WHERE NOT IN_TREE('" + f.fA.id + "')") ==
        Without(kAllDocuments, {"a1.txt", "a2.md", "b1.json", "b2.bin"}));
  CHECK(f.Set("SELECT * FROM cmis:relationship WHERE NOT IN_FOLDER('" + f.root + "')") == Names{"link"});
  CHECK(f.Set("SELECT * FROM cmis:document d WHERE IN_TREE(d, '" + f.fA.id + "') AND NOT IN_FOLDER(d, '" + f.fA.id +
              "')") == Names{"b1.json", "b2.bin"});
}

TEST_CASE("Query: AND, OR, NOT and parentheses") {
  QueryFixture f;
  auto q = [&](const std::string& where) { return f.Set("SELECT * FROM cmis:document WHERE " + where); };
  CHECK(q("(cmis:name = 'a1.txt' OR cmis:name = 'r.txt') AND cmis:createdBy = 'alice'") == Names{"a1.txt"});
  CHECK(q("cmis:name = 'a1.txt' OR cmis:name = 'r.txt' AND cmis:createdBy = 'alice'") == Names{"a1.txt"});
  CHECK(q("NOT (cmis:name = 'a1.txt' OR IN_FOLDER('" + f.fC.id + "'))") ==
        Without(kAllDocuments, {"a1.txt", "c1.txt", "c2.txt", "c3.txt"}));
  CHECK(q("NOT NOT cmis:name = 'a1.txt'") == Names{"a1.txt"});
  CHECK(q("NOT (cmis:name <> 'a1.txt')") == Names{"a1.txt"});
  // NOT of a comparison with a property that is not set is not true either (SQL).
  CHECK(f.Set("SELECT * FROM acme:contract WHERE NOT (acme:amount > 100 AND acme:count = 7)") == Names{"c1.txt"});
  CHECK(f.Set("SELECT * FROM acme:contract WHERE NOT (acme:amount > 100) OR acme:count IS NULL") ==
        Names{"c1.txt", "c3.txt"});
}

TEST_CASE("Query: ORDER BY several keys, ASC and DESC, on every orderable type; paging") {
  QueryFixture f;
  const std::vector<std::string> by_name = {"100%_done.txt", "O'Neil's plan.txt",
                                            "a1.txt",        "a2.md",
                                            "b1.json",       "b2.bin",
                                            "c1.txt",        "c2.txt",
                                            "c3.txt",        "r.txt",
                                            "v.txt"};
  CHECK(f.Names("SELECT * FROM cmis:document ORDER BY cmis:name") == by_name);
  CHECK(f.Names("SELECT * FROM cmis:document ORDER BY name ASC") == by_name);
  CHECK(f.Names("SELECT * FROM cmis:document ORDER BY cmis:name DESC") ==
        std::vector<std::string>(by_name.rbegin(), by_name.rend()));
  CHECK(f.Names("SELECT cmis:name AS n FROM cmis:document WHERE IN_FOLDER('" + f.fA.id + "') ORDER BY n DESC") ==
        std::vector<std::string>{"a2.md", "a1.txt"});
  // NULL comes first ascending, last descending.
  CHECK(f.Names("SELECT * FROM acme:contract ORDER BY acme:amount DESC") ==
        std::vector<std::string>{"c2.txt", "c1.txt", "c3.txt"});
  CHECK(f.Names("SELECT * FROM acme:contract ORDER BY acme:amount") ==
        std::vector<std::string>{"c3.txt", "c1.txt", "c2.txt"});
  CHECK(f.Names("SELECT * FROM acme:contract ORDER BY acme:signed") ==
        std::vector<std::string>{"c3.txt", "c2.txt", "c1.txt"});
  CHECK(f.Names("SELECT * FROM acme:contract ORDER BY acme:due DESC") ==
        std::vector<std::string>{"c2.txt", "c1.txt", "c3.txt"});
  CHECK(f.Names("SELECT * FROM acme:contract ORDER BY acme:heading DESC, cmis:name DESC") ==
        std::vector<std::string>{"c1.txt", "c3.txt", "c2.txt"});
  CHECK(f.Names("SELECT * FROM cmis:document WHERE IN_TREE('" + f.fA.id +
                "') ORDER BY cmis:createdBy DESC, cmis:creationDate DESC") ==
        std::vector<std::string>{"a2.md", "b2.bin", "b1.json", "a1.txt"});
  CHECK(f.Names("SELECT * FROM cmis:document WHERE IN_TREE('" + f.fA.id +
                "') ORDER BY cmis:contentStreamMimeType, cmis:contentStreamLength DESC") ==
        std::vector<std::string>{"b1.json", "b2.bin", "a2.md", "a1.txt"});
  auto versions = f.Ids("SELECT * FROM cmis:document WHERE cmis:name = 'v.txt' ORDER BY cmis:versionLabel DESC", true);
  CHECK(versions == std::vector<std::string>{f.v.id, f.v1.id});

  query::QueryPage page;
  page.skip = 2;
  page.max = 3;
  auto hits = f.Run("SELECT * FROM cmis:document ORDER BY cmis:name", page);
  REQUIRE(hits.ok());
  CHECK(hits->total == 11);
  REQUIRE(hits->hits.size() == 3);
  CHECK(f.repo->GetObject(hits->hits[0].object_id)->name == "a1.txt");
  CHECK(f.repo->GetObject(hits->hits[2].object_id)->name == "b1.json");
  page.skip = 10;
  hits = f.Run("SELECT * FROM cmis:document ORDER BY cmis:name", page);
  REQUIRE(hits.ok());
  CHECK(hits->hits.size() == 1);
  page.skip = 50;
  hits = f.Run("SELECT * FROM cmis:document ORDER BY cmis:name", page);
  REQUIRE(hits.ok());
  CHECK(hits->hits.empty());
  CHECK(hits->total == 11);
  page.skip = 0;
  page.max = 0;
  hits = f.Run("SELECT * FROM cmis:document", page);
  REQUIRE(hits.ok());
  CHECK(hits->hits.empty());
  CHECK(hits->total == 11);
}

TEST_CASE("Query: binding errors name the culprit") {
  QueryFixture f;
  struct Case {
    std::string statement;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"SELECT * FROM acme:nothing", "unknown type 'acme:nothing' in FROM (at line 1, column 15)"},
      {"SELECT nope FROM cmis:document", "unknown property 'nope' at line 1, column 8"},
      {"SELECT * FROM cmis:document WHERE acme:amount = 1", "type 'cmis:document' has no property 'acme:amount'"},
      {"SELECT * FROM cmis:folder WHERE cmis:contentStreamLength = 1",
       "type 'cmis:folder' has no property 'cmis:contentStreamLength'"},
      {"SELECT * FROM cmis:folder ORDER BY cmis:versionLabel",
       "type 'cmis:folder' has no property 'cmis:versionLabel'"},
      {"SELECT * FROM cmis:document WHERE cmis:name = 1", "cannot compare string property 'cmis:name' with number 1"},
      {"SELECT * FROM cmis:document WHERE cmis:name = TRUE", "cannot compare string property 'cmis:name' with TRUE"},
      {"SELECT * FROM cmis:document WHERE cmis:contentStreamLength = '5'",
       "cannot compare integer property 'cmis:contentStreamLength' with string '5'"},
      {"SELECT * FROM cmis:document WHERE cmis:creationDate > '2024-01-01'",
       "cannot compare datetime property 'cmis:creationDate' with string '2024-01-01' (at line 1, column 55): use "
       "TIMESTAMP"},
      {"SELECT * FROM cmis:document WHERE cmis:creationDate > 5", "use TIMESTAMP"},
      {"SELECT * FROM acme:contract WHERE acme:signed = 'yes'", "use TRUE or FALSE"},
      {"SELECT * FROM acme:contract WHERE acme:signed < TRUE",
       "operator '<' is not defined for boolean property 'acme:signed'"},
      {"SELECT * FROM acme:contract WHERE acme:amount IN (1, 'x')", "cannot compare decimal property 'acme:amount'"},
      {"SELECT * FROM acme:contract WHERE acme:count LIKE '1%'", "LIKE needs a string property, but 'acme:count'"},
      {"SELECT * FROM acme:contract WHERE acme:tags = 'red'",
       "property 'acme:tags' (at line 1, column 35) is multi-valued"},
      {"SELECT * FROM acme:contract WHERE acme:tags IN ('red')", "is multi-valued: use ANY acme:tags IN"},
      {"SELECT * FROM acme:contract WHERE 'x' = ANY acme:ref",
       "property 'acme:ref' (at line 1, column 45) is single-valued"},
      {"SELECT * FROM acme:contract WHERE ANY cmis:name IN ('x')", "is single-valued: ANY needs a multi-valued"},
      {"SELECT * FROM acme:contract ORDER BY acme:tags",
       "'acme:tags' (at line 1, column 38) is multi-valued and cannot"},
      {"SELECT * FROM cmis:folder WHERE CONTAINS('x')",
       "CONTAINS (at line 1, column 33) needs a full-text indexed type"},
      {"SELECT * FROM cmis:document WHERE CONTAINS('!!!')", "CONTAINS('!!!'): no word to search for"},
      {"SELECT * FROM cmis:document WHERE IN_FOLDER('fnothere')",
       "IN_FOLDER (at line 1, column 35): no folder with id"},
      {"SELECT * FROM cmis:document WHERE IN_TREE('" + f.a1.id + "')", "is not a folder"},
      {"SELECT x.cmis:name FROM cmis:document d", "unknown qualifier 'x' at line 1, column 8"},
      {"SELECT * FROM cmis:document d WHERE CONTAINS(e, 'x')", "unknown qualifier 'e'"},
      {"SELECT cmis:name, name FROM cmis:document", "'cmis:name' names two columns of the select list"},
      {"SELECT cmis:name AS a, cmis:objectId AS a FROM cmis:document", "'a' names two columns"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.statement);
    Status s = f.Error(c.statement);
    CHECK(s.kind() == ErrorKind::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(c.message) != std::string::npos, s.message());
  }
}
